import type { OrderStatusValue, Provider } from '@till/protocol';
import { runInTransaction } from '../db/transaction.js';
import { AbortTransaction, Failure, fail, type Outcome } from '../errors.js';
import type { StoreDeps } from '../modules/store/deps.js';
import { closeOrder, payOrder } from '../modules/store/orders.js';
import type { ProviderEvent, ProviderRegistry } from '../modules/payments/provider.js';

/** What applying a notification did. */
export interface AppliedEvent {
  status: OrderStatusValue;
  /** False when the event had been applied before and nothing changed. */
  applied: boolean;
}

/** Applies provider notifications to orders, each event once. */
export class PaymentsService {
  constructor(
    private readonly deps: StoreDeps,
    readonly providers: ProviderRegistry,
  ) {}

  /** Verifies a provider's notification and applies it: 904 for an unknown provider, 910 when it does not verify. */
  async applyNotification(providerName: string, payload: string, signature: string): Promise<Outcome<AppliedEvent>> {
    const provider = this.providers.get(providerName);
    if (!provider) return fail.notFound('provider');
    const event = provider.readNotification(payload, signature);
    if (event instanceof Failure) return event;
    return this.applyEvent(provider.name, event);
  }

  /**
   * Applies one verified event. The event's key (provider, event id) is written in the same
   * transaction as the order's change: a replay finds the key taken and changes nothing, and on
   * PostgreSQL a replay racing the first waits on the key until the first commits. Only the
   * transaction that moves the order from pending applies the grants.
   */
  async applyEvent(provider: Provider, event: ProviderEvent): Promise<Outcome<AppliedEvent>> {
    const now = this.deps.now();
    return runInTransaction(this.deps.db, async (trx) => {
      const fresh = await trx
        .insertInto('payment_events')
        .values({ provider, event_id: event.eventId, order_id: event.orderId, outcome: event.outcome, created_at: now })
        .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
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
