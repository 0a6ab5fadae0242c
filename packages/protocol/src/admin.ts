import { z } from 'zod';
import { PROVIDERS } from './constants.js';
import {
  couponSchema,
  moneySchema,
  orderSchema,
  orderStatusSchema,
  productSchema,
  sessionInfoSchema,
} from './objects.js';
import { creditEntrySchema } from './credits.js';
import { pageRequest } from './paging.js';
import { productTextsSchema } from './languages.js';

const token = z.string().min(1).max(512);
const userId = z.string().min(1).max(64);
/** Ids and aliases: lower case, digits, `.`, `_`, `-`; they travel joined by `;` and `,`. */
const slug = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/);
const isoTime = z.iso.datetime({ offset: true });
const priceMoney = moneySchema.extend({ amount: z.number().int().min(0).max(1_000_000_000) });
/**
 * A product image: an http(s) address, or the path of a file uploaded through the files service
 * (`/api/files/download/{id}`), which works from whichever host the app was opened at.
 */
export const productImageSchema = z.union([
  z.url({ protocol: /^https?$/ }).max(2_000),
  z.string().regex(/^\/api\/files\/download\/[A-Za-z0-9_-]{1,64}$/),
]);
/** An ISO 8601 period in days, weeks, months or years, e.g. `P1M`, `P30D`. */
export const periodSchema = z.string().regex(/^P([1-9]\d{0,3})([DWMY])$/);

/**
 * A product as an administrator saves it; without `id` a new one is created.
 *
 * @example
 * productInput.parse({ alias: 'pro', title: 'Pro', type: 1, price: { amount: 499, currency: 'USD' } })
 */
export const productInput = z
  .object({
    id: slug.optional(),
    alias: slug,
    title: z.string().trim().min(1).max(200),
    description: z.string().max(5_000).default(''),
    type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    price: priceMoney.nullable().default(null),
    creditPrice: z.number().int().min(1).max(1_000_000_000).nullable().default(null),
    grants: z
      .object({ credits: z.number().int().min(1).max(1_000_000_000).optional(), period: periodSchema.optional() })
      .default({}),
    imageUrl: productImageSchema.nullable().default(null),
    storeIds: z
      .object({ appstore: z.string().min(1).max(200).optional(), googleplay: z.string().min(1).max(200).optional() })
      .default({}),
    active: z.boolean().default(true),
    /** Title and description in the other shop languages; `title` and `description` are the default language's. */
    texts: productTextsSchema.default({}),
  })
  .superRefine((p, ctx) => {
    if (p.type === 2 && !p.grants.period)
      ctx.addIssue({ code: 'custom', path: ['grants', 'period'], message: 'required' });
    if (p.type !== 2 && p.grants.period)
      ctx.addIssue({ code: 'custom', path: ['grants', 'period'], message: 'invalid' });
  });
export type ProductInput = z.input<typeof productInput>;

/** A product as administrators see it: with its translations (`title` and `description` in the default language). */
export const adminProductSchema = productSchema.extend({ texts: productTextsSchema });
export type AdminProduct = z.infer<typeof adminProductSchema>;

/** POST /api/admin/products/list: every product, inactive ones included. */
export const adminProductsListRequest = z.object({ token });
export const adminProductsListData = z.object({ products: z.array(adminProductSchema) });
export type AdminProductsListData = z.infer<typeof adminProductsListData>;

/** POST /api/admin/products/save. @example adminProductSaveRequest.parse({ token, product }) */
export const adminProductSaveRequest = z.object({ token, product: productInput });
export const adminProductSaveData = z.object({ product: adminProductSchema });
export type AdminProductSaveData = z.infer<typeof adminProductSaveData>;

