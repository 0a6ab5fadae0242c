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
  findOrderRow,
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
import { dropMail, releaseMail } from '../mail/outbox.js';
import type { FlowDeps } from './deps.js';
import { PROVIDER_ANSWER_MS } from './refund.js';
import {
  lateRefundKey,
  queueLateRefund,
  queueReceipt,
  queueRefund,
  queueRenewal,
  queueSubscriptionEnd,
  type ShopMails,
} from './shop-mails.js';

/** What one step of an event does to an order; runs inside the event's transaction. */
type Step = (trx: Transaction<Database>, order: OrderRow, event: ProviderEvent, now: number) => Promise<Effect>;
/**
 * The order's status after the step, whether the step changed anything, `refund` when money was
 * taken for an order that can no longer be paid, and the mails it queued for the buyer.
 */
interface Effect {
  status: OrderStatusValue;
  applied: boolean;
  refund?: true;
  mails?: (string | undefined)[];
  /** Why the buyer is to be flagged for an administrator (credits a reversal could not take back). */
  flag?: string;
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
  return { status: 'paid', applied: true, mails: [await queueReceipt(trx, order, now)] };
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
  const items = await itemsOf(trx, order.id);
  const chargeback = why === 'chargeback';
  if (event.kind === 'reversed' && event.renewal) {
    const { renewal } = event;
    const reference = `${order.id} (${event.eventId})`.slice(0, 300);
    const shortfall = await takeBackRenewal(trx, order, items, { ...renewal, reference }, now);
    // What went back is the renewal: its time, and its credits where the store says so.
    const renewed = items
      .filter((i) => i.grant_period != null)
      .map((i) => (renewal.credits ? i : { ...i, grant_credits: null }));
    const key = `${order.id}:${event.eventId}`;
    const notice = { key, amount: order.total, moneyOnly: false, items: renewed, chargeback, shortfall };
    const mails = [await queueRefund(trx, order, notice, now)];
    return { status: order.status, applied: true, mails, ...flagged(order, why, shortfall) };
  }
  await transitionOrder(trx, order.id, 'refunded', now, chargeback ? 'chargeback' : 'refunded');
  const shortfall = await takeBackGrants(trx, order, grantLinesOf(items), now);
  if (event.kind === 'reversed' && event.paidTime) {
    await revokePaidTime(trx, { userId: order.user_id, ...event.paidTime }, now);
  }
  const amount = order.total - order.refunded_amount;
  const notice = { key: order.id, amount, moneyOnly: false, items, chargeback, shortfall };
  const mails = [
    await queueRefund(trx, order, notice, now),
    await queueSubscriptionEnd(trx, order, 'refunded', now, items),
  ];
  return { status: 'refunded', applied: true, mails, ...flagged(order, why, shortfall) };
};

/** The flag a reversal that could not take back every credit leaves on the buyer. */
function flagged(order: OrderRow, why: string, shortfall: number): Pick<Effect, 'flag'> {
  return shortfall > 0 ? { flag: `${why} of order ${order.id}: ${shortfall} credits already spent` } : {};
}

const renew: Step = async (trx, order, event, now) => {
  if (event.kind !== 'renewed') return { status: order.status, applied: false };
  const reported = event.amount !== undefined || event.currency !== undefined;
  if (reported && (event.amount !== order.total || event.currency !== order.currency)) {
    throw new AbortTransaction(fail.paymentRejected('amount_mismatch'));
  }
  await renewSubscription(trx, order, await itemsOf(trx, order.id), event.eventId, now, event.expiresAt);
  const mail = await queueRenewal(trx, order, event, now);
  return { status: order.status, applied: true, mails: [mail] };
};

const end: Step = async (trx, order, _event, now) => {
  await endSubscription(trx, order.id, now);
  // Only a paid order's buyer has a subscription to lose; a refund has told of its end already.
  const mails = order.status === 'paid' ? [await queueSubscriptionEnd(trx, order, 'cancelled', now)] : [];
  return { status: order.status, applied: false, mails };
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
  constructor(
    private readonly deps: FlowDeps,
    private readonly mails: ShopMails,
  ) {}

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
   * applies grants. The buyer's mails are queued with the change and sent after the commit, so a
   * replay queues none. One step reaches outside: money taken for an order that can no longer be paid
   * is asked back of the provider after the commit, and the buyer told of it once the provider agreed.
   */
  async apply(provider: Provider, event: ProviderEvent): Promise<Outcome<AppliedEvent>> {
    const now = this.deps.now();
    const done = await runInTransaction(this.deps.db, async (trx): Promise<AppliedEvent & Pick<Effect, 'mails'>> => {
      const orderId = event.orderId ?? (await orderOfRef(trx, provider, event.ref));
      if (!orderId) throw new AbortTransaction(fail.notFound('iden'));
      const fresh = await claimEvent(trx, { provider, eventId: event.eventId, orderId, outcome: event.kind }, now);
      const order = await findOrderRow(trx, orderId);
      if (!order) throw new AbortTransaction(fail.notFound('iden'));
      if (!fresh) return { status: order.status, applied: false };
      if (order.provider !== provider) throw new AbortTransaction(fail.paymentRejected('provider_mismatch'));
      for (const link of event.refs ?? []) await linkRef(trx, { provider, orderId, ...link }, now);
      const { status, applied, refund, mails, flag } = await EVENT_STEPS[event.kind][order.status](
        trx,
        order,
        event,
        now,
      );
      // In the same transaction: the flag stands exactly when the shortfall does.
      if (flag) await this.deps.buyers.flag(trx, order.user_id, flag, now);
      if (refund && event.kind === 'paid' && this.deps.payments.providers.get(provider)?.refund) {
        // The buyer is told once the provider has given the money back (refundLatePayment).
        const paid = { amount: event.amount, currency: event.currency };
        await queueLateRefund(trx, order, paid, now, PROVIDER_ANSWER_MS);
      }
      return { status, applied, ...(refund ? { refundDue: { orderId } } : {}), mails };
    });
    let outcome: Outcome<AppliedEvent> = done;
    if (!(done instanceof Failure)) {
      const { mails, ...applied } = done;
      this.mails.after(mails ?? []);
      outcome = applied;
    }
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
    if (refunded instanceof Failure) {
      this.deps.log.error({ iden, outcome: refunded.body }, 'refund of a late payment failed');
      // No money went back: the buyer is not told it did.
      await dropMail(this.deps.db, lateRefundKey(iden));
      return;
    }
    this.deps.log.warn({ iden }, 'payment for an ended order refunded');
    this.mails.after([await releaseMail(this.deps.db, lateRefundKey(iden), this.deps.now())]);
  }
}
