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

/**
 * A bare success body, `{code: 900}`.
 *
 * @example
 * const res: Answer<OkBody> = await till.api.genResetLink({ email });
 */
export type OkBody = z.infer<typeof okResponse>;
/**
 * `data` of getCoupon.
 *
 * @example
 * const res: DataAnswer<GetCouponData> = await till.store.getCoupon('WELCOME10');
 */
export type GetCouponData = z.infer<typeof getCouponData>;
/**
 * `data` of redeemCoupon.
 *
 * @example
 * const res: DataAnswer<RedeemCouponData> = await till.store.redeemCoupon('FREE100');
 */
export type RedeemCouponData = z.infer<typeof redeemCouponData>;
/**
 * What payWithCredits's `products` holds before it is turned into JSON text: ids, or `{id, quantity}` lines.
 *
 * @example
 * const products: CreditProducts = ['pro-unlock', { id: 'coins', quantity: 2 }];
 */
export type CreditProducts = z.input<typeof creditProductsList>;
/**
 * `data` of payWithCredits.
 *
 * @example
 * const res: DataAnswer<PayWithCreditsData> = await till.store.payWithCredits(['pro-unlock']);
 */
export type PayWithCreditsData = z.infer<typeof payWithCreditsData>;
/**
 * `data` of doCheckout.
 *
 * @example
 * const res: DataAnswer<DoCheckoutData> = await till.store.doCheckout({ products: ['pro-unlock'] });
 */
export type DoCheckoutData = z.infer<typeof doCheckoutData>;
/**
 * `data` of getCheckoutForm.
 *
 * @example
 * const res: DataAnswer<GetCheckoutFormData> = await till.store.getCheckoutForm(['pro-unlock']);
 */
export type GetCheckoutFormData = z.infer<typeof getCheckoutFormData>;
/**
 * `data` of the order status call.
 *
 * @example
 * const res: DataAnswer<OrderStatusData> = await till.store.orderStatus(iden);
 */
export type OrderStatusData = z.infer<typeof orderStatusData>;
