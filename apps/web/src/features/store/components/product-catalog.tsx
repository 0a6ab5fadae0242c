import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from '@/lib/i18n-react';
import type { Product } from '@till/protocol';
import { FrameButton } from '@/components/frame-button';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { useTill } from '@/lib/till';
import { formatDate } from '@/lib/format';
import { useActiveSubscriptions, useOwnedProducts } from '@/lib/use-owned';
import { useInAppStore } from '@/platform/use-in-app-store';
import { useProducts } from '../api/store-api';
import { ProductPrice, useGrantText } from './product-price';

/**
 * The catalog as cards: one column on a phone, more on wider screens. In the phone app a product
 * the app cannot sell has no cart button; its price line says it is not available in the app. A
 * product owned for good, or a subscription the buyer runs (it says when it renews, or until when it
 * runs, as the product's page does), is not offered for sale again.
 */
export function ProductCatalog({
  productHref,
  onAddToCart,
}: {
  productHref: (id: string) => string;
  onAddToCart: (product: Product) => void;
}) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const grantText = useGrantText();
  const query = useProducts();
  const owned = useOwnedProducts();
  const subscriptions = useActiveSubscriptions();
  const inApp = useInAppStore();
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const products = query.data.filter((p) => p.active);
  if (!products.length) return <EmptyState title={t('store.empty')} />;
  return (
    <Box
      component="ul"
      aria-label={t('store.products')}
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' },
      }}
    >
      {products.map((product) => {
        const subscribed = subscriptions.get(product.id);
        return (
          // An outlined Card, CardContent and CardActions in look, drawn with Box: the catalog is
          // the first screen, and they would load Paper and three components only for this.
          <Box
            component="li"
            key={product.id}
            sx={{
              display: 'flex',
              flexDirection: 'column',
              overflow: 'hidden',
              bgcolor: 'background.paper',
              color: 'text.primary',
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
            }}
          >
            {product.imageUrl ? (
              <Box
                component="img"
                src={till.api.serverUrl(product.imageUrl)}
                alt=""
                loading="lazy"
                width={640}
                height={360}
                sx={{ width: '100%', height: 'auto', aspectRatio: '16 / 9', objectFit: 'cover' }}
              />
            ) : null}
            <Box sx={{ flexGrow: 1, p: 2 }}>
              <Typography variant="h6" component="h2">
                {product.title}
              </Typography>
              {/* A chip's look without MUI's Chip, which the first screen would load only for this. */}
              <Typography
                variant="caption"
                sx={{ display: 'inline-block', my: 1, px: 1.25, py: 0.25, borderRadius: 4, bgcolor: 'action.selected' }}
              >
                {t(`store.type.${product.type}`)}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {product.description}
              </Typography>
              <Typography variant="body2" sx={{ mb: 1 }}>
                {grantText(product)}
              </Typography>
              <ProductPrice product={product} />
            </Box>
            <Box sx={{ display: 'flex', alignItems: 'center', p: 1, gap: 1 }}>
              <FrameButton
                to={productHref(product.alias || product.id)}
                aria-label={t('store.detailsOf', { title: product.title })}
              >
                {t('store.details')}
              </FrameButton>
              {owned.has(product.id) ? (
                // Owned for good: nothing to buy again. Drawn like a chip, without MUI's Chip (first screen).
                <Typography
                  variant="body2"
                  data-testid="owned-mark"
                  sx={{ px: 1.5, py: 0.5, borderRadius: 4, border: 1, borderColor: 'success.main', fontWeight: 600 }}
                >
                  ✓ {t('store.owned')}
                </Typography>
              ) : subscribed ? (
                <Typography
                  variant="body2"
                  data-testid="subscribed-mark"
                  sx={{ px: 1.5, py: 0.5, borderRadius: 4, border: 1, borderColor: 'success.main', fontWeight: 600 }}
                >
                  ✓{' '}
                  {t(subscribed.renews ? 'store.renewsOn' : 'store.subscribedUntil', {
                    date: formatDate(subscribed.until, i18n.language),
                  })}
                </Typography>
              ) : inApp?.offer(product).status === 'notInApp' ? null : (
                <FrameButton
                  variant="contained"
                  onClick={() => onAddToCart(product)}
                  aria-label={t('store.addToCartNamed', { title: product.title })}
                >
                  {t('store.addToCart')}
                </FrameButton>
              )}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
