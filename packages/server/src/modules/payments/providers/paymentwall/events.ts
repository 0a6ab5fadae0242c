import type { Money, Order } from '@till/protocol';
import type { ProviderEvent } from '../../provider.js';
import { PingbackType, type PingbackEvent } from './pingback.js';

/** What the server knows of the order a verified pingback names. */
export interface PingbackTarget {
  order: Order;
  /** The order's buyer, who must be the pingback's `uid`. */
  buyer: string | undefined;
  /** Whether one of the order's lines is a subscription (its payments renew it). */
  subscription: boolean;
  /** The order this pingback's `ref` was linked to by an earlier event, if any. */
  refOrder: string | undefined;
}

/**
 * What to do with a verified pingback:
 * - `apply`: the event, applied once through the ports; the answer is `OK` once it is applied or
 *   found applied before;
 * - `ignore`: nothing to do, answered `OK` so Paymentwall stops sending it;
 * - `refuse`: it cannot be applied as it is; answered with an error so Paymentwall sends it again
 *   (every 30 minutes, for a while) and lists it as failed in the merchant area.
 */
export type PingbackAction =
  { do: 'apply'; event: ProviderEvent } | { do: 'ignore'; why: string } | { do: 'refuse'; why: string };

/**
 * The money a payment pingback says was taken, in minor units.
 *
 * Paymentwall's default pingback carries no amount. The widget call that set the price is signed
 * with the project's secret key, so the buyer cannot have changed the amount or the currency on the
 * way to Paymentwall, and a pingback that verifies names an order whose price Paymentwall was given
 * by this server. So:
 * - without `amount` and `currencyCode` (the custom pingback parameters, see `pingback.ts`) there is
 *   nothing more to check, and the order's own total is what the flow compares;
 * - with both, they are what the flow compares with the order's total: a different amount or
 *   currency does not pay the order;
 * - with one but not the other, or an amount that is not a plain decimal with the currency's
 *   decimals, the pingback is refused: a half-configured check must show, not pass silently.
 */
export function paidMoney(event: PingbackEvent, order: Order): Money | 'unreadable' {
  if (event.amount === undefined && event.currency === undefined) return order.total;
  if (event.amountMinor === undefined || event.currency === undefined) return 'unreadable';
  return { amount: event.amountMinor, currency: event.currency };
}

/**
 * Maps a verified pingback to the server's provider event. The event id is `ref` and `type`
 * together (`pingback.ts`): a pingback sent again is the same event, applied once, while a
 * chargeback (same `ref`, type 2) and each renewal (a `ref` of its own) are new events.
 */
export function pingbackAction(event: PingbackEvent, target: PingbackTarget | undefined): PingbackAction {
  // An order this server does not know: refused, so that Paymentwall keeps it and sends it again
  // rather than the payment being forgotten (a pingback that arrives before a database restore, or
  // sent to the wrong deployment of the same project, is not lost).
  if (!target) return { do: 'refuse', why: 'unknown order' };
  const { order } = target;
  // Every widget call names the order's buyer as `uid`; a pingback naming someone else for this
  // order is not about a payment this server started.
  if (target.buyer !== event.uid) return { do: 'refuse', why: 'uid is not the buyer of the order' };
  const base = { orderId: order.iden, eventId: event.eventId };

  switch (event.type) {
    case PingbackType.payment:
    case PingbackType.riskAccepted: {
      const money = paidMoney(event, order);
      if (money === 'unreadable') return { do: 'refuse', why: 'amount or currency unreadable' };
      // A paid subscription's next payment (a `ref` not seen on this order) renews it; the same
      // `ref` under another type (a risk review's acceptance after the payment) changes nothing.
      if (order.status === 'paid' && target.subscription && target.refOrder !== order.iden) {
        return {
          do: 'apply',
          event: { ...base, kind: 'renewed', ...money, refs: [{ kind: 'renewal', ref: event.ref }] },
        };
      }
      return { do: 'apply', event: { ...base, kind: 'paid', ...money, refs: [{ kind: 'payment', ref: event.ref }] } };
    }
    case PingbackType.goodwill:
      // A goodwill credit: Paymentwall's customer service decided the buyer gets the goods and asks
      // the merchant to deliver them. No money was taken from the buyer for it, so there is no amount
      // to check: it pays the order as if its total had been paid.
      return {
        do: 'apply',
        event: { ...base, kind: 'paid', ...order.total, refs: [{ kind: 'payment', ref: event.ref }] },
      };
    case PingbackType.negative:
      // A chargeback, or a refund made in Paymentwall's merchant area: what the order granted is
      // taken back, never driving a balance below zero (the flow writes down a shortfall instead).
      return { do: 'apply', event: { ...base, kind: 'reversed', reason: 'chargeback' } };
    case PingbackType.riskDeclined:
      // A payment held for review and then declined: an unpaid order fails; one already paid had
      // its money given back by Paymentwall.
      return order.status === 'pending'
        ? { do: 'apply', event: { ...base, kind: 'failed' } }
        : { do: 'apply', event: { ...base, kind: 'reversed', reason: 'refund' } };
    case PingbackType.subscriptionCancelled:
    case PingbackType.subscriptionExpired:
      // No more renewals will come; the time already paid stays.
      return target.subscription
        ? { do: 'apply', event: { ...base, kind: 'ended' } }
        : { do: 'ignore', why: 'not a subscription' };
    default:
      // A risk review started (200), a renewal that failed (14: Paymentwall tries again and says so
      // with 13 when it gives up), and any type added later: nothing for the order.
      return { do: 'ignore', why: `type ${event.type}` };
  }
}
