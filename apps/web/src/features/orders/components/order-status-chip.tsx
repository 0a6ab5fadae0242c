import Chip from '@mui/material/Chip';
import { useTranslation } from '@/lib/i18n-react';
import type { Order } from '@till/protocol';

const colors = {
  pending: 'warning',
  paid: 'success',
  failed: 'error',
  cancelled: 'default',
  refunded: 'info',
} as const;

export function OrderStatusChip({ status }: { status: Order['status'] }) {
  const { t } = useTranslation();
  return <Chip size="small" color={colors[status]} label={t(`orders.status.${status}`)} />;
}
