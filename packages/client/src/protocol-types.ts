import type { z } from 'zod';
import type {
  creditProductsList,
  doCheckoutData,
  getCheckoutFormData,
  getCouponData,
  okResponse,
  orderStatusData,
  payWithCreditsData,
  redeemCouponData,
} from '@till/protocol';

// Types of protocol payloads that the protocol package defines as schemas only; inferred here from
// those schemas so that the SDK never holds a second, hand-written copy of a wire shape.

/** A bare success body, `{code: 900}`. */
export type OkBody = z.infer<typeof okResponse>;
/** `data` of getCoupon. */
export type GetCouponData = z.infer<typeof getCouponData>;
/** `data` of redeemCoupon. */
export type RedeemCouponData = z.infer<typeof redeemCouponData>;
/** What payWithCredits's `products` holds before it is turned into JSON text: ids, or `{id, quantity}` lines. */
export type CreditProducts = z.input<typeof creditProductsList>;
/** `data` of payWithCredits. */
export type PayWithCreditsData = z.infer<typeof payWithCreditsData>;
/** `data` of doCheckout. */
export type DoCheckoutData = z.infer<typeof doCheckoutData>;
/** `data` of getCheckoutForm. */
export type GetCheckoutFormData = z.infer<typeof getCheckoutFormData>;
/** `data` of the order status call. */
export type OrderStatusData = z.infer<typeof orderStatusData>;
