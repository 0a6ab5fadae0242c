import { z } from 'zod';
import { CouponReason } from './codes.js';
import { couponSchema, moneySchema } from './objects.js';

const token = z.string().min(1).max(512);

/**
 * POST /api/store/checkoutPreview: what doCheckout would make of this cart and coupon, priced by the
 * same rules, without writing anything. `products` are ids joined with `;` as doCheckout takes them.
 *
 * @example
 * checkoutPreviewRequest.parse({ token, products: 'credits-100;credits-100', couponCode: 'WELCOME10' })
 */
export const checkoutPreviewRequest = z.object({
  token,
  products: z.string().min(1).max(2_000),
  couponCode: z.string().trim().max(64).optional(),
});
export type CheckoutPreviewRequest = z.infer<typeof checkoutPreviewRequest>;

/** One line of a checkout summary: the unit price, how many, and what they come to. */
export const checkoutLineSchema = z.object({
  productId: z.string(),
  title: z.string(),
  quantity: z.number().int(),
  unitPrice: moneySchema,
  amount: moneySchema,
  /** The buyer already owns this (a non-consumable): doCheckout would refuse the cart (907 `owned`). */
  owned: z.boolean(),
});
export type CheckoutLine = z.infer<typeof checkoutLineSchema>;

/**
 * The summary: lines, subtotal, the coupon's discount and the total doCheckout would charge. A
 * coupon that cannot be used is not an error here: the summary is priced without it and
 * `couponRefused` carries the 908 reason doCheckout would answer.
 */
export const checkoutPreviewData = z.object({
  lines: z.array(checkoutLineSchema),
  subtotal: moneySchema,
  discount: moneySchema,
  total: moneySchema,
  coupon: couponSchema.nullable(),
  couponRefused: z.enum(Object.values(CouponReason) as [string, ...string[]]).nullable(),
});
export type CheckoutPreviewData = z.infer<typeof checkoutPreviewData>;

/** POST /api/files/limits (no token): what an upload may be, to show before a file is chosen. */
export const filesLimitsRequest = z.object({ token: token.optional() });
export const filesLimitsData = z.object({
  maxFileBytes: z.number().int(),
  maxFiles: z.number().int(),
  quotaBytes: z.number().int(),
  /** The content types accepted (sniffed from the content, not taken from the name). */
  types: z.array(z.string()),
  /** File name endings for a file chooser's `accept`, matching `types`. */
  extensions: z.array(z.string()),
});
export type FilesLimitsData = z.infer<typeof filesLimitsData>;
