import type Stripe from 'stripe';
import type { PayableLine, PayableOrder } from '../../provider.js';

/** How Stripe spells a recurring interval, from the ISO 8601 period a product grants. */
export function recurringOf(
  period: string,
  quantity: number,
): Stripe.Checkout.SessionCreateParams.LineItem.PriceData.Recurring {
  const m = /^P(\d+)([DWMY])$/.exec(period);
  if (!m) throw new Error(`not a period: ${period}`);
  const interval = ({ D: 'day', W: 'week', M: 'month', Y: 'year' } as const)[m[2] as 'D' | 'W' | 'M' | 'Y'];
  // A subscription bought twice grants two periods per payment, so it is billed once per two periods.
  return { interval, interval_count: Number(m[1]) * quantity };
}

/**
 * The order's lines as Stripe's line items, summing exactly to the order's total: each line is
 * billed whole (quantity 1, named with its count), and the order's discount is shared out over the
 * lines in proportion to their amounts, the remainder on the last, so no coupon has to exist at
 * Stripe and no rounding can make Stripe charge a cent more or less than the order says.
 */
export function lineItems(order: PayableOrder): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const amounts = order.lines.map((l) => l.unitAmount * l.quantity);
  const subtotal = amounts.reduce((a, b) => a + b, 0);
  const discount = subtotal - order.total.amount;
  let left = discount;
  const currency = order.total.currency.toLowerCase();
  return order.lines.map((line: PayableLine, i) => {
    const amount = amounts[i] ?? 0;
    const share = i === order.lines.length - 1 ? left : subtotal ? Math.floor((discount * amount) / subtotal) : 0;
    left -= share;
    return {
      quantity: 1,
      price_data: {
        currency,
        unit_amount: amount - share,
        product_data: { name: line.quantity > 1 ? `${line.title} × ${line.quantity}` : line.title },
        ...(line.period ? { recurring: recurringOf(line.period, line.quantity) } : {}),
      },
    };
  });
}

/**
 * The Checkout Session for a pending order: its lines, the order's iden as the reference Stripe
 * sends back (and on the payment or subscription, so that refunds and renewals find the order), and
 * the order page as the way back. It expires before the store's own hold on a coupon does.
 */
export function sessionParams(
  order: PayableOrder,
  publicUrl: string,
  now: number,
): Stripe.Checkout.SessionCreateParams {
  const subscription = order.lines.some((l) => l.period);
  const back = `${publicUrl}/orders/${encodeURIComponent(order.iden)}`;
  const metadata = { iden: order.iden };
  return {
    mode: subscription ? 'subscription' : 'payment',
    line_items: lineItems(order),
    client_reference_id: order.iden,
    metadata,
    ...(subscription ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
    success_url: back,
    cancel_url: back,
    expires_at: Math.floor(now / 1000) + 23 * 3600,
  };
}
