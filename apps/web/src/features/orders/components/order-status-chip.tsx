import Chip from '@mui/material/Chip';
import type { Theme } from '@mui/material/styles';
import { useTranslation } from '@/lib/i18n-react';
import type { Order } from '@till/protocol';

const colors = {
  pending: 'warning',
  paid: 'success',
  failed: 'error',
  cancelled: 'default',
} as const;

/**
 * The colours of the refund chips: white on the theme's dark blue ("Refunded") and that blue on the
 * page ("Partly refunded", outlined). MUI's own `info` blue gives white text about 3.9:1, under the
 * 4.5:1 that small text needs; the dark one gives more than 7:1.
 */
export function refundChipColors(theme: Theme) {
  return {
    refunded: { text: theme.palette.info.contrastText, background: theme.palette.info.dark },
    partly: { text: theme.palette.info.dark, background: theme.palette.background.paper },
  };
}

/** A paid order with money given back is partly refunded; a refunded one is refunded whole. */
export function isPartlyRefunded(order: Pick<Order, 'status' | 'refunds'>): boolean {
  return order.status === 'paid' && (order.refunds?.length ?? 0) > 0;
}

export function OrderStatusChip({ order }: { order: Pick<Order, 'status' | 'refunds'> }) {
  const { t } = useTranslation();
  if (order.status === 'refunded')
    return (
      <Chip
        size="small"
        label={t('orders.status.refunded')}
        sx={(theme) => ({
          bgcolor: refundChipColors(theme).refunded.background,
          color: refundChipColors(theme).refunded.text,
        })}
      />
    );
  if (isPartlyRefunded(order))
    return (
      <Chip
        size="small"
        variant="outlined"
        label={t('orderRefunds.partly')}
        sx={(theme) => ({
          bgcolor: refundChipColors(theme).partly.background,
          color: refundChipColors(theme).partly.text,
          borderColor: refundChipColors(theme).partly.text,
        })}
      />
    );
  return <Chip size="small" color={colors[order.status]} label={t(`orders.status.${order.status}`)} />;
}
