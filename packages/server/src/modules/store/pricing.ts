import type { Selectable } from 'kysely';
import type { CouponsTable } from '../../db/schema.js';
import { fail, type Outcome } from '../../errors.js';
import { MAX_INT, readJson } from '../../db/rows.js';
import type { Line } from './catalog.js';

export type CouponRow = Selectable<CouponsTable>;

/**
 * `percent` of `amount` in minor units, rounded to the nearest unit with halves up: the protocol
 * rounds discounts in the buyer's favour (10% of 1.95 is 0.20, not 0.19).
 */
export function percentOf(amount: number, percent: number): number {
  return Math.floor((amount * percent + 50) / 100);
}

/** The sum of a cart's money prices, or 907 when a line has none or currencies differ. */
export function moneySubtotal(lines: Line[], parameter: string): Outcome<{ currency: string; subtotal: number }> {
  let currency: string | null = null;
  let subtotal = 0;
  for (const { product, quantity } of lines) {
    if (product.price_amount == null || !product.price_currency) return fail.invalidInput(parameter, 'no_price');
    if (currency && currency !== product.price_currency) return fail.invalidInput(parameter, 'currency');
    currency = product.price_currency;
    subtotal += product.price_amount * quantity;
  }
  // An order's money is an integer column: a cart past it is refused, not wrapped or failed in SQL.
  if (subtotal > MAX_INT) return fail.invalidInput(parameter, 'too_long');
  return { currency: currency ?? 'USD', subtotal };
}

/**
 * What a discount coupon takes off this cart: 908 `grant_coupon` when it is a grant coupon (redeemed,
 * not applied), `not_applicable` when none of the cart's products is one it applies to, or when its
 * money is in another currency;
 * 908 `min_total` when the cart is below its minimum. Never more than the lines it applies to.
 */
export function discountFor(coupon: CouponRow, lines: Line[], currency: string, subtotal: number): Outcome<number> {
  if (coupon.kind !== 'discount') return fail.couponRefused('grant_coupon');
  const appliesTo = readJson<string[] | null>(coupon.applies_to, null);
  const eligible = appliesTo ? lines.filter((l) => appliesTo.includes(l.product.id)) : lines;
  if (!eligible.length) return fail.couponRefused('not_applicable');
  if (coupon.amount_off != null && coupon.amount_currency !== currency) return fail.couponRefused('not_applicable');
  if (coupon.min_total != null) {
    if (coupon.min_total_currency !== currency) return fail.couponRefused('not_applicable');
    if (subtotal < coupon.min_total) return fail.couponRefused('min_total');
  }
  const base = eligible.reduce((sum, l) => sum + (l.product.price_amount ?? 0) * l.quantity, 0);
  const off = coupon.percent_off != null ? percentOf(base, coupon.percent_off) : (coupon.amount_off ?? 0);
  return Math.min(off, base);
}
