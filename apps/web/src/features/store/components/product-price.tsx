import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ProductType, type Product } from '@till/protocol';
import { formatMoney } from '@/lib/format';
import { periodText } from '@/lib/period';

/** Money price and credit price, whichever the product has. */
export function ProductPrice({ product, size = 'body1' }: { product: Product; size?: 'body1' | 'h5' }) {
  const { t, i18n } = useTranslation();
  const period = periodText(t, product.grants.period);
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
      {product.price ? (
        <Typography variant={size} component="span" sx={{ fontWeight: 600 }}>
          {formatMoney(product.price, i18n.language)}
          {product.type === ProductType.Subscription && period ? ` ${period}` : ''}
        </Typography>
      ) : null}
      {product.creditPrice !== null ? (
        <Typography variant="body2" component="span" color="text.secondary">
          {product.price
            ? t('store.orCredits', { count: product.creditPrice })
            : t('store.credits', { count: product.creditPrice })}
        </Typography>
      ) : null}
    </Box>
  );
}

/** What buying the product gives, in words. */
export function useGrantText() {
  const { t } = useTranslation();
  return (product: Pick<Product, 'type' | 'grants'>): string => {
    const parts: string[] = [];
    if (product.grants.credits) parts.push(t('store.grantsCredits', { count: product.grants.credits }));
    if (product.type === ProductType.NonConsumable) parts.push(t('store.grantsUnlock'));
    if (product.type === ProductType.Subscription)
      parts.push(
        periodText(t, product.grants.period)
          ? t('store.grantsSubscription', { period: periodText(t, product.grants.period) })
          : t('store.type.2'),
      );
    return parts.join(' · ');
  };
}
