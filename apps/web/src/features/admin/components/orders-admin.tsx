import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { OrderStatus, type AdminOrder } from '@till/protocol';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatDate, formatMoney } from '@/lib/format';
import { useTill } from '@/lib/till';
import { refundOrder, useAdminOrders } from '../api/admin-api';
import { orderNumber } from '../order-number';
import { OrderDetailsDialog, useRefundState } from './order-details';
import { RefundDialog, type RefundChoice } from './refund-dialog';

const STATUSES = ['', ...Object.values(OrderStatus)];

/**
 * Every order, filtered by status and found by the number the buyer sees or the buyer's e-mail;
 * each opens to its items, coupon, payment and refunds. Paid ones can be refunded
 * (the grants are taken back); a card order's refund is asked of the provider first and stays
 * "requested" until the provider confirms it.
 */
export function OrdersAdmin() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage('admin');
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);
  const [showing, setShowing] = useState<AdminOrder | null>(null);
  const refundState = useRefundState();
  const orders = useAdminOrders(status, query);
  const refund = useMutation({
    mutationFn: ({ order, choice }: { order: AdminOrder; choice: RefundChoice }) =>
      refundOrder(
        till,
        order.iden,
        choice.reason || 'refunded by an administrator',
        choice.kind === 'money' ? { amount: choice.amount, keepGrants: true } : undefined,
      ),
    onSuccess: () => {
      setRefunding(null);
      void client.invalidateQueries({ queryKey: ['admin', 'orders'] });
    },
    onError: () => setRefunding(null),
  });
  return (
    <>
      <Box
        component="form"
        role="search"
        aria-label={t('admin.orderSearchLabel')}
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(search.trim());
        }}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', mb: 2 }}
      >
        <TextField
          select
          label={t('orders.statusLabel')}
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          sx={{ minWidth: 160, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
        >
          {STATUSES.map((s) => (
            <MenuItem key={s || 'all'} value={s}>
              {s ? t(`admin.orderStatus.${s}`) : t('common.all')}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="search"
          label={t('admin.orderSearch')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            // Emptied, the box shows every order again without a press of Search.
            if (!e.target.value.trim()) setQuery('');
          }}
          placeholder="#30310E"
          slotProps={{ htmlInput: { maxLength: 254 } }}
          sx={{ flex: '1 1 200px' }}
        />
        <Button type="submit" variant="outlined" sx={{ mt: 1 }}>
          {t('admin.search')}
        </Button>
      </Box>
      {refund.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(refund.error)}
        </Alert>
      ) : null}
      {refund.isSuccess ? (
        <Alert severity="success" role="status">
          {refund.data.status === OrderStatus.Refunded
            ? t('admin.refunded', { iden: orderNumber(refund.data.iden) })
            : refund.variables.choice.kind === 'money'
              ? t('admin.moneyRefunded', {
                  iden: orderNumber(refund.data.iden),
                  amount: formatMoney(
                    { amount: refund.variables.choice.amount, currency: refund.data.total.currency },
                    i18n.language,
                  ),
                })
              : t('admin.refundAsked', { iden: orderNumber(refund.data.iden) })}
        </Alert>
      ) : null}
      {orders.isPending ? <LoadingState /> : null}
      {orders.isError ? <ErrorState error={orders.error} onRetry={() => void orders.refetch()} /> : null}
      {orders.data && !orders.data.orders.length ? (
        <EmptyState title={query ? t('admin.noOrdersFound', { query }) : t('orders.empty')} />
      ) : null}
      {orders.data?.orders.length ? (
        <DataTable<AdminOrder>
          label={t('admin.orders')}
          rows={orders.data.orders}
          rowKey={(o) => o.iden}
          columns={[
            {
              key: 'number',
              header: t('admin.order'),
              render: (o) => (
                <>
                  <Typography component="span" variant="body2" sx={{ fontWeight: 600, display: 'block' }}>
                    {orderNumber(o.iden)}
                  </Typography>
                  <Typography component="span" variant="body2" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                    {o.email}
                  </Typography>
                </>
              ),
            },
            {
              key: 'total',
              hideOnPhone: true,
              header: t('orders.total'),
              render: (o) =>
                o.provider === 'credits'
                  ? t('store.credits', { count: o.creditsSpent })
                  : formatMoney(o.total, i18n.language),
            },
            {
              key: 'status',
              header: t('orders.statusLabel'),
              render: (o) => {
                const requested = o.status === OrderStatus.Paid ? refundState(o) : null;
                const partly = o.payment.refundedAmount
                  ? t('admin.refundedSoFar', {
                      amount: formatMoney(
                        { amount: o.payment.refundedAmount, currency: o.total.currency },
                        i18n.language,
                      ),
                    })
                  : null;
                const refundLine = [
                  o.payment.sandbox ? t('admin.sandboxOrder') : null,
                  requested,
                  o.status === OrderStatus.Paid ? partly : null,
                ]
                  .filter(Boolean)
                  .join(' · ');
                return refundLine ? (
                  <>
                    {t(`admin.orderStatus.${o.status}`)}
                    <Typography variant="body2" color="warning.main" component="span" sx={{ display: 'block' }}>
                      {refundLine}
                    </Typography>
                  </>
                ) : (
                  t(`admin.orderStatus.${o.status}`)
                );
              },
            },
            {
              key: 'date',
              header: t('orders.created'),
              render: (o) => formatDate(o.createdAt, i18n.language),
              hideOnPhone: true,
            },
            {
              key: 'refund',
              header: t('admin.actions'),
              render: (o) => (
                <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 0.5 }}>
                  <Button
                    onClick={() => setShowing(o)}
                    aria-label={t('admin.detailsNamed', { iden: orderNumber(o.iden) })}
                  >
                    {t('admin.details')}
                  </Button>
                  {/* A refund already asked of the provider is not asked again. */}
                  {o.status === OrderStatus.Paid && !o.payment.refundRequestedAt ? (
                    <Button
                      color="warning"
                      onClick={() => setRefunding(o)}
                      aria-label={t('admin.refundNamed', { iden: orderNumber(o.iden) })}
                    >
                      {t('admin.refund')}
                    </Button>
                  ) : null}
                </Box>
              ),
            },
          ]}
        />
      ) : null}
      <OrderDetailsDialog order={showing} onClose={() => setShowing(null)} />
      {refunding ? (
        <RefundDialog
          key={refunding.iden}
          order={refunding}
          busy={refund.isPending}
          onConfirm={(choice) => refund.mutate({ order: refunding, choice })}
          onClose={() => setRefunding(null)}
        />
      ) : null}
    </>
  );
}
