import { z } from 'zod';
import { couponSchema, moneySchema, orderSchema, productSchema } from './objects.js';
import { APP_WEB_PAYMENTS, PROVIDERS } from './constants.js';

const token = z.string().min(1).max(512);
const couponCode = z.string().trim().min(1).max(64);

/** POST /api/store/getCoupon. @example getCouponRequest.parse({ token, couponCode: 'WELCOME10' }) */
export const getCouponRequest = z.object({ token, couponCode });
export type GetCouponRequest = z.infer<typeof getCouponRequest>;
export const getCouponData = z.object({ coupon: couponSchema });

/** POST /api/store/redeemCoupon. @example redeemCouponRequest.parse({ token, couponCode: 'FREE100' }) */
export const redeemCouponRequest = z.object({ token, couponCode });
export type RedeemCouponRequest = z.infer<typeof redeemCouponRequest>;
export const redeemCouponData = z.object({
  granted: z.object({ credits: z.number().int(), products: z.array(z.string()) }),
  balance: z.number().int(),
});

/**
 * POST /api/auth/payWithCredits. `products` and `dataObj` are JSON text.
 *
 * @example
 * payWithCreditsRequest.parse({ token, products: JSON.stringify(['pro-unlock']), dataObj: '{}' })
 */
export const payWithCreditsRequest = z.object({
  token,
  products: z.string().min(1).max(10_000),
  dataObj: z.string().max(10_000).optional(),
});
export type PayWithCreditsRequest = z.infer<typeof payWithCreditsRequest>;
/** What `products` holds once parsed: ids, or `{id, quantity}` lines. */
export const creditProductsList = z
  .array(
    z.union([
      z.string().min(1).max(64),
      z.object({ id: z.string().min(1).max(64), quantity: z.number().int().min(1).max(100).optional() }),
    ]),
  )
  .min(1)
  .max(50);
/** What `dataObj` holds once parsed: free-form details kept with the order. */
export const creditDataObj = z.record(z.string(), z.unknown());
export const payWithCreditsData = z.object({ order: orderSchema, balance: z.number().int() });

/** How to pay an order: a page to open, or a form to post. */
export const paymentInstruction = z.union([
  z.object({ provider: z.enum(PROVIDERS), url: z.string() }),
  z.object({
    provider: z.enum(PROVIDERS),
    form: z.object({ action: z.string(), method: z.string(), fields: z.record(z.string(), z.string()) }),
  }),
]);
export type PaymentInstruction = z.infer<typeof paymentInstruction>;

/**
 * POST /api/store/doCheckout: either `pastOrder` alone, or `products` (ids joined with `;`) + `couponCode`.
 *
 * @example
 * doCheckoutRequest.parse({ token, products: 'pro-unlock;monthly', couponCode: 'WELCOME10' })
 */
export const doCheckoutRequest = z.object({
  token,
  pastOrder: z.string().max(64).optional(),
  products: z.string().max(2_000).optional(),
  couponCode: z.string().trim().max(64).optional(),
  provider: z.enum(PROVIDERS).optional(),
});
export type DoCheckoutRequest = z.infer<typeof doCheckoutRequest>;
export const doCheckoutData = z.object({ order: orderSchema, payment: paymentInstruction });

/** POST /api/store/getCheckoutForm: ids joined with `,`. @example getCheckoutFormRequest.parse({ products: 'a,b' }) */
export const getCheckoutFormRequest = z.object({
  products: z.string().max(2_000).default(''),
  token: token.optional(),
});
export type GetCheckoutFormRequest = z.infer<typeof getCheckoutFormRequest>;
/**
 * What the phone apps may offer: `webPayments` says whether the web routes in `providers` are
 * offered inside the apps (`APP_WEB_PAYMENTS`), `stores` the in-app stores whose purchases this
 * server verifies (validatePurchase).
 */
export const appPaymentsSchema = z.object({
  webPayments: z.enum(APP_WEB_PAYMENTS),
  stores: z.array(z.enum(['appstore', 'googleplay'])),
});
export type AppPayments = z.infer<typeof appPaymentsSchema>;
export const getCheckoutFormData = z.object({
  products: z.array(productSchema),
  total: moneySchema.nullable(),
  providers: z.array(paymentInstruction),
  app: appPaymentsSchema,
});

/** POST /api/store/orderStatus. @example orderStatusRequest.parse({ iden, token }) */
export const orderStatusRequest = z.object({ iden: z.string().min(1).max(64), token });
export type OrderStatusRequest = z.infer<typeof orderStatusRequest>;
export const orderStatusData = z.object({ status: z.string(), order: orderSchema });

/** POST /api/store/validatePurchase. @example validatePurchaseRequest.parse({ transactionData: '{...}' }) */
export const validatePurchaseRequest = z.object({
  transactionData: z.string().min(1).max(100_000),
  token: token.optional(),
});
export type ValidatePurchaseRequest = z.infer<typeof validatePurchaseRequest>;
export const validatePurchaseData = z.union([
  z.object({ result: z.literal(1), products: z.string() }),
  z.object({ result: z.literal(0), reason: z.string() }),
]);
export type ValidatePurchaseData = z.infer<typeof validatePurchaseData>;
