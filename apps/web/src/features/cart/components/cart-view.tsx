import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import RemoveIcon from '@mui/icons-material/Remove';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from '@/lib/i18n-react';
import { ProductType } from '@till/protocol';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatMoney } from '@/lib/format';
import { useOwnedProducts } from '@/lib/use-owned';
import { useCheckoutForm } from '../api/checkout-api';
import { useCart } from '../hooks/use-cart';

/** The cart's lines with quantities, and the way on to checkout. */
export function CartView({ checkoutHref, storeHref }: { checkoutHref: string; storeHref: string }) {
  const { t, i18n } = useTranslation();
  const { lines, store } = useCart();
  const form = useCheckoutForm(lines);
  const owned = useOwnedProducts();
  if (!lines.length) {
    return (
      <EmptyState title={t('cart.empty')}>
        <Button component={RouterLink} to={storeHref} variant="contained">
          {t('cart.browse')}
        </Button>
      </EmptyState>
    );
  }
  if (form.isPending) return <LoadingState />;
  if (form.isError) return <ErrorState error={form.error} onRetry={() => void form.refetch()} />;
  const byId = new Map(form.data.products.map((p) => [p.id, p]));
  return (
    <Box>
      <List aria-label={t('cart.lines')}>
        {lines.map((line) => {
          const product = byId.get(line.id);
          const title = product?.title ?? line.id;
          const consumable = product?.type === ProductType.Consumable;
          return (
            <ListItem key={line.id} divider sx={{ flexWrap: 'wrap', gap: 1 }}>
              <ListItemText
                primary={title}
                secondary={
                  owned.has(line.id) ? (
                    <Typography component="span" variant="body2" color="warning.dark" data-testid="owned-line">
                      {t('cart.ownedLine')}
                    </Typography>
                  ) : product?.price ? (
                    formatMoney(product.price, i18n.language)
                  ) : (
                    t('store.credits', { count: product?.creditPrice ?? 0 })
                  )
                }
                sx={{ minWidth: 160 }}
              />
              <Box sx={{ display: 'flex', alignItems: 'center' }}>
                {consumable ? (
                  <IconButton
                    aria-label={t('cart.less', { title })}
                    onClick={() => store.setQuantity(line.id, line.quantity - 1)}
                  >
                    <RemoveIcon />
                  </IconButton>
                ) : null}
                <Typography aria-label={t('cart.quantity')} sx={{ minWidth: 24, textAlign: 'center' }}>
                  {line.quantity}
                </Typography>
                {consumable ? (
                  <IconButton
                    aria-label={t('cart.more', { title })}
                    onClick={() => store.setQuantity(line.id, line.quantity + 1)}
                  >
                    <AddIcon />
                  </IconButton>
                ) : null}
                <IconButton aria-label={t('cart.remove', { title })} onClick={() => store.remove(line.id)}>
                  <DeleteIcon />
                </IconButton>
              </Box>
            </ListItem>
          );
        })}
      </List>
      <Box
        sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mt: 2, flexWrap: 'wrap', gap: 2 }}
      >
        <Typography variant="h6" component="p">
          {t('cart.total')}: {form.data.total ? formatMoney(form.data.total, i18n.language) : '—'}
        </Typography>
        <Button component={RouterLink} to={checkoutHref} variant="contained" size="large">
          {t('cart.checkout')}
        </Button>
      </Box>
    </Box>
  );
}
