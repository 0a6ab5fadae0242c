import { z } from 'zod';
import { PROVIDERS } from './constants.js';
import { orderSchema, orderStatusSchema, productSchema } from './objects.js';

const token = z.string().min(1).max(512);

/**
 * Paging of list calls: `page` counts from 1, `pageSize` is at most 100.
 *
 * @example
 * pageRequest.parse({ page: 2 }) // { page: 2, pageSize: 20 }
 */
export const pageRequest = z.object({
  page: z.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});

/** A success body `{code: 900, data}` around a data schema, for the OpenAPI document. */
export function dataResponse<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(900), data });
}

/** One line of the credits ledger; entries are never edited, a correction is a new entry. */
export const creditEntrySchema = z.object({
  id: z.string(),
  /** Positive for credits received, negative for credits spent. */
  amount: z.number().int(),
  /** `purchase`, `spend`, `coupon`, `refund`, `adjustment`. */
  reason: z.string(),
  /** What caused it: an order iden, a coupon code, or an administrator's note. */
  reference: z.string().nullable(),
  balanceAfter: z.number().int(),
  createdAt: z.string(),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

/** What a buyer holds: a non-consumable owned, or a subscription running until `expiresAt`. */
export const entitlementSchema = z.object({
  productId: z.string(),
  alias: z.string(),
  title: z.string(),
  kind: z.enum(['ownership', 'subscription']),
  expiresAt: z.string().nullable(),
  active: z.boolean(),
  /** For a subscription: whether it renews at `expiresAt` (false: it runs until then and ends). */
  renews: z.boolean().optional(),
});
export type Entitlement = z.infer<typeof entitlementSchema>;

/**
 * The buyer's language for product texts (`en`, `de`); left out, the request's `Accept-Language`
 * header decides, else the default language. Any other tag is read as far as it goes (`de-AT` is `de`).
 */
const lang = z.string().trim().max(35).optional();

/** POST /api/store/products (no token): the active catalog. @example storeProductsRequest.parse({ lang: 'de' }) */
export const storeProductsRequest = z.object({ token: token.optional(), lang });
export const storeProductsData = z.object({ products: z.array(productSchema) });
export type StoreProductsData = z.infer<typeof storeProductsData>;

/** POST /api/store/product: one product by id or alias. @example storeProductRequest.parse({ id: 'pro-unlock' }) */
export const storeProductRequest = z.object({ id: z.string().trim().min(1).max(64), token: token.optional(), lang });
export const storeProductData = z.object({ product: productSchema });
export type StoreProductData = z.infer<typeof storeProductData>;

/** POST /api/store/orders: the buyer's orders, newest first. @example storeOrdersRequest.parse({ token }) */
export const storeOrdersRequest = pageRequest.extend({ token, status: orderStatusSchema.optional() });
export type StoreOrdersRequest = z.input<typeof storeOrdersRequest>;
export const storeOrdersData = z.object({ orders: z.array(orderSchema), total: z.number().int() });
export type StoreOrdersData = z.infer<typeof storeOrdersData>;

/** POST /api/store/entitlements. @example storeEntitlementsRequest.parse({ token }) */
export const storeEntitlementsRequest = z.object({ token });
export const storeEntitlementsData = z.object({ entitlements: z.array(entitlementSchema) });
export type StoreEntitlementsData = z.infer<typeof storeEntitlementsData>;

/** POST /api/store/credits: balance and ledger, newest first. @example storeCreditsRequest.parse({ token, page: 1 }) */
export const storeCreditsRequest = pageRequest.extend({ token });
export type StoreCreditsRequest = z.input<typeof storeCreditsRequest>;
export const storeCreditsData = z.object({
  balance: z.number().int(),
  entries: z.array(creditEntrySchema),
  total: z.number().int(),
});
export type StoreCreditsData = z.infer<typeof storeCreditsData>;

/** POST /api/store/cancelOrder: gives up a pending order. @example cancelOrderRequest.parse({ token, iden }) */
export const cancelOrderRequest = z.object({ token, iden: z.string().min(1).max(64) });
export const cancelOrderData = z.object({ order: orderSchema });
export type CancelOrderData = z.infer<typeof cancelOrderData>;

/**
 * POST /api/store/endSubscription: the subscription a paid order started ends at the end of the
 * period paid for, not renewed (the card route: Stripe's cancel at period end). 912 when the order
 * started no subscription that renews, or one the buyer stops in a store's settings instead
 * (`subscription.manage` says which). @example endSubscriptionRequest.parse({ token, iden })
 */
export const endSubscriptionRequest = z.object({ token, iden: z.string().min(1).max(64) });
export const endSubscriptionData = z.object({ order: orderSchema });
export type EndSubscriptionData = z.infer<typeof endSubscriptionData>;

/**
 * POST /api/payments/notify/{provider}: a provider's signed notification. `payload` is the provider's
 * JSON text as received, `signature` its signature over that text.
 *
 * @example
 * paymentNotificationRequest.parse({ payload: '{"eventId":"..."}', signature: 'ab12...' })
 */
export const paymentNotificationRequest = z.object({
  payload: z.string().min(2).max(20_000),
  signature: z.string().min(1).max(512),
});
export const paymentNotificationData = z.object({
  status: orderStatusSchema,
  /** False when the same event had been applied before (nothing changed). */
  applied: z.boolean(),
});
export type PaymentNotificationData = z.infer<typeof paymentNotificationData>;

/** The payment routes a notification can name. */
export const providerSchema = z.enum(PROVIDERS);

// Kept with the other constants so that importing a path never loads the schemas (and zod).
export { StorePaths } from './constants.js';
