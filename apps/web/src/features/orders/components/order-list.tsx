import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Order } from '@till/protocol';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatDate, formatMoney } from '@/lib/format';
import { useOrders } from '../api/orders-api';
import { OrderStatusChip } from './order-status-chip';

/** The buyer's order history. */
export function OrderList({ orderHref }: { orderHref: (iden: string) => string }) {
  const { t, i18n } = useTranslation();
  const query = useOrders();
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data.length) return <EmptyState title={t('orders.empty')} />;
  return (
    <DataTable<Order>
      label={t('orders.title')}
      rows={query.data}
      rowKey={(o) => o.iden}
      columns={[
        { key: 'date', header: t('orders.created'), render: (o) => formatDate(o.createdAt, i18n.language) },
        { key: 'items', header: t('orders.items'), render: (o) => o.items.map((i) => i.title).join(', ') },
        {
          key: 'total',
          header: t('orders.total'),
          render: (o) =>
            o.provider === 'credits'
              ? t('store.credits', { count: o.creditsSpent })
              : formatMoney(o.total, i18n.language),
        },
        { key: 'status', header: t('orders.statusLabel'), render: (o) => <OrderStatusChip status={o.status} /> },
        {
          key: 'open',
          header: '',
          render: (o) => (
            <Button component={RouterLink} to={orderHref(o.iden)} aria-label={t('orders.openNamed', { iden: o.iden })}>
              {t('orders.open')}
            </Button>
          ),
        },
      ]}
    />
  );
}
