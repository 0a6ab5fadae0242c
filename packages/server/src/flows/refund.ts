import type { AdminOrder, Provider } from '@till/protocol';
import { readJson } from '../db/rows.js';
import { runInTransaction } from '../db/transaction.js';
import { Failure, fail, type Outcome } from '../errors.js';
import { orderOfRef, type VerifiedPurchase } from '../modules/payments/index.js';
import {
  adminOrderOf,
  dropRefund,
  grantLinesOf,
  itemsOf,
  loadOrder,
  markRefundRequested,
  recordRefund,
  revokeGrants,
  revokePaidTime,
  toOrder,
  transitionOrder,
} from '../modules/store/index.js';
import { dropMail, releaseMail } from '../mail/outbox.js';
import type { FlowDeps } from './deps.js';
import { queueRefund, queueSubscriptionEnd, type ShopMails } from './shop-mails.js';

/**
 * How long the notice of a refund the provider has still to accept waits at most: the provider's
 * answer releases it at once, or drops it with the refund; a crash between the two leaves the
 * refund recorded, and the notice goes after this.
 */
export const PROVIDER_ANSWER_MS = 10 * 60_000;

/** What an administrator asks for: the whole order back, or some money only. */
export interface RefundAsk {
  iden: string;
  reason?: string | undefined;
  /** Minor units; left out, everything not yet given back. */
  amount?: number | undefined;
  /** Money only: the order keeps what it granted. */
  keepGrants?: boolean | undefined;
  adminId?: string | undefined;
}

/**
 * An administrator's refund, of one of two kinds.
 *
 * **The whole order** (no `amount`, or all of what is left, and `keepGrants` false): the money not
 * yet given back goes back and what the order granted is taken back. An order paid through a
 * provider that takes money back itself (the card route) is refunded there: the provider is asked
 * (once, whatever the retries: it keys the request by the order), the order notes the request, and
 * the provider's confirmation turns it `refunded` through the event flow, which takes the grants
 * back. Any other order goes paid -> refunded at once: the credits it cost come back and what it
 * granted is taken back, in the transaction that changes the status; 912 when the order is not paid,
 * or (with `reason: credits_spent`) when the buyer no longer has the credits it granted.
 *
 * **Money only** (`keepGrants`, or an `amount` below what is left): money goes back and the order
 * stays paid with everything it granted; no credit moves, so the ledger is untouched. A partial
 * refund is always money only: part of an order's money says nothing about which part of what it
 * granted to take, and taking a share of its credits would take credits the buyer was meant to keep
 * (or, once spent, could not be taken without a balance below zero). So a partial refund reverses
 * credits not at all, and the whole-order refund stays the one way to take grants back. The amount
 * is reserved first (a guarded update: refunds racing cannot give back more than was paid), then
 * the provider, if it takes money back itself, is asked for exactly that amount under the refund's
 * own key; when it refuses, the reservation is undone. A card payment given back whole makes the
 * provider reverse the order, so there money only must leave something (912 `provider_reverses`).
 */
