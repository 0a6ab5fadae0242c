import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from '@/lib/i18n-react';
import type { Order } from '@till/protocol';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatDate, formatMoney } from '@/lib/format';
import { orderRef } from '@/lib/order-ref';
import { useOrders } from '../api/orders-api';
import { OrderRefunds } from './order-refunds';
import { useSubscriptionLine } from './order-subscription';
import { OrderStatusChip } from './order-status-chip';

/**
 * The buyer's order history as rows that open: each row is one link to its order, with the
 * reference, date, what was bought, the status (refunded or partly so, with each refund) and the amount in view at any width (on a phone
 * the row wraps instead of scrolling sideways).
 */
export function OrderList({ orderHref }: { orderHref: (iden: string) => string }) {
  const { t, i18n } = useTranslation();
  const query = useOrders();
  const subscriptionLine = useSubscriptionLine();
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data.length) return <EmptyState title={t('orders.empty')} />;
  const amount = (o: Order) =>
    o.provider === 'credits' ? t('store.credits', { count: o.creditsSpent }) : formatMoney(o.total, i18n.language);
  return (
    <Paper variant="outlined" component="ul" aria-label={t('orders.title')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {query.data.map((o, i) => (
        <Box component="li" key={o.iden} sx={{ borderTop: i ? 1 : 0, borderColor: 'divider' }}>
          <Box
            component={RouterLink}
            to={orderHref(o.iden)}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1,
              px: 2,
              py: 1.5,
              minHeight: 48,
              color: 'inherit',
              textDecoration: 'none',
              '&:hover': { bgcolor: 'action.hover' },
              '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
            }}
          >
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  {t('orders.ref', { ref: orderRef(o.iden) })}
                </Typography>
                <OrderStatusChip order={o} />
              </Box>
              <Typography variant="body2" color="text.secondary" noWrap>
                {o.items
                  .map((item) => (item.quantity > 1 ? `${item.title} × ${item.quantity}` : item.title))
                  .join(', ')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {formatDate(o.createdAt, i18n.language)}
              </Typography>
              {subscriptionLine(o) ? (
                <Typography variant="body2" color="text.secondary">
                  {subscriptionLine(o)}
                </Typography>
              ) : null}
              <OrderRefunds order={o} dense />
            </Box>
            <Typography component="span" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
              {amount(o)}
            </Typography>
            <ChevronRightIcon aria-hidden color="action" />
          </Box>
        </Box>
      ))}
    </Paper>
  );
}
