import type { OrderStatusValue, Provider } from '@till/protocol';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { runInTransaction } from '../db/transaction.js';
import { AbortTransaction, Failure, fail, type Outcome } from '../errors.js';
import {
  claimEvent,
  linkRef,
  orderOfRef,
  type AppliedEvent,
  type ProviderEvent,
  type ProviderEventKind,
} from '../modules/payments/index.js';
import {
  closeOrder,
  endSubscription,
  grantLinesOf,
  itemsOf,
  payOrder,
  renewSubscription,
  revokePaidTime,
  takeBackGrants,
  takeBackRenewal,
  transitionOrder,
  type OrderRow,
} from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';

/** What one step of an event does to an order; runs inside the event's transaction. */
type Step = (trx: Transaction<Database>, order: OrderRow, event: ProviderEvent, now: number) => Promise<Effect>;
/**
 * The order's status after the step, whether the step changed anything, and `refund` when money was
 * taken for an order that can no longer be paid.
 */
interface Effect {
  status: OrderStatusValue;
  applied: boolean;
  refund?: true;
}

const nothing: Step = (_trx, order) => Promise.resolve({ status: order.status, applied: false });

/** Refused until the order has moved on: the provider sends the event again later. */
const notYet: Step = (_trx, order) => Promise.reject(new AbortTransaction(fail.conflict(order.status, 'not_yet')));

const pay: Step = async (trx, order, event, now) => {
  if (event.kind !== 'paid') return { status: order.status, applied: false };
  if (event.amount !== order.total || event.currency !== order.currency) {
    throw new AbortTransaction(fail.paymentRejected('amount_mismatch'));
  }
  await payOrder(trx, order.id, now);
  return { status: 'paid', applied: true };
};

const failOrder: Step = async (trx, order, _event, now) => {
  await closeOrder(trx, order.id, 'failed', now);
  return { status: 'failed', applied: true };
};

/** The money went back before the payment was confirmed: nothing was granted, nothing to take. */
const refundUnpaid: Step = async (trx, order, _event, now) => {
  await transitionOrder(trx, order.id, 'refunded', now, 'refunded by the provider before it confirmed the payment');
  return { status: 'refunded', applied: true };
};

const reverse: Step = async (trx, order, event, now) => {
  const why = event.kind === 'reversed' ? event.reason : 'refund';
  if (event.kind === 'reversed' && event.renewal) {
    const reference = `${order.id} (${event.eventId})`.slice(0, 300);
    await takeBackRenewal(trx, order, await itemsOf(trx, order.id), { ...event.renewal, reference }, now, why);
    return { status: order.status, applied: true };
  }
  await transitionOrder(trx, order.id, 'refunded', now, why === 'chargeback' ? 'chargeback' : 'refunded');
  await takeBackGrants(trx, order, grantLinesOf(await itemsOf(trx, order.id)), now, why);
  if (event.kind === 'reversed' && event.paidTime) {
    await revokePaidTime(trx, { userId: order.user_id, ...event.paidTime }, now);
  }
  return { status: 'refunded', applied: true };
};

const renew: Step = async (trx, order, event, now) => {
  if (event.kind !== 'renewed') return { status: order.status, applied: false };
  const reported = event.amount !== undefined || event.currency !== undefined;
  if (reported && (event.amount !== order.total || event.currency !== order.currency)) {
    throw new AbortTransaction(fail.paymentRejected('amount_mismatch'));
  }
  await renewSubscription(trx, order, await itemsOf(trx, order.id), event.eventId, now, event.expiresAt);
  return { status: order.status, applied: true };
};

const end: Step = async (trx, order, _event, now) => {
  await endSubscription(trx, order.id, now);
  return { status: order.status, applied: false };
};

/** Money taken for an order that failed or was cancelled meanwhile (an out-of-order completion). */
const refundLate: Step = (_trx, order) => Promise.resolve({ status: order.status, applied: false, refund: true });

/**
 * What each kind of event does in each order status: every provider's events come down to these
 * five kinds, so the rules of money live in this one table. Events that arrive out of order end in
 * the right state: a refund before its payment leaves the order refunded with nothing granted, a
 * payment after the order failed is given back, a renewal before the first payment waits.
 */