export async function refundOrder(
  deps: FlowDeps,
  mails: ShopMails,
  ask: RefundAsk,
): Promise<Outcome<{ order: AdminOrder }>> {
  const { iden } = ask;
  const found = await loadOrder(deps.db, iden);
  if (!found) return fail.notFound('iden');
  if (found.row.status !== 'paid') return fail.conflict(found.row.status);
  const left = found.row.total - found.row.refunded_amount;
  const amount = ask.amount ?? left;
  if (amount > left) return fail.invalidInput('amount', 'too_long');
  const partial = amount < left;
  if (partial && !ask.keepGrants) return fail.invalidInput('keepGrants', 'required');
  const provider = deps.payments.providers.get(found.row.provider);
  const now = deps.now();
  const reason = ask.reason ?? null;

  if (ask.keepGrants) {
    if (amount < 1) return fail.invalidInput('amount', left > 0 ? 'required' : 'too_long');
    if (provider?.refund && !partial) return fail.conflict('paid', 'provider_reverses');
    const record = { orderId: iden, amount, currency: found.row.currency, keepsGrants: true, reason, now };
    // The notice is queued with the refund; where the provider gives the money back, it waits for its yes.
    const hold = provider?.refund ? PROVIDER_ANSWER_MS : undefined;
    const recorded = await runInTransaction(deps.db, async (trx) => {
      const refundId = await recordRefund(trx, { ...record, adminId: ask.adminId ?? null });
      const notice = { key: refundId, amount, moneyOnly: true, hold };
      return { refundId, mail: await queueRefund(trx, found.row, notice, now) };
    });
    if (recorded instanceof Failure) return recorded;
    const { refundId } = recorded;
    if (provider?.refund) {
      const asked = await provider.refund(found.order, { amount, key: `till-refund-${iden}-${refundId}` });
      if (asked instanceof Failure) {
        await runInTransaction(deps.db, async (trx) => {
          await dropRefund(trx, iden, refundId);
          await dropMail(trx, `refund:${refundId}`);
        });
        return asked;
      }
      deps.log.info({ iden, provider: provider.name, amount }, 'partial refund asked of the provider');
      mails.after([await releaseMail(deps.db, `refund:${refundId}`, deps.now())]);
    } else mails.after([recorded.mail]);
    return { order: await adminOrderOf(deps.db, found.order, deps.store.deps) };
  }

  if (provider?.refund) {
    if (found.row.refund_requested_at == null) {
      const asked = await provider.refund(found.order);
      if (asked instanceof Failure) return asked;
      await runInTransaction(deps.db, (trx) => markRefundRequested(trx, iden, deps.now()));
      deps.log.info({ iden, provider: provider.name }, 'refund asked of the provider');
    }
    return { order: await adminOrderOf(deps.db, found.order, deps.store.deps) };
  }
  const paid = await paidTimeOf(deps, found.row);
  if (paid instanceof Failure) return paid;
  const refunded = await runInTransaction(deps.db, async (trx) => {
    const note = reason ? `refund: ${reason}` : 'refund';
    if (amount > 0) {
      await recordRefund(trx, {
        orderId: iden,
        amount,
        currency: found.row.currency,
        keepsGrants: false,
        reason,
        adminId: ask.adminId ?? null,
        now,
      });
    }
    const row = await transitionOrder(trx, iden, 'refunded', now, note, ['paid']);
    const items = await itemsOf(trx, iden);
    await revokeGrants(
      trx,
      { id: row.id, userId: row.user_id, creditsSpent: row.credits_spent, status: 'paid' },
      grantLinesOf(items),
      now,
    );
    // A subscription's later transaction whose time the store put on the subscription's first
    // order (Apple's DID_RENEW): that time ends too, as the store's own refund ends it.
    const first = paid && (await orderOfRef(trx, row.provider as Provider, paid.subscription));
    if (paid && first && first !== iden) {
      await revokePaidTime(trx, { userId: row.user_id, orderIds: [first], from: paid.from, until: paid.until }, now);
    }
    const notice = { key: iden, amount, moneyOnly: false, items };
    const queued = [
      await queueRefund(trx, row, notice, now),
      await queueSubscriptionEnd(trx, row, 'refunded', now, items),
    ];
    return { order: await adminOrderOf(trx, toOrder(row, items), deps.store.deps), queued };
  });
  if (refunded instanceof Failure) return refunded;
  mails.after(refunded.queued);
  return { order: refunded.order };
}

type PaidTime = NonNullable<VerifiedPurchase['paidTime']>;

/**
 * The time a subscription's later transaction paid for, which the store may have put on the
 * subscription's first order: kept on the order at validatePurchase, or, for a subscription's order
 * recorded before orders kept it, asked of the store (910 when it cannot answer now, so that the
 * refund never leaves that time running).
 */
async function paidTimeOf(
  deps: FlowDeps,
  row: { id: string; provider: string; data: string | null },
): Promise<Outcome<PaidTime | undefined>> {
  const data = readJson<{ transactionId?: string; paidTime?: PaidTime }>(row.data, {});
  if (data.paidTime) return data.paidTime;
  const platform = deps.payments.platformOf(row.provider);
  if (!platform?.paidTimeOf || !data.transactionId) return undefined;
  const items = await itemsOf(deps.db, row.id);
  if (!items.some((i) => i.grant_period != null)) return undefined;
  return platform.paidTimeOf(data.transactionId);
}
