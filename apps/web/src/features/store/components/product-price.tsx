import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from '@/lib/i18n-react';
import { ProductType, type Product } from '@till/protocol';
import { formatMoney } from '@/lib/format';
import { periodText } from '@/lib/period';
import { useInAppStore } from '@/platform/use-in-app-store';

/**
 * Money price and credit price, whichever the product has. In the phone app the money price is the
 * app's store's own (the buyer's currency and locale, as the store will charge it); a product the
 * store does not offer says why instead, with the server's price where the app pays it on a web
 * route the server shows in the apps. `note` false leaves out why (a page that says it otherwise).
 */
export function ProductPrice({
  product,
  size = 'body1',
  note = true,
}: {
  product: Product;
  size?: 'body1' | 'h5';
  note?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const inApp = useInAppStore();
  const offer = inApp?.offer(product);
  const period = periodText(t, product.grants.period);
  const webPrice = formatMoney(product.price, i18n.language);
  const price = !offer
    ? webPrice
    : offer.status === 'offered'
      ? offer.price
      : offer.status === 'notSold' && inApp?.app?.webPayments === 'shown'
        ? webPrice
        : null;
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
      {price ? (
        <Typography variant={size} component="span" sx={{ fontWeight: 600 }}>
          {price}
          {product.type === ProductType.Subscription && period ? ` ${period}` : ''}
        </Typography>
      ) : null}
      {offer && offer.status !== 'offered' && note ? (
        <Typography variant="body2" component="span" color="text.secondary">
          {t(`store.inApp.${offer.status}`)}
        </Typography>
      ) : null}
      {product.creditPrice !== null ? (
        <Typography variant="body2" component="span" color="text.secondary">
          {price
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
