import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from '@/lib/i18n-react';
import type { Order, OrderItem } from '@till/protocol';
import { formatMoney } from '@/lib/format';

/** Whether the order was paid in credits: then every figure of it is in credits, none in money. */
export function paidInCredits(order: Pick<Order, 'provider'>): boolean {
  return order.provider === 'credits';
}

/**
 * What one line comes to: its unit price and the line's total (unit price × quantity), in money
 * or, for an order paid in credits, in credits. Null where the line has no price of that kind.
 */
export function lineFigures(order: Pick<Order, 'provider'>, item: OrderItem) {
  if (paidInCredits(order)) {
    const unit = item.creditPrice;
    return unit == null ? null : { kind: 'credits' as const, unit, line: unit * item.quantity };
  }
  const unit = item.price;
  return unit
    ? { kind: 'money' as const, unit, line: { amount: unit.amount * item.quantity, currency: unit.currency } }
    : null;
}

/**
 * An order's lines as a table: each item with its quantity, its unit price and the line's total,
 * then the subtotal, the coupon's discount and the total, so that the figures add up in view. An
 * order paid in credits is shown in credits throughout (what each line cost in credits, and the
 * credits spent as its total), never a money price above a total of nothing.
 *
 * On a phone the quantity and unit price go under the item's name ("2 × $1.99"), so the table
 * keeps to the screen's width; from the `sm` breakpoint they have columns of their own. Shared by
 * the buyer's order page and the administrators' order details.
 */
export function OrderItemsTable({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const credits = paidInCredits(order);
  const show = (figure: ReturnType<typeof lineFigures>, which: 'unit' | 'line') => {
    if (!figure) return '—';
    if (figure.kind === 'credits') return t('store.credits', { count: figure[which] });
    return formatMoney(figure[which], lang);
  };
  const wide = { display: { xs: 'none', sm: 'table-cell' } } as const;
  const narrow = { display: { xs: 'block', sm: 'none' } } as const;
  const number = { textAlign: 'right', whiteSpace: 'nowrap' } as const;
  const cell = { px: { xs: 1, sm: 2 } } as const;
  return (
    <Table size="small" aria-label={t('orderLines.label')} sx={{ '& td, & th': cell }}>
      <TableHead>
        <TableRow>
          <TableCell component="th" scope="col">
            {t('orderLines.item')}
          </TableCell>
          <TableCell component="th" scope="col" sx={{ ...wide, ...number }}>
            {t('orderLines.quantity')}
          </TableCell>
          <TableCell component="th" scope="col" sx={{ ...wide, ...number }}>
            {t('orderLines.unitPrice')}
          </TableCell>
          <TableCell component="th" scope="col" sx={number}>
            {t('orderLines.lineTotal')}
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {order.items.map((item) => {
          const figure = lineFigures(order, item);
          return (
            <TableRow key={item.productId} data-testid="order-line">
              <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                {item.title}
                <Typography component="span" variant="body2" color="text.secondary" sx={narrow}>
                  {t('orderLines.quantityTimesUnit', { quantity: item.quantity, unit: show(figure, 'unit') })}
                </Typography>
              </TableCell>
              <TableCell sx={{ ...wide, ...number }}>{item.quantity}</TableCell>
              <TableCell sx={{ ...wide, ...number }}>{show(figure, 'unit')}</TableCell>
              <TableCell sx={number}>{show(figure, 'line')}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
      <TableFooter sx={{ '& td, & th': { color: 'text.primary', fontSize: '0.875rem', borderBottom: 0 } }}>
        {credits ? (
          <TotalRow
            label={t('orderLines.totalCredits')}
            value={t('store.credits', { count: order.creditsSpent })}
            strong
          />
        ) : (
          <>
            <TotalRow label={t('orders.subtotal')} value={formatMoney(order.subtotal, lang)} />
            {order.discount.amount ? (
              <TotalRow
                label={
                  order.couponCode
                    ? t('checkout.summary.discountCode', { code: order.couponCode })
                    : t('orders.discount')
                }
                value={`−${formatMoney(order.discount, lang)}`}
              />
            ) : null}
            <TotalRow label={t('orders.total')} value={formatMoney(order.total, lang)} strong />
          </>
        )}
      </TableFooter>
    </Table>
  );
}

/**
 * A footer row: its label in the item column, its figure under the line totals (the cells between
 * are there, empty, where the quantity and unit price have columns).
 */
function TotalRow({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  const weight = strong ? { fontWeight: 700 } : {};
  const wide = { display: { xs: 'none', sm: 'table-cell' } } as const;
  return (
    <TableRow>
      <TableCell component="th" scope="row" sx={weight}>
        {label}
      </TableCell>
      <TableCell sx={wide} />
      <TableCell sx={wide} />
      <TableCell sx={{ textAlign: 'right', whiteSpace: 'nowrap', ...weight }}>{value}</TableCell>
    </TableRow>
  );
}
