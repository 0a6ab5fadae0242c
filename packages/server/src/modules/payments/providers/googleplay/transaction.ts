import { z } from 'zod';

const id = z.string().min(1).max(200);

/**
 * The Google Play purchase as cordova-plugin-purchase (v13) reports it (`nativePurchase`: the
 * Billing library's purchase, its original JSON as `receipt` and its `signature`), inside the
 * transaction the SDK sends (`platform`, `transactionId`, `products`). Other fields are allowed and
 * ignored; nothing here is trusted until the Play Developer API has confirmed it.
 */
export const playTransaction = z.object({
  platform: z.literal('android-playstore'),
  // The plugin's transaction id is the order id, or the purchase token when Google gave no order id
  // (a promotional code's purchase), so it may be as long as a token.
  transactionId: z.string().min(1).max(4096).optional(),
  products: z.array(z.object({ id })).min(1).max(20),
  nativePurchase: z.object({
    purchaseToken: z.string().min(1).max(4096),
    packageName: id,
    productIds: z.array(id).min(1).max(20).optional(),
    productId: id.optional(),
    orderId: z.string().max(200).nullish(),
    signature: z.string().max(4096).optional(),
    receipt: z.string().max(20_000).optional(),
  }),
});

export type PlayTransaction = z.output<typeof playTransaction>;

/** The fields of the purchase's original JSON (`receipt`) that must agree with the rest. */
const originalJson = z.object({
  packageName: id.optional(),
  purchaseToken: z.string().optional(),
  productId: id.optional(),
  productIds: z.array(id).optional(),
});

/**
 * What the transaction asks about: its token, package and one product. Undefined when its parts
 * disagree (the original JSON names another token, package or product than the rest).
 */
export function purchaseOf(
  t: PlayTransaction,
): { purchaseToken: string; packageName: string; productIds: string[] } | undefined {
  const native = t.nativePurchase;
  const productIds = native.productIds ?? (native.productId ? [native.productId] : t.products.map((p) => p.id));
  if (t.products.some((p) => !productIds.includes(p.id))) return undefined;
  if (native.receipt !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(native.receipt);
    } catch {
      return undefined;
    }
    const original = originalJson.safeParse(parsed);
    if (!original.success) return undefined;
    const o = original.data;
    if (o.purchaseToken !== undefined && o.purchaseToken !== native.purchaseToken) return undefined;
    if (o.packageName !== undefined && o.packageName !== native.packageName) return undefined;
    const named = o.productIds ?? (o.productId ? [o.productId] : []);
    if (named.some((p) => !productIds.includes(p))) return undefined;
  }
  return { purchaseToken: native.purchaseToken, packageName: native.packageName, productIds };
}
