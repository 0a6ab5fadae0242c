import type { JWSTransactionDecodedPayload, ResponseBodyV2DecodedPayload } from '@apple/app-store-server-library';
import type { ProviderEvent } from '../../provider.js';

/** What a verified notification asks of an order, before the order is looked up. */
export type Change =
  { kind: 'paid' } | { kind: 'renewed'; expiresAt: number | undefined } | { kind: 'ended' } | { kind: 'reversed' };

/**
 * The server's event for each App Store Server Notification (v2) type; anything else is
 * acknowledged and ignored.
 *
 * - `ONE_TIME_CHARGE`, `SUBSCRIBED`: `paid`. The app reports the same purchase through
 *   validatePurchase, which records it as an order that is already paid, so on that order `paid`
 *   changes nothing (it never grants twice). A purchase the app never reported has no order here and
 *   is left alone: it is granted when the app reports it. A resubscription is a new transaction,
 *   granted the same way.
 * - `DID_RENEW`: `renewed`, the subscription's time ending where Apple says (`expiresDate`).
 *   Apple reports no amount, and the price is Apple's per storefront, so none is checked. It is
 *   applied under the renewal's transaction id, the key validatePurchase records the same
 *   transaction under: whichever of the two comes first grants the renewal, the other nothing.
 * - `EXPIRED`, `GRACE_PERIOD_EXPIRED`: `ended`; the time already paid stays.
 * - `DID_FAIL_TO_RENEW`: `ended` only without a grace period (no subtype). With subtype
 *   `GRACE_PERIOD` Apple keeps trying to bill while the buyer keeps access, and a later `DID_RENEW`
 *   or `GRACE_PERIOD_EXPIRED` settles it.
 * - `REFUND`, `REVOKE`: `reversed` (a refund): the order's grants are taken back. A renewal that
 *   DID_RENEW applied to the subscription's first order takes back only its own period and credits.
 * - `TEST`, and every other type (`DID_CHANGE_RENEWAL_STATUS`, `REFUND_DECLINED`, `PRICE_INCREASE`,
 *   `CONSUMPTION_REQUEST`, ...): acknowledged, nothing applied.
 */
export function changeOf(n: ResponseBodyV2DecodedPayload, tx: JWSTransactionDecodedPayload): Change | undefined {
  switch (n.notificationType) {
    case 'ONE_TIME_CHARGE':
    case 'SUBSCRIBED':
      return { kind: 'paid' };
    case 'DID_RENEW':
      return { kind: 'renewed', expiresAt: tx.expiresDate };
    case 'EXPIRED':
    case 'GRACE_PERIOD_EXPIRED':
      return { kind: 'ended' };
    case 'DID_FAIL_TO_RENEW':
      return n.subtype === 'GRACE_PERIOD' ? undefined : { kind: 'ended' };
    case 'REFUND':
    case 'REVOKE':
      return { kind: 'reversed' };
    default:
      return undefined;
  }
}

/**
 * The references to look the order up by, best first: a renewal or an end concerns the whole
 * subscription (its original transaction, linked at validatePurchase), a payment or a refund the
 * transaction itself (a later transaction of the subscription the app reported is an order of its own).
 */
export function refsToTry(change: Change, tx: JWSTransactionDecodedPayload): string[] {
  const own = tx.transactionId;
  const original = tx.originalTransactionId;
  const order = change.kind === 'renewed' || change.kind === 'ended' ? [original, own] : [own, original];
  return [...new Set(order.filter((r): r is string => typeof r === 'string' && r !== ''))];
}

/**
 * The time a subscription's transaction paid for (its purchase to its expiry), when it is one: a
 * renewal's time is applied to the subscription's first order, while the refund names the
 * renewal's own transaction (and order).
 */
export function periodOf(tx: JWSTransactionDecodedPayload): { from: number; until: number } | undefined {
  const { purchaseDate: from, expiresDate: until } = tx;
  return from !== undefined && until !== undefined && until > from ? { from, until } : undefined;
}

/** Where a reversal's time and grants sit, when not all of its order's: see {@link ProviderEvent}. */
export interface ReversalScope {
  paidTime?: { orderIds: string[]; from: number; until: number };
  renewal?: { from: number; until: number; credits: boolean };
}

/** The provider event for a change, once its order is known (and, for a reversal, what it reaches). */
export function eventOf(
  change: Change,
  eventId: string,
  orderId: string,
  total: { amount: number; currency: string },
  scope: ReversalScope = {},
): ProviderEvent {
  switch (change.kind) {
    case 'paid':
      // The order was made from Apple's verified transaction at validatePurchase, for its own total;
      // Apple's price is in the storefront's currency and is not the catalog's.
      return { kind: 'paid', eventId, orderId, amount: total.amount, currency: total.currency };
    case 'renewed':
      return {
        kind: 'renewed',
        eventId,
        orderId,
        ...(change.expiresAt === undefined ? {} : { expiresAt: change.expiresAt }),
      };
    case 'ended':
      return { kind: 'ended', eventId, orderId };
    case 'reversed':
      return { kind: 'reversed', eventId, orderId, reason: 'refund', ...scope };
  }
}
