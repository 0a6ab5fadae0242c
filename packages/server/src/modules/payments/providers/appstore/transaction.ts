import { z } from 'zod';

/** Apple's transaction ids are decimal numbers, sent as text. */
const appleId = z.string().regex(/^\d{1,40}$/);
/** A JWS in compact form: three base64url parts. */
const jws = z
  .string()
  .max(20_000)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
/** The app receipt (base64 of a PKCS #7 container); empty in the plugin's StoreKit 2 mode. */
const receipt = z
  .string()
  .max(100_000)
  .regex(/^[A-Za-z0-9+/=\s]*$/);

/**
 * What validatePurchase accepts for the plugin's `ios-appstore` platform. cordova-plugin-purchase 13
 * reports an `SKTransaction` (`transactionId`, `originalTransactionId`, `products`, and with StoreKit
 * 2 its `jwsRepresentation`) inside an `SKApplicationReceipt` whose `nativeData.appStoreReceipt` is
 * the app receipt; the SDK sends the transaction's fields with the receipt beside them as
 * `appStoreReceipt`. The plugin's own validator body (`transaction: {type: 'ios-appstore', id,
 * appStoreReceipt}` or `{type: 'apple-sk2', jwsRepresentation}`) is read too. Nothing in it is
 * trusted: it only says what to ask Apple about (or carries Apple's signed transaction); the
 * products bought come from what Apple signed.
 */
export const appStoreTransaction = z.object({
  platform: z.literal('ios-appstore'),
  transactionId: z.string().max(200).optional(),
  jwsRepresentation: jws.optional(),
  appStoreReceipt: receipt.optional(),
  transaction: z
    .union([
      z.object({
        type: z.literal('ios-appstore'),
        id: z.string().max(200).optional(),
        appStoreReceipt: receipt.optional(),
      }),
      z.object({ type: z.literal('apple-sk2'), id: z.string().max(200).optional(), jwsRepresentation: jws }),
    ])
    .optional(),
});

export type AppStoreTransaction = z.infer<typeof appStoreTransaction>;

/** Where the purchase's proof comes from: Apple's signed transaction, or a transaction to fetch from Apple. */
export type Evidence = { jws: string } | { transactionId: string } | { receipt: string };

/**
 * Picks the strongest evidence the plugin sent: a signed transaction needs no call to Apple; a
 * transaction id names exactly the purchase; a receipt only yields some transaction of the app's
 * (`ReceiptUtility`), the last resort. Undefined when there is none (a malformed transaction).
 */
export function evidenceOf(t: AppStoreTransaction): Evidence | undefined {
  const signed =
    t.jwsRepresentation ?? (t.transaction?.type === 'apple-sk2' ? t.transaction.jwsRepresentation : undefined);
  if (signed) return { jws: signed };
  // In the plugin's validator body an `ios-appstore` id may be the bundle id (the app receipt itself).
  const ids = [t.transactionId, t.transaction?.type === 'ios-appstore' ? t.transaction.id : undefined];
  const id = ids.find((v) => v !== undefined && appleId.safeParse(v).success);
  if (id) return { transactionId: id };
  const appReceipt = [
    t.appStoreReceipt,
    t.transaction?.type === 'ios-appstore' ? t.transaction.appStoreReceipt : undefined,
  ]
    .map((r) => r?.replace(/\s+/g, ''))
    .find((r) => r);
  if (appReceipt) return { receipt: appReceipt };
  return undefined;
}
