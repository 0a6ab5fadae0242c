import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { holdBalance, moveCredits } from './credits.js';
import { applyGrants, revokeEntitlements, type GrantLine } from './grants.js';
import { newId } from './ids.js';
import type { OrderItemRow, OrderRow } from './order-view.js';

/**
 * Takes back what a paid order granted after the money went back (a provider's refund or a
 * chargeback), in the transaction that marks the order refunded. Unlike an administrator's refund,
 * nothing can be refused here: the money is gone either way. Credits the buyer has spent are not
 * driven below zero; what could not be taken back is written on the order (`shortfall_credits`)
 * and answered, for the caller to flag the buyer for an administrator (the accounts module's, in the
 * same transaction).
 */
export async function takeBackGrants(
  trx: Transaction<Database>,
  order: Pick<OrderRow, 'id' | 'user_id' | 'credits_spent'>,
  lines: GrantLine[],
  now: number,
): Promise<number> {
  if (order.credits_spent > 0) {
    await moveCredits(trx, {
      userId: order.user_id,
      amount: order.credits_spent,
      reason: 'refund',
      reference: order.id,
      now,
    });
  }
  await revokeEntitlements(trx, order.id, now);
  return takeBackCredits(trx, order, creditsOf(lines), order.id, now);
}

/** The credits lines grant. */
function creditsOf(lines: Pick<GrantLine, 'grantCredits' | 'quantity'>[]): number {
  return lines.reduce((sum, l) => sum + (l.grantCredits ?? 0) * l.quantity, 0);
}

/**
 * Takes back `granted` credits after the money went back, never below zero: what the buyer has
 * spent already is added to the order's shortfall. Answers the shortfall.
 */
async function takeBackCredits(
  trx: Transaction<Database>,
  order: Pick<OrderRow, 'id' | 'user_id'>,
  granted: number,
  reference: string,
  now: number,
): Promise<number> {
  if (granted <= 0) return 0;
  // Held until commit, so the balance read cannot be spent by a racing purchase before the take below.
  const balance = await holdBalance(trx, order.user_id);
  const take = Math.min(balance ?? 0, granted);
  if (take > 0) await moveCredits(trx, { userId: order.user_id, amount: -take, reason: 'refund', reference, now });
  const shortfall = granted - take;
  if (shortfall > 0) {
    await trx
      .updateTable('orders')
      .set({ shortfall_credits: sql<number>`shortfall_credits + ${shortfall}` })
      .where('id', '=', order.id)
      .execute();
  }
  return shortfall;
}

/**
 * Ends the subscription time a refunded transaction paid for where another order of the same
 * subscription holds it: the orders' subscription time that falls between `from` and `until`, for
 * the same buyer, is cut out. Time before and after that period, paid by other transactions, stays
 * (a row that reaches past both ends keeps its two outer parts).
 */
export async function revokePaidTime(
  trx: Transaction<Database>,
  paid: { userId: string; orderIds: string[]; from: number; until: number },
  now: number,
): Promise<void> {
  const { from, until } = paid;
  if (!paid.orderIds.length || !(until > from)) return;
  const rows = await trx
    .selectFrom('entitlements')
    .selectAll()
    .where('order_id', 'in', paid.orderIds)
    .where('user_id', '=', paid.userId)
    .where('kind', '=', 'subscription')
    .where('revoked_at', 'is', null)
    .where('starts_at', '<', until)
    .where('expires_at', '>', from)
    .execute();
  for (const row of rows) {
    const starts = Number(row.starts_at);
    const expires = Number(row.expires_at);
    if (starts >= from && expires <= until) {
      await trx.updateTable('entitlements').set({ revoked_at: now }).where('id', '=', row.id).execute();
      continue;
    }
    if (starts < from) {
      await trx.updateTable('entitlements').set({ expires_at: from }).where('id', '=', row.id).execute();
      if (expires > until) {
        await trx
          .insertInto('entitlements')
          .values({ ...row, id: newId(now), starts_at: until, expires_at: expires, created_at: now })
          .execute();
      }
    } else {
      await trx.updateTable('entitlements').set({ starts_at: until }).where('id', '=', row.id).execute();
    }
  }
}

/**
 * A renewal applied to the order that started its subscription was refunded: the time it paid for
 * (`from` to `until`) ends, and with `credits` what it granted is taken back, never below zero. The
 * order stays paid: its own period, and other renewals, were paid by other transactions.
 */
export async function takeBackRenewal(
  trx: Transaction<Database>,
  order: Pick<OrderRow, 'id' | 'user_id'>,
  items: OrderItemRow[],
  renewal: { from: number; until: number; credits: boolean; reference: string },
  now: number,
): Promise<number> {
  await revokePaidTime(trx, { userId: order.user_id, orderIds: [order.id], ...renewal }, now);
  if (!renewal.credits) return 0;
  const renewed = items
    .filter((i) => i.grant_period != null)
    .map((i) => ({ grantCredits: i.grant_credits, quantity: i.quantity }));
  return takeBackCredits(trx, order, creditsOf(renewed), renewal.reference, now);
}

/**
 * A subscription's renewal: its lines grant their time (and any credits they carry) once more,
 * added after the end of the time the buyer already has. Where the store says when the new period
 * ends (`expiresAt`), the order's subscription time ends then instead.
 */
export async function renewSubscription(
  trx: Transaction<Database>,
  order: Pick<OrderRow, 'id' | 'user_id'>,
  items: OrderItemRow[],
  eventId: string,
  now: number,
  expiresAt?: number,
): Promise<void> {
  const lines = items
    .filter((i) => i.grant_period != null)
    .map((i) => ({
      productId: i.product_id,
      type: i.type,
      quantity: i.quantity,
      grantCredits: i.grant_credits,
      grantPeriod: i.grant_period,
    }));
  await applyGrants(trx, lines, {
    userId: order.user_id,
    orderId: order.id,
    source: `order:${order.id}`,
    creditReason: 'purchase',
    reference: `${order.id} (${eventId})`.slice(0, 300),
    now,
  });
  if (expiresAt !== undefined) await alignSubscription(trx, order.id, expiresAt);
}

/**
 * Makes the order's latest subscription time end when the store says it does: an in-app store's
 * expiry is the truth, whatever period the product names (a store may have a trial, a grace period
 * or another billing cycle).
 */
export async function alignSubscription(trx: Transaction<Database>, iden: string, expiresAt: number): Promise<void> {
  const latest = await trx
    .selectFrom('entitlements')
    .select(['id', 'starts_at'])
    .where('order_id', '=', iden)
    .where('kind', '=', 'subscription')
    .where('revoked_at', 'is', null)
    .orderBy('expires_at', 'desc')
    .executeTakeFirst();
  if (!latest) return;
  await trx
    .updateTable('entitlements')
    .set({ expires_at: Math.max(expiresAt, Number(latest.starts_at)) })
    .where('id', '=', latest.id)
    .execute();
}

/** The provider ended the order's subscription: no more renewals; the time already paid stays. */
export async function endSubscription(trx: Transaction<Database>, iden: string, now: number): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ subscription_ended_at: now, updated_at: now })
    .where('id', '=', iden)
    .where('subscription_ended_at', 'is', null)
    .execute();
}

/** An administrator asked the provider for the order's money back; the provider's confirmation completes it. */
export async function markRefundRequested(trx: Transaction<Database>, iden: string, now: number): Promise<void> {
  await trx.updateTable('orders').set({ refund_requested_at: now, updated_at: now }).where('id', '=', iden).execute();
}
