import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from '@/lib/i18n-react';
import type { Product } from '@till/protocol';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { usePageTitle } from '@/lib/use-page-title';
import { useTill } from '@/lib/till';
import { formatDate } from '@/lib/format';
import { useActiveSubscriptions, useOwnedProducts } from '@/lib/use-owned';
import { useInAppStore } from '@/platform/use-in-app-store';
import { useProduct } from '../api/store-api';
import { ProductPrice, useGrantText } from './product-price';

/**
 * One product: what it is, what it gives, and the ways to buy it. A subscription the buyer has
 * running says until when, or when it renews, with the way to the orders (where it is managed),
 * instead of offering to buy it again as if new. In the phone app a product that the app cannot
 * sell (not in its store, no credit price, web routes hidden) says so instead.
 */
export function ProductDetail({
  idOrAlias,
  onAddToCart,
  onBuy,
  ordersHref,
  storeHref,
}: {
  idOrAlias: string;
  /** Where the store's catalog is: a product that is not there sends the visitor back to it. */
  storeHref: string;
  onAddToCart: (product: Product) => void;
  onBuy: (product: Product) => void;
  ordersHref?: string;
}) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const grantText = useGrantText();
  const { product, ...query } = useProduct(idOrAlias);
  const owned = useOwnedProducts();
  const inApp = useInAppStore();
  const subscriptions = useActiveSubscriptions();
  usePageTitle(product?.title ?? t('store.product'));
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (!product)
    return (
      <EmptyState title={t('store.notFound')}>
        <Button component={RouterLink} to={storeHref} variant="contained">
          {t('store.backToStore')}
        </Button>
      </EmptyState>
    );
  const notInApp = inApp?.offer(product).status === 'notInApp';
  const subscribed = subscriptions.get(product.id);
  return (
    <Box component="article" sx={{ maxWidth: 720 }}>
      <Typography variant="h4" component="h1" gutterBottom sx={{ fontWeight: 600 }}>
        {product.title}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, flexWrap: 'wrap' }}>
        <Chip label={t(`store.type.${product.type}`)} />
        {owned.has(product.id) ? <Chip color="success" label={t('store.owned')} data-testid="owned-mark" /> : null}
        {subscribed ? (
          <Chip
            color="success"
            label={t(subscribed.renews ? 'store.renewsOn' : 'store.subscribedUntil', {
              date: formatDate(subscribed.until, i18n.language),
            })}
          />
        ) : null}
      </Stack>
      {product.imageUrl ? (
        <Box
          component="img"
          src={till.api.serverUrl(product.imageUrl)}
          alt={product.title}
          width={720}
          height={405}
          sx={{
            display: 'block',
            width: '100%',
            height: 'auto',
            aspectRatio: '16 / 9',
            objectFit: 'cover',
            borderRadius: 1,
            mb: 2,
          }}
        />
      ) : null}
      <Typography sx={{ mb: 2 }}>{product.description}</Typography>
      <Typography sx={{ mb: 2 }}>{grantText(product)}</Typography>
      <ProductPrice product={product} size="h5" note={!notInApp} />
      {owned.has(product.id) ? (
        <Alert severity="success" sx={{ mt: 2 }}>
          {t('store.ownedText')}
        </Alert>
      ) : subscribed ? (
        <Alert
          severity="success"
          sx={{ mt: 2 }}
          action={
            ordersHref ? (
              <Button component={RouterLink} to={ordersHref} color="inherit" size="small">
                {t('subscriptions.toOrders')}
              </Button>
            ) : undefined
          }
        >
          {t(subscribed.renews ? 'subscriptions.productRenews' : 'subscriptions.productUntil', {
            date: formatDate(subscribed.until, i18n.language),
          })}
        </Alert>
      ) : notInApp ? (
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('store.notInAppText')}
        </Alert>
      ) : product.active ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3 }}>
          <Button variant="contained" size="large" onClick={() => onBuy(product)}>
            {t('store.buyNow')}
          </Button>
          <Button variant="outlined" size="large" onClick={() => onAddToCart(product)}>
            {t('store.addToCart')}
          </Button>
        </Stack>
      ) : (
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('store.unavailable')}
        </Alert>
      )}
    </Box>
  );
}
