import type { Provider, ValidatePurchaseData } from '@till/protocol';
import { runInTransaction } from '../db/transaction.js';
import { AbortTransaction, Failure, fail, type Outcome } from '../errors.js';
import { claimEvent, linkRef, orderOfEvent, type VerifiedPurchase } from '../modules/payments/index.js';
import {
  alignSubscription,
  findOrderRow,
  insertOrder,
  moneySubtotal,
  newId,
  payOrder,
  productsOf,
  type Line,
} from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';
import { queueReceipt, type ShopMails } from './shop-mails.js';

/**
 * validatePurchase: the platform's validator (payments) says whether the store took the money; the
 * purchase is then recorded as a paid order (store), once per store transaction.
 */
export class PurchaseValidation {
  constructor(
    private readonly deps: FlowDeps,
    private readonly mails: ShopMails,
  ) {}

  async validate(userId: string, transactionData: string): Promise<Outcome<ValidatePurchaseData>> {
    let json: unknown;
    try {
      json = JSON.parse(transactionData);
    } catch {
      return fail.invalidInput('transactionData', 'invalid');
    }
    const platformName = (json as { platform?: unknown } | null)?.platform;
    if (typeof platformName !== 'string') return fail.invalidInput('transactionData', 'invalid');
    const platform = this.deps.payments.platform(platformName);
    if (!platform) return { result: 0, reason: 'unsupported_platform' };
    if (!platform.enabled) return { result: 0, reason: 'platform_disabled' };
    const purchase = await platform.verify(json);
    if (purchase instanceof Failure) return purchase;
    if ('refused' in purchase) return { result: 0, reason: purchase.refused };

    const lines = new Map<string, Line>();
    for (const id of purchase.storeProductIds) {
      const product = await this.deps.store.catalog.findByStoreId(id);
      if (!product) return { result: 0, reason: 'unknown_product' };
      if (!product.active) return { result: 0, reason: 'inactive_product' };
      const seen = lines.get(product.id);
      if (seen) seen.quantity += 1;
      else lines.set(product.id, { product, quantity: 1 });
    }
    const recorded = await this.record(userId, platform.provider, purchase, [...lines.values()]);
    if (recorded instanceof Failure) return recorded;
    if (recorded === 'duplicate') return this.replay(userId, platform.provider, purchase.transactionId);
    this.mails.after([recorded.receipt]);
    // After the grant, never before: a store that is not told (Google refunds an unacknowledged
    // purchase after three days) gives the money back, which is safer than granting unpaid.
    if (platform.afterGrant) {
      await platform.afterGrant(purchase).catch((error: unknown) => {
        this.deps.log.warn({ err: error, provider: platform.provider }, 'store not told of a granted purchase');
      });
    }
    return { result: 1, products: recorded.products.join(';') };
  }

  /** Claims the transaction's key before anything else: a replay writes nothing and says so. */
  private async record(
    userId: string,
    provider: Provider,
    purchase: VerifiedPurchase,
    lines: Line[],
  ): Promise<Outcome<{ products: string[]; receipt: string | undefined } | 'duplicate'>> {
    const { transactionId } = purchase;
    const now = this.deps.now();
    const sum = moneySubtotal(lines, 'transactionData');
    const money = sum instanceof Failure ? { currency: 'USD', subtotal: 0 } : sum;
    return runInTransaction(this.deps.db, async (trx) => {
      const iden = newId(now);
      const fresh = await claimEvent(trx, { provider, eventId: transactionId, orderId: iden, outcome: 'paid' }, now);
      if (!fresh) return 'duplicate' as const;
      // A store notification reaches an order only after this claim committed: the renewal's key
      // can be taken before only by another order, whose grant this one must not repeat.
      if (purchase.renewalId !== undefined) {
        const claim = { provider, eventId: purchase.renewalId, orderId: iden, outcome: 'renewed' };
        if (!(await claimEvent(trx, claim, now))) throw new AbortTransaction(fail.paymentRejected('already_used'));
      }
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
          provider,
          data: JSON.stringify({ transactionId, ...(purchase.paidTime ? { paidTime: purchase.paidTime } : {}) }),
          lines,
          sandbox: purchase.sandbox === true,
        },
        now,
      );
      const order = await payOrder(trx, iden, now, { items: made.items });
      for (const link of purchase.refs ?? []) await linkRef(trx, { provider, orderId: iden, ...link }, now);
      if (purchase.expiresAt !== undefined) await alignSubscription(trx, iden, purchase.expiresAt);
      const receipt = await queueReceipt(trx, { id: iden, user_id: userId }, now);
      return { products: order.items.map((i) => i.productId), receipt };
    });
  }

  /** The same transaction again: valid for the buyer who recorded it, refused for anyone else. */
  private async replay(userId: string, provider: Provider, transactionId: string): Promise<ValidatePurchaseData> {
    const iden = await orderOfEvent(this.deps.db, provider, transactionId);
    const order = iden ? await findOrderRow(this.deps.db, iden) : undefined;
    if (!order || order.user_id !== userId) return { result: 0, reason: 'already_used' };
    if (order.status !== 'paid') return { result: 0, reason: order.status };
    return { result: 1, products: (await productsOf(this.deps.db, order.id)).join(';') };
  }
}