export const EVENT_STEPS: Readonly<Record<ProviderEventKind, Readonly<Record<OrderStatusValue, Step>>>> = {
  paid: { pending: pay, paid: nothing, failed: refundLate, cancelled: refundLate, refunded: nothing },
  failed: { pending: failOrder, paid: nothing, failed: nothing, cancelled: nothing, refunded: nothing },
  reversed: { pending: refundUnpaid, paid: reverse, failed: nothing, cancelled: nothing, refunded: nothing },
  renewed: { pending: notYet, paid: renew, failed: nothing, cancelled: nothing, refunded: nothing },
  ended: { pending: end, paid: end, failed: end, cancelled: end, refunded: end },
};

/** Applies provider events to orders, each event once. */
export class PaymentEvents {
  constructor(private readonly deps: FlowDeps) {}

  /** Verifies a provider's notification and applies it: 904 for an unknown provider, 910 when it does not verify. */
  async applyNotification(providerName: string, payload: string, signature: string): Promise<Outcome<AppliedEvent>> {
    const provider = this.deps.payments.providers.get(providerName);
    if (!provider?.readNotification) return fail.notFound('provider');
    const event = provider.readNotification(payload, signature);
    if (event instanceof Failure) return event;
    return this.apply(provider.name, event);
  }

  /**
   * Applies one verified event in one transaction: the event's key is claimed with the order's
   * change, so a replay finds the key taken and changes nothing (on PostgreSQL a replay racing the
   * first waits on the key until the first commits), and only the transaction that moves the order
   * applies grants. One step reaches outside: money taken for an order that can no longer be paid is
   * asked back of the provider after the commit.
   */
  async apply(provider: Provider, event: ProviderEvent): Promise<Outcome<AppliedEvent>> {
    const now = this.deps.now();
    const outcome = await runInTransaction(this.deps.db, async (trx): Promise<AppliedEvent> => {
      const orderId = event.orderId ?? (await orderOfRef(trx, provider, event.ref));
      if (!orderId) throw new AbortTransaction(fail.notFound('iden'));
      const fresh = await claimEvent(trx, { provider, eventId: event.eventId, orderId, outcome: event.kind }, now);
      const order = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
      if (!order) throw new AbortTransaction(fail.notFound('iden'));
      if (!fresh) return { status: order.status, applied: false };
      if (order.provider !== provider) throw new AbortTransaction(fail.paymentRejected('provider_mismatch'));
      for (const link of event.refs ?? []) await linkRef(trx, { provider, orderId, ...link }, now);
      const { status, applied, refund } = await EVENT_STEPS[event.kind][order.status](trx, order, event, now);
      return { status, applied, ...(refund ? { refundDue: { orderId } } : {}) };
    });
    this.deps.metrics.paymentEvent(
      provider,
      event.kind,
      outcome instanceof Failure ? 'refused' : outcome.applied ? 'applied' : 'unchanged',
    );
    if (outcome instanceof Failure) {
      if (outcome.body.code !== 904)
        this.deps.log.warn({ provider, event: event.eventId, outcome: outcome.body }, 'provider event refused');
      return outcome;
    }
    if (outcome.refundDue) await this.refundLatePayment(provider, outcome.refundDue.orderId);
    return outcome;
  }

  /** After the commit: the provider gives back money taken for an order that had already ended. */
  private async refundLatePayment(providerName: Provider, iden: string): Promise<void> {
    const provider = this.deps.payments.providers.get(providerName);
    const order = await this.deps.store.parts.orders.order(iden);
    if (!provider?.refund || !order) {
      this.deps.log.error({ iden, provider: providerName }, 'payment for an ended order cannot be refunded here');
      return;
    }
    const refunded = await provider.refund(order);
    if (refunded instanceof Failure)
      this.deps.log.error({ iden, outcome: refunded.body }, 'refund of a late payment failed');
    else this.deps.log.warn({ iden }, 'payment for an ended order refunded');
  }
}
