import { Failure, type Outcome } from '../../errors.js';
import type { Line } from './catalog.js';
import type { Coupons } from './coupons.js';
import { discountFor, moneySubtotal, type CouponRow } from './pricing.js';

/** A cart priced: its money, the coupon's discount and the total a checkout charges. */
export interface CartPrice {
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  /** The discount coupon that applies, or null when none was asked for. */
  coupon: CouponRow | null;
}

/**
 * The one pricing of a cart, shared by doCheckout and its preview so that the two cannot disagree:
 * the subtotal (907 when a line has no money price), then the discount coupon's checks (908 with
 * its reason) and what it takes off, then a total never below zero. Reads only, outside any
 * transaction, as the products were; the checkout then takes the coupon's use in its transaction,
 * where conditional updates settle the limits that racing checkouts share.
 */
export async function priceCart(
  coupons: Pick<Coupons, 'check'>,
  lines: Line[],
  options: { code?: string | undefined; userId: string; now: number; parameter: string },
): Promise<Outcome<CartPrice>> {
  const sum = moneySubtotal(lines, options.parameter);
  if (sum instanceof Failure) return sum;
  const { currency, subtotal } = sum;
  if (!options.code) return { currency, subtotal, discount: 0, total: subtotal, coupon: null };
  const coupon = await coupons.check(options.code, options.userId, options.now, 'discount');
  if (coupon instanceof Failure) return coupon;
  const off = discountFor(coupon, lines, currency, subtotal);
  if (off instanceof Failure) return off;
  return { currency, subtotal, discount: off, total: Math.max(0, subtotal - off), coupon };
}
