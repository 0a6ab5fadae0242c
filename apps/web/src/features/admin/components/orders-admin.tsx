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
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatDate, formatMoney } from '@/lib/format';
import { useTill } from '@/lib/till';
import { useAdminErrorMessage } from '../admin-errors';
import { refundOrder, useAdminOrders } from '../api/admin-api';
import { OrderDetailsDialog, useRefundState } from './order-details';
import { RefundDialog, type RefundChoice } from './refund-dialog';

const STATUSES = ['', ...Object.values(OrderStatus)];

/**
 * Every order, filtered by status; each opens to its payment details. Paid ones can be refunded
 * (the grants are taken back); a card order's refund is asked of the provider first and stays
 * "requested" until the provider confirms it.
 */
export function OrdersAdmin() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useAdminErrorMessage();
  const [status, setStatus] = useState('');
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);
  const [showing, setShowing] = useState<AdminOrder | null>(null);
  const refundState = useRefundState();
  const query = useAdminOrders(status);
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
      <TextField
        select
        label={t('orders.statusLabel')}
        value={status}
        onChange={(e) => setStatus(e.target.value)}
        sx={{ minWidth: 200, mb: 2 }}
      >
        {STATUSES.map((s) => (
          <MenuItem key={s || 'all'} value={s}>
            {s ? t(`admin.orderStatus.${s}`) : t('common.all')}
          </MenuItem>
        ))}
      </TextField>
      {refund.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(refund.error)}
        </Alert>
      ) : null}
      {refund.isSuccess ? (
        <Alert severity="success" role="status">
          {refund.data.status === OrderStatus.Refunded
            ? t('admin.refunded', { iden: refund.data.iden })
            : refund.variables.choice.kind === 'money'
              ? t('admin.moneyRefunded', {
                  iden: refund.data.iden,
                  amount: formatMoney(
                    { amount: refund.variables.choice.amount, currency: refund.data.total.currency },
                    i18n.language,
                  ),
                })
              : t('admin.refundAsked', { iden: refund.data.iden })}
        </Alert>
      ) : null}
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && !query.data.orders.length ? <EmptyState title={t('orders.empty')} /> : null}
      {query.data?.orders.length ? (
        <DataTable<AdminOrder>
          label={t('admin.orders')}
          rows={query.data.orders}
          rowKey={(o) => o.iden}
          columns={[
            { key: 'iden', header: t('admin.order'), render: (o) => o.iden, hideOnPhone: true },
            {
              key: 'email',
              header: t('admin.buyer'),
              render: (o) => <span style={{ wordBreak: 'break-all' }}>{o.email}</span>,
            },
            {
              key: 'total',
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
              header: '',
              render: (o) => (
                <Box sx={{ display: 'flex', flexWrap: { xs: 'wrap', sm: 'nowrap' }, gap: 0.5 }}>
                  <Button onClick={() => setShowing(o)} aria-label={t('admin.detailsNamed', { iden: o.iden })}>
                    {t('admin.details')}
                  </Button>
                  {/* A refund already asked of the provider is not asked again. */}
                  {o.status === OrderStatus.Paid && !o.payment.refundRequestedAt ? (
                    <Button
                      color="warning"
                      onClick={() => setRefunding(o)}
                      aria-label={t('admin.refundNamed', { iden: o.iden })}
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
