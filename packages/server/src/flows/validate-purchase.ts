import type { ValidatePurchaseData } from '@till/protocol';
import { z } from 'zod';
import { runInTransaction } from '../db/transaction.js';
import { Failure, fail, type Outcome } from '../errors.js';
import type { Catalog, Line } from '../modules/store/catalog.js';
import type { StoreDeps } from '../modules/store/deps.js';
import { newId } from '../modules/store/ids.js';
import { insertOrder, payOrder } from '../modules/store/orders.js';
import { moneySubtotal } from '../modules/store/pricing.js';

/**
 * The part of a cordova-plugin-purchase (v13) transaction the TEST platform check reads; the rest of
 * the plugin's object is allowed and ignored.
 */
const testTransaction = z.object({
  platform: z.string().min(1).max(50),
  transactionId: z.string().min(1).max(200),
  products: z
    .array(z.object({ id: z.string().min(1).max(200) }))
    .min(1)
    .max(20),
});

/**
 * Validates purchases of the in-app store plugin's TEST platform and records them as paid orders
 * (provider `test`), once per transaction id. The TEST platform takes no money, so it is accepted
 * only where the built-in sandbox is (never in production).
 */
export class TestValidator {
  constructor(
    private readonly deps: StoreDeps,
    private readonly catalog: Catalog,
    private readonly enabled: boolean,
  ) {}

  async validate(userId: string, transactionData: string): Promise<Outcome<ValidatePurchaseData>> {
    let json: unknown;
    try {
      json = JSON.parse(transactionData);
    } catch {
      return fail.invalidInput('transactionData', 'invalid');
    }
    const parsed = testTransaction.safeParse(json);
    if (!parsed.success) return fail.invalidInput('transactionData', 'invalid');
    const tx = parsed.data;
    if (tx.platform !== 'test') return { result: 0, reason: 'unsupported_platform' };
    if (!this.enabled) return { result: 0, reason: 'platform_disabled' };

    const lines = new Map<string, Line>();
    for (const { id } of tx.products) {
      const product = await this.catalog.findByStoreId(id);
      if (!product) return { result: 0, reason: 'unknown_product' };
      if (!product.active) return { result: 0, reason: 'inactive_product' };
      const seen = lines.get(product.id);
      if (seen) seen.quantity += 1;
      else lines.set(product.id, { product, quantity: 1 });
    }
    const recorded = await this.record(userId, tx.transactionId, [...lines.values()]);
    if (recorded instanceof Failure) return recorded;
    if (recorded === 'duplicate') return this.replay(userId, tx.transactionId);
    return { result: 1, products: recorded.join(';') };
  }

  /** Writes the transaction's key before anything else: a replay writes nothing and says so. */
  private async record(userId: string, transactionId: string, lines: Line[]): Promise<Outcome<string[] | 'duplicate'>> {
    const now = this.deps.now();
    const sum = moneySubtotal(lines, 'transactionData');
    const money = sum instanceof Failure ? { currency: 'USD', subtotal: 0 } : sum;
    return runInTransaction(this.deps.db, async (trx) => {
      const iden = newId(now);
      const fresh = await trx
        .insertInto('payment_events')
        .values({ provider: 'test', event_id: transactionId, order_id: iden, outcome: 'paid', created_at: now })
        .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
      if (!fresh) return 'duplicate' as const;
      const made = await insertOrder(
        trx,
        {
          id: iden,
          userId,
          ...money,
          discount: 0,
          total: money.subtotal,
          creditsSpent: 0,
          couponCode: null,
          provider: 'test',
          data: JSON.stringify({ transactionId }),
          lines,
        },
        now,
      );
      const order = await payOrder(trx, iden, now, made.items);
      return order.items.map((i) => i.productId);
    });
  }

  /** The same transaction again: valid for the buyer who recorded it, refused for anyone else. */
  private async replay(userId: string, transactionId: string): Promise<ValidatePurchaseData> {
    const event = await this.deps.db
      .selectFrom('payment_events')
      .innerJoin('orders', 'orders.id', 'payment_events.order_id')
      .select(['orders.id', 'orders.user_id', 'orders.status'])
      .where('payment_events.provider', '=', 'test')
      .where('payment_events.event_id', '=', transactionId)
      .executeTakeFirst();
    if (!event || event.user_id !== userId) return { result: 0, reason: 'already_used' };
    if (event.status !== 'paid') return { result: 0, reason: event.status };
    const items = await this.deps.db
      .selectFrom('order_items')
      .select('product_id')
      .where('order_id', '=', event.id)
      .orderBy('line')
      .execute();
    return { result: 1, products: items.map((i) => i.product_id).join(';') };
  }
}