const couponFields = {
  kind: z.enum(['discount', 'grant']),
  /** Whole percent, 1 to 100. */
  percentOff: z.number().int().min(1).max(100).nullable().optional(),
  amountOff: priceMoney.nullable().optional(),
  grantCredits: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
  grantProducts: z.array(slug).max(20).nullable().optional(),
  appliesTo: z.union([z.array(slug).min(1).max(100), z.literal('all')]).default('all'),
  minTotal: priceMoney.nullable().default(null),
  startsAt: isoTime.nullable().default(null),
  endsAt: isoTime.nullable().default(null),
  /** Uses in total; null is unlimited. */
  usageLimit: z.number().int().min(1).max(1_000_000_000).nullable().default(null),
  /** Uses per buyer; null is unlimited. */
  perUserLimit: z.number().int().min(1).max(1_000_000).nullable().default(null),
  active: z.boolean().default(true),
};

type CouponShape = {
  kind: 'discount' | 'grant';
  percentOff?: number | null | undefined;
  amountOff?: unknown;
  grantCredits?: number | null | undefined;
  grantProducts?: string[] | null | undefined;
  startsAt: string | null;
  endsAt: string | null;
};

function checkCoupon(c: CouponShape, ctx: z.RefinementCtx): void {
  if (c.kind === 'discount' && (c.percentOff == null) === (c.amountOff == null)) {
    ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'invalid' });
  }
  if (c.kind === 'grant' && c.grantCredits == null && !c.grantProducts?.length) {
    ctx.addIssue({ code: 'custom', path: ['grantCredits'], message: 'required' });
  }
  if (c.startsAt && c.endsAt && Date.parse(c.endsAt) <= Date.parse(c.startsAt)) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'invalid' });
  }
}

/** Coupon codes: letters, digits, `_` and `-`; compared without regard to case. */
export const couponCodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,64}$/);

/**
 * A coupon as an administrator saves it (created, or replaced when the code exists).
 *
 * @example
 * couponInput.parse({ code: 'SPRING', kind: 'discount', percentOff: 15, usageLimit: 100 })
 */
export const couponInput = z.object({ code: couponCodeSchema, ...couponFields }).superRefine(checkCoupon);
export type CouponInput = z.input<typeof couponInput>;

