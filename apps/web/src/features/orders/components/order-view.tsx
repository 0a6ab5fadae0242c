import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import Stack from '@mui/material/Stack';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OrderStatus, ProductType, type Order, type Product } from '@till/protocol';
import { ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatDate, formatMoney } from '@/lib/format';
import { goToPayment } from '@/lib/payment';
import { useTill } from '@/lib/till';
import { cancelOrder, payAgain, useCatalog, useOrder } from '../api/orders-api';
import { OrderStatusChip } from './order-status-chip';

/** What a paid order gave the buyer, line by line. */
function useGrants() {
  const { t } = useTranslation();
  return (order: Order, catalog: readonly Product[] | undefined): string[] => {
    const byId = new Map((catalog ?? []).map((p) => [p.id, p]));
    return order.items.map((item) => {
      const product = byId.get(item.productId);
      const credits = (product?.grants.credits ?? 0) * item.quantity;
      if (credits) return t('orders.grantedCredits', { count: credits, title: item.title });
      if (product?.type === ProductType.Subscription) return t('orders.grantedSubscription', { title: item.title });
      return t('orders.grantedProduct', { title: item.title });
    });
  };
}

/** One order: watched until final, then what it granted; pending or failed ones can be paid again. */
export function OrderView({ iden }: { iden: string }) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const order = useOrder(iden);
  const catalog = useCatalog();
  const grants = useGrants();
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: () => payAgain(till, iden),
    onSuccess: (data) => goToPayment(data.payment),
  });
  const cancel = useMutation({
    mutationFn: () => cancelOrder(till, iden),
    onSuccess: (updated) => client.setQueryData(['store', 'order', iden], updated),
  });
  if (order.isPending) return <LoadingState />;
  if (order.isError) return <ErrorState error={order.error} onRetry={() => void order.refetch()} />;
  const o = order.data;
  const lang = i18n.language;
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }} role="status" aria-live="polite">
        <Typography component="span">{t('orders.statusLabel')}:</Typography>
        <OrderStatusChip status={o.status} />
        {o.status === OrderStatus.Pending ? <CircularProgress size={18} aria-label={t('orders.waiting')} /> : null}
      </Box>
      {o.status === OrderStatus.Pending ? <Alert severity="info">{t('orders.pendingText')}</Alert> : null}
      {o.status === OrderStatus.Paid ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          <Typography component="p" sx={{ fontWeight: 600 }}>
            {t('orders.paidText')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {grants(o, catalog.data).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </Box>
        </Alert>
      ) : null}
      {o.status === OrderStatus.Failed || o.status === OrderStatus.Cancelled ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t(`orders.${o.status}Text`)}
        </Alert>
      ) : null}
      {o.status === OrderStatus.Refunded ? <Alert severity="info">{t('orders.refundedText')}</Alert> : null}
      <List aria-label={t('orders.items')}>
        {o.items.map((item) => (
          <ListItem key={item.productId} divider>
            <ListItemText
              primary={`${item.title}${item.quantity > 1 ? ` × ${item.quantity}` : ''}`}
              secondary={
                item.price ? formatMoney(item.price, lang) : t('store.credits', { count: item.creditPrice ?? 0 })
              }
            />
          </ListItem>
        ))}
      </List>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, '& dd': { m: 0 } }}
      >
        <dt>{t('orders.subtotal')}</dt>
        <dd>{formatMoney(o.subtotal, lang)}</dd>
        {o.discount.amount ? (
          <>
            <dt>{t('orders.discount')}</dt>
            <dd>
              −{formatMoney(o.discount, lang)}
              {o.couponCode ? ` (${o.couponCode})` : ''}
            </dd>
          </>
        ) : null}
        <dt>{t('orders.total')}</dt>
        <dd>
          <strong>{formatMoney(o.total, lang)}</strong>
        </dd>
        {o.creditsSpent ? (
          <>
            <dt>{t('orders.creditsSpent')}</dt>
            <dd>{o.creditsSpent}</dd>
          </>
        ) : null}
        <dt>{t('orders.paidWith')}</dt>
        <dd>{t(`providers.${o.provider}`, { defaultValue: o.provider })}</dd>
        <dt>{t('orders.created')}</dt>
        <dd>{formatDate(o.createdAt, lang)}</dd>
        {o.paidAt ? (
          <>
            <dt>{t('orders.paidAt')}</dt>
            <dd>{formatDate(o.paidAt, lang)}</dd>
          </>
        ) : null}
      </Box>
      {(o.status === OrderStatus.Pending || o.status === OrderStatus.Failed) && o.provider !== 'credits' ? (
        <>
          <Divider sx={{ my: 2 }} />
          {retry.isError || cancel.isError ? (
            <Alert severity="error" sx={{ mb: 1 }}>
              {errorMessage(retry.error ?? cancel.error)}
            </Alert>
          ) : null}
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" onClick={() => retry.mutate()} disabled={retry.isPending}>
              {t('orders.payAgain')}
            </Button>
            {o.status === OrderStatus.Pending ? (
              <Button color="warning" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
                {t('orders.cancel')}
              </Button>
            ) : null}
          </Stack>
        </>
      ) : null}
    </Box>
  );
}
