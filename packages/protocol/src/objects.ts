import { z } from 'zod';
import { OrderStatus, PROVIDERS, PASSWORD_MAX, PASSWORD_MIN } from './constants.js';

/** Money in integer minor units with an ISO 4217 currency. @example { amount: 199, currency: 'USD' } */
export const moneySchema = z.object({
  amount: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
export type Money = z.infer<typeof moneySchema>;

/** An e-mail address; compared case-insensitively. @example emailSchema.parse('a@b.co') */
export const emailSchema = z.string().trim().min(1).max(254).pipe(z.email());

/** A password: 8 to 128 characters, no composition rules. @example passwordSchema.parse('long enough') */
export const passwordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

/** A display name. @example nameSchema.parse('Ada') */
export const nameSchema = z.string().trim().min(1).max(100);

/** A language tag such as `en` or `de-AT`. @example langSchema.parse('de') */
export const langSchema = z
  .string()
  .trim()
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/);

/** The account as the server shows it. @example userSchema.parse(res.user) */
export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  lang: z.string(),
  level: z.number().int(),
  emailConfirmed: z.boolean(),
  avatarUrl: z.string().nullable(),
  credits: z.number().int(),
  createdAt: z.string(),
  /** A new e-mail waiting for confirmation, if any. */
  pendingEmail: z.string().nullable().optional(),
});
export type User = z.infer<typeof userSchema>;

/** One login session of the user. @example sessionInfoSchema.parse(s) */
export const sessionInfoSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastSeenAt: z.string().nullable(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** A product of the store. @example productSchema.parse(p) */
export const productSchema = z.object({
  id: z.string(),
  alias: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  price: moneySchema.nullable(),
  creditPrice: z.number().int().nullable(),
  grants: z.object({
    credits: z.number().int().optional(),
    /** Subscription period as an ISO 8601 duration in days or months, e.g. `P1M`. */
    period: z.string().optional(),
  }),
  imageUrl: z.string().nullable(),
  storeIds: z.object({ appstore: z.string().optional(), googleplay: z.string().optional() }),
  active: z.boolean(),
});
export type Product = z.infer<typeof productSchema>;

/** A coupon. @example couponSchema.parse(c) */
export const couponSchema = z.object({
  code: z.string(),
  kind: z.enum(['discount', 'grant']),
  percentOff: z.number().nullable().optional(),
  amountOff: moneySchema.nullable().optional(),
  grantCredits: z.number().int().nullable().optional(),
  grantProducts: z.array(z.string()).nullable().optional(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  appliesTo: z.union([z.array(z.string()), z.literal('all')]),
  minTotal: moneySchema.nullable(),
});
export type Coupon = z.infer<typeof couponSchema>;

/** The statuses of an order. */
export const orderStatusSchema = z.enum([
  OrderStatus.Pending,
  OrderStatus.Paid,
  OrderStatus.Failed,
  OrderStatus.Cancelled,
  OrderStatus.Refunded,
]);

/** One line of an order. */
export const orderItemSchema = z.object({
  productId: z.string(),
  alias: z.string(),
  title: z.string(),
  price: moneySchema.nullable(),
  creditPrice: z.number().int().nullable(),
  quantity: z.number().int(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

/**
 * Money (and credits) given back for an order, as its buyer sees it: a refund an administrator
 * made, or the provider's refund or chargeback that closed the order.
 */
export const orderRefundSchema = z.object({
  /** Money given back, in the order's currency (0 for an order paid with credits). */
  amount: moneySchema,
  /** Credits given back (an order paid with credits gets what it cost back). */
  credits: z.number().int(),
  at: z.string(),
  /** Whether what the order granted (its items) was taken back; false: money only, the buyer keeps it. */
  grantsTakenBack: z.boolean(),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;

/**
 * Where the subscription a paid order started stands, as its buyer sees it: until when it runs,
 * whether it renews then, and how the buyer can stop it renewing: `cancel` (endSubscription: the
 * card route, which ends it at the period's end), `store` (in the store's subscription settings,
 * at `manageUrl`), or null (it does not renew, or ends already).
 */
export const orderSubscriptionSchema = z.object({
  until: z.string().nullable(),
  renews: z.boolean(),
  manage: z.enum(['cancel', 'store']).nullable(),
  manageUrl: z.string().nullable(),
});
export type OrderSubscription = z.infer<typeof orderSubscriptionSchema>;

/** An order. @example orderSchema.parse(res.data.order) */
export const orderSchema = z.object({
  iden: z.string(),
  status: orderStatusSchema,
  items: z.array(orderItemSchema),
  subtotal: moneySchema,
  discount: moneySchema,
  total: moneySchema,
  creditsSpent: z.number().int(),
  couponCode: z.string().nullable(),
  provider: z.enum(PROVIDERS),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /**
   * Its refunds, oldest first, in the buyer's own answers (orderStatus, the orders list): a paid
   * order with some is partly refunded. Left out where an answer does not say.
   */
  refunds: z.array(orderRefundSchema).optional(),
  /** The subscription a paid order started, in the buyer's own answers; left out for other orders. */
  subscription: orderSubscriptionSchema.optional(),
});
export type Order = z.infer<typeof orderSchema>;

/**
 * The short reference of an order that its buyer reads in the app and in mails, and can read out:
 * the last six characters of its iden, which are random (the start is a time stamp, shared by orders
 * made close together). Shown as `#F6A7B8`.
 *
 * @example
 * orderRef('mhx3k2a1000000a1b2c3d4e5f6a7b8') // 'F6A7B8'
 */
export function orderRef(iden: string): string {
  return iden.slice(-6).toUpperCase();
}

/** An uploaded file. @example fileSchema.parse(res.data.files[0]) */
export const fileSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  mime: z.string(),
  url: z.string(),
  createdAt: z.string(),
  public: z.boolean().optional(),
});
export type FileInfo = z.infer<typeof fileSchema>;