/** A coupon with what only administrators see: limits and use counts. */
export const adminCouponSchema = couponSchema.extend({
  usageLimit: z.number().int().nullable(),
  perUserLimit: z.number().int().nullable(),
  used: z.number().int(),
  active: z.boolean(),
  /** Set on codes made together by a bulk call. */
  batch: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminCoupon = z.infer<typeof adminCouponSchema>;

/** POST /api/admin/coupons/list. `query` matches the start of the code or the batch. */
export const adminCouponsListRequest = pageRequest.extend({ token, query: z.string().trim().max(64).optional() });
export const adminCouponsListData = z.object({ coupons: z.array(adminCouponSchema), total: z.number().int() });
export type AdminCouponsListData = z.infer<typeof adminCouponsListData>;

/** POST /api/admin/coupons/save. @example adminCouponSaveRequest.parse({ token, coupon }) */
export const adminCouponSaveRequest = z.object({ token, coupon: couponInput });
export const adminCouponSaveData = z.object({ coupon: adminCouponSchema });
export type AdminCouponSaveData = z.infer<typeof adminCouponSaveData>;

/**
 * POST /api/admin/coupons/bulk: `count` single-use codes (each usable once in total) sharing one
 * template.
 *
 * @example
 * adminCouponsBulkRequest.parse({ token, count: 100, prefix: 'GIFT', coupon: { kind: 'grant', grantCredits: 50 } })
 */
export const adminCouponsBulkRequest = z.object({
  token,
  count: z.number().int().min(1).max(1_000),
  prefix: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{0,16}$/)
    .default(''),
  coupon: z.object(couponFields).omit({ usageLimit: true, perUserLimit: true }).superRefine(checkCoupon),
});
export const adminCouponsBulkData = z.object({ batch: z.string(), codes: z.array(z.string()) });
export type AdminCouponsBulkData = z.infer<typeof adminCouponsBulkData>;

/**
 * POST /api/admin/coupons/setActive: switch a coupon off (buyers are then refused with 908
 * `inactive`) or on again; its uses and limits stay. 904 `code` for a code that does not exist.
 *
 * @example
 * adminCouponSetActiveRequest.parse({ token, code: 'SPRING', active: false })
 */
export const adminCouponSetActiveRequest = z.object({ token, code: couponCodeSchema, active: z.boolean() });
export const adminCouponSetActiveData = z.object({ coupon: adminCouponSchema });
export type AdminCouponSetActiveData = z.infer<typeof adminCouponSetActiveData>;

/** A user with their balance, as administrators list them. */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  level: z.number().int(),
  emailConfirmed: z.boolean(),
  credits: z.number().int(),
  createdAt: z.string(),
  /** Set when a refund or chargeback could not take back everything the user had been given. */
  flaggedAt: z.string().nullable(),
  flagReason: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** POST /api/admin/users/list. `query` matches part of the e-mail or the name. */
export const adminUsersListRequest = pageRequest.extend({ token, query: z.string().trim().max(254).optional() });
export const adminUsersListData = z.object({ users: z.array(adminUserSchema), total: z.number().int() });
export type AdminUsersListData = z.infer<typeof adminUsersListData>;

/** The levels an administrator can give: a member (2) or an administrator (9). */
export const assignableLevelSchema = z.union([z.literal(2), z.literal(9)]);

/**
 * POST /api/admin/users/get: one user with their sessions (browser, address, times) for the detail
 * view; their orders, credits and files come from the list calls with `userId`. 904 `userId`.
 */
export const adminUserGetRequest = z.object({ token, userId });
export const adminUserGetData = z.object({
  user: adminUserSchema,
  /** Whether the level is fixed by the server's configuration (`ADMIN_EMAILS`) and cannot be changed here. */
  levelFixed: z.boolean(),
  sessions: z.array(sessionInfoSchema.omit({ current: true })),
});
export type AdminUserGetData = z.infer<typeof adminUserGetData>;

/**
 * POST /api/admin/users/setLevel: make a confirmed user an administrator (9) or a member (2). It
 * applies on the user's next call, with no new sign-in. 907 `userId` `invalid` for the caller's own
 * account, `unconfirmed` for an address not confirmed yet, `configured` for an address in
 * `ADMIN_EMAILS`; 904 `userId` for no such user.
 */
export const adminUserSetLevelRequest = z.object({ token, userId, level: assignableLevelSchema });
export const adminUserSetLevelData = z.object({ user: adminUserSchema });
export type AdminUserSetLevelData = z.infer<typeof adminUserSetLevelData>;

/** POST /api/admin/users/clearFlag: an administrator has looked at a flagged user; the flag goes. */
export const adminUserClearFlagRequest = z.object({ token, userId });
export const adminUserClearFlagData = z.object({ user: adminUserSchema });

/**
 * POST /api/admin/credits/adjust: a ledger entry with a reason, never an edit. 909 when a negative
 * amount would take the balance below zero.
 *
 * @example
 * adminCreditsAdjustRequest.parse({ token, userId, amount: -20, reason: 'Duplicate grant' })
 */
export const adminCreditsAdjustRequest = z.object({
  token,
  userId: z.string().min(1).max(64),
  amount: z
    .number()
    .int()
    .min(-1_000_000_000)
    .max(1_000_000_000)
    .refine((n) => n !== 0, 'invalid'),
  reason: z.string().trim().min(1).max(200),
});
export const adminCreditsAdjustData = z.object({ balance: z.number().int(), entry: creditEntrySchema });
export type AdminCreditsAdjustData = z.infer<typeof adminCreditsAdjustData>;

/** POST /api/admin/credits/history: one user's ledger, newest first. */
export const adminCreditsHistoryRequest = pageRequest.extend({ token, userId: z.string().min(1).max(64) });
export const adminCreditsHistoryData = z.object({
  balance: z.number().int(),
  entries: z.array(creditEntrySchema),
  total: z.number().int(),
});
export type AdminCreditsHistoryData = z.infer<typeof adminCreditsHistoryData>;

/**
 * What administrators see of an order's payment: the provider's references (a checkout session, a
 * payment, a subscription), a refund asked of the provider and not yet confirmed, the credits a
 * refund or chargeback could not take back, and when the provider ended the subscription.
 */
export const orderPaymentSchema = z.object({
  refs: z.array(z.object({ kind: z.string(), ref: z.string() })),
  refundRequestedAt: z.string().nullable(),
  shortfallCredits: z.number().int(),
  subscriptionEndedAt: z.string().nullable(),
  /** Money given back so far, in the order's currency's minor units (partial and money-only refunds add up). */
  refundedAmount: z.number().int(),
  /**
   * Paid by a store's test purchase (Apple's sandbox, such as App Review's; a Google Play license
   * tester's): no money was taken.
   */
  sandbox: z.boolean(),
});
export type OrderPayment = z.infer<typeof orderPaymentSchema>;

/** One refund an administrator made: how much, whether the buyer kept what the order granted, why and who. */
export const adminRefundSchema = z.object({
  amount: moneySchema,
  /** The money only: the buyer kept the credits, ownership or time the order granted. */
  keptGrants: z.boolean(),
  reason: z.string().nullable(),
  /** The administrator's e-mail; null when the refund came from elsewhere or the account is gone. */
  by: z.string().nullable(),
  at: z.string(),
});
export type AdminRefund = z.infer<typeof adminRefundSchema>;

/** An order with its buyer and its payment, as administrators list them. */
export const adminOrderSchema = orderSchema.extend({
  userId: z.string(),
  email: z.string(),
  payment: orderPaymentSchema,
  /** Administrators' refunds of the order, oldest first, with why and who (its buyer's `refunds` say less). */
  refundHistory: z.array(adminRefundSchema),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** POST /api/admin/orders/list, newest first; every filter is optional. */
export const adminOrdersListRequest = pageRequest.extend({
  token,
  status: orderStatusSchema.optional(),
  provider: z.enum(PROVIDERS).optional(),
  userId: z.string().min(1).max(64).optional(),
  couponCode: z.string().trim().max(64).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  /**
   * The order's number as buyers see it (the last six characters of its iden, `#30310E`; with or
   * without `#`, any case) or part of the buyer's e-mail address.
   */
  query: z.string().trim().max(254).optional(),
});
export type AdminOrdersListRequest = z.input<typeof adminOrdersListRequest>;
export const adminOrdersListData = z.object({ orders: z.array(adminOrderSchema), total: z.number().int() });
export type AdminOrdersListData = z.infer<typeof adminOrdersListData>;

/**
 * POST /api/admin/orders/refund: paid -> refunded, reversing the grants. 912 (with `status` and
 * `reason`) when the order is not paid or the buyer has already spent the credits it granted. An
 * order paid through a provider that takes money back itself (`card`) is refunded at the provider:
 * the answer shows `payment.refundRequestedAt`, and the order turns `refunded` once the provider
 * confirms.
 */
export const adminOrderRefundRequest = z.object({
  token,
  iden: z.string().min(1).max(64),
  reason: z.string().trim().max(200).optional(),
  /**
   * Minor units to give back; left out, everything not yet given back. Less than that is a partial
   * refund, which gives money only: the order stays paid and keeps what it granted.
   */
  amount: z.number().int().min(1).max(1_000_000_000).optional(),
  /** Give the money back but leave what the order granted (credits, ownership, time) with the buyer. */
  keepGrants: z.boolean().default(false),
});
export type AdminOrderRefundRequest = z.input<typeof adminOrderRefundRequest>;
export const adminOrderRefundData = z.object({ order: adminOrderSchema });
export type AdminOrderRefundData = z.infer<typeof adminOrderRefundData>;
