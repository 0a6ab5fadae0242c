import { z } from 'zod';
import { fail, type Outcome } from '../../../../errors.js';
import type { StorePlatform, VerifiedPurchase } from '../../platform.js';

/**
 * The part of a cordova-plugin-purchase (v13) transaction the TEST platform check reads; the rest of
 * the plugin's object is allowed and ignored.
 */
const testTransaction = z.object({
  platform: z.literal('test'),
  transactionId: z.string().min(1).max(200),
  products: z
    .array(z.object({ id: z.string().min(1).max(200) }))
    .min(1)
    .max(20),
});

/**
 * The store plugin's TEST platform, which lets the whole purchase flow run in a plain browser. It
 * takes no money, so it is switched on only where the built-in sandbox is (never in production),
 * and it trusts the transaction as sent.
 */
export class TestPlatform implements StorePlatform {
  readonly provider = 'test' as const;
  readonly platform = 'test';

  constructor(readonly enabled: boolean) {}

  verify(transaction: unknown): Promise<Outcome<VerifiedPurchase>> {
    const parsed = testTransaction.safeParse(transaction);
    if (!parsed.success) return Promise.resolve(fail.invalidInput('transactionData', 'invalid'));
    return Promise.resolve({
      transactionId: parsed.data.transactionId,
      storeProductIds: parsed.data.products.map((p) => p.id),
    });
  }
}
