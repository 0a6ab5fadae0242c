import type { Provider } from '@till/protocol';
import { runInTransaction } from '../db/transaction.js';
import { AbortTransaction, Failure, fail, type Outcome } from '../errors.js';
import { claimEvent, type AppliedEvent, type ProviderEvent } from '../modules/payments/index.js';
import { closeOrder, payOrder } from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';

/** Applies provider events to orders, each event once. */
export class PaymentEvents {
  constructor(private readonly deps: FlowDeps) {}

  /** Verifies a provider's notification and applies it: 904 for an unknown provider, 910 when it does not verify. */
  async applyNotification(providerName: string, payload: string, signature: string): Promise<Outcome<AppliedEvent>> {
    const provider = this.deps.payments.providers.get(providerName);
    if (!provider) return fail.notFound('provider');
    const event = provider.readNotification(payload, signature);
    if (event instanceof Failure) return event;
    return this.apply(provider.name, event);
  }

  /**
   * Applies one verified event. Its key is claimed in the same transaction as the order's change,
   * so a replay finds the key taken and changes nothing; only the transaction that moves the order
   * from pending applies the grants. Undone as a whole by the transaction: nothing here reaches
   * outside the database.
   */
  async apply(provider: Provider, event: ProviderEvent): Promise<Outcome<AppliedEvent>> {
    const now = this.deps.now();
    return runInTransaction(this.deps.db, async (trx) => {
      const fresh = await claimEvent(trx, { provider, ...event }, now);
      const order = await trx.selectFrom('orders').selectAll().where('id', '=', event.orderId).executeTakeFirst();
      if (!order) throw new AbortTransaction(fail.notFound('iden'));
      if (!fresh) return { status: order.status, applied: false };
      if (order.provider !== provider) throw new AbortTransaction(fail.paymentRejected('provider_mismatch'));
      if (event.outcome === 'failed') {
        const closed = await closeOrder(trx, order.id, 'failed', now);
        return { status: closed.status, applied: true };
      }
      if (event.amount !== order.total || event.currency !== order.currency) {
        this.deps.log.warn({ iden: order.id, provider }, 'payment amount differs from the order total');
        throw new AbortTransaction(fail.paymentRejected('amount_mismatch'));
      }
      const paid = await payOrder(trx, order.id, now);
      return { status: paid.status, applied: true };
    });
  }
}
