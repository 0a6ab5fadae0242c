import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OrderStatus, type AdminOrder } from '@till/protocol';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { codeOf } from '@/lib/api-error';
import { formatDate, formatMoney } from '@/lib/format';
import { useTill } from '@/lib/till';
import { refundOrder, useAdminOrders } from '../api/admin-api';

const STATUSES = ['', ...Object.values(OrderStatus)];

/** Every order, filtered by status; paid ones can be refunded (the grants are taken back). */
export function OrdersAdmin() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const [status, setStatus] = useState('');
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);
  const query = useAdminOrders(status);
  const refund = useMutation({
    mutationFn: (o: AdminOrder) => refundOrder(till, o.iden, 'refunded by an administrator'),
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
            {s ? t(`orders.status.${s}`) : t('common.all')}
          </MenuItem>
        ))}
      </TextField>
      {refund.isError ? (
        <Alert severity="error" role="alert">
          {codeOf(refund.error) === 912 ? t('admin.cannotRefund') : errorMessage(refund.error)}
        </Alert>
      ) : null}
      {refund.isSuccess ? (
        <Alert severity="success" role="status">
          {t('admin.refunded', { iden: refund.data.iden })}
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
            { key: 'status', header: t('orders.statusLabel'), render: (o) => t(`orders.status.${o.status}`) },
            {
              key: 'date',
              header: t('orders.created'),
              render: (o) => formatDate(o.createdAt, i18n.language),
              hideOnPhone: true,
            },
            {
              key: 'refund',
              header: '',
              render: (o) =>
                o.status === OrderStatus.Paid ? (
                  <Button
                    color="warning"
                    onClick={() => setRefunding(o)}
                    aria-label={t('admin.refundNamed', { iden: o.iden })}
                  >
                    {t('admin.refund')}
                  </Button>
                ) : null,
            },
          ]}
        />
      ) : null}
      <ConfirmDialog
        open={refunding !== null}
        title={t('admin.refundTitle')}
        text={t('admin.refundText', { iden: refunding?.iden ?? '', email: refunding?.email ?? '' })}
        confirmLabel={t('admin.refund')}
        busy={refund.isPending}
        onConfirm={() => refunding && refund.mutate(refunding)}
        onClose={() => setRefunding(null)}
      />
    </>
  );
}
