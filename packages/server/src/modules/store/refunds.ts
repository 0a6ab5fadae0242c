import { sql, type Transaction } from 'kysely';
import type { Order, OrderRefund } from '@till/protocol';
import { iso, type Executor } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';
import { AbortTransaction, fail } from '../../errors.js';
import { newId } from './ids.js';

/** One refund to write down: its order, how much, whether the order keeps its grants, who and why. */
export interface RefundRecord {
  orderId: string;
  amount: number;
  currency: string;
  keepsGrants: boolean;
  reason: string | null;
  adminId: string | null;
  now: number;
}

/**
 * Writes a refund down and adds its amount to the order's `refunded_amount`, in the caller's
 * transaction. The amount is added by one conditional update (the order still paid, the sum within
 * its total), never by a read and a write, so two refunds racing for the last of an order's money
 * cannot both pass: the loser gets 907 `amount` `too_long` (or 912 when the order is no longer paid).
 * Answers the refund's id (the key a provider's refund is made under).
 */
export async function recordRefund(trx: Transaction<Database>, r: RefundRecord): Promise<string> {
  const raised = await trx
    .updateTable('orders')
    .set({ refunded_amount: sql<number>`refunded_amount + ${r.amount}`, updated_at: r.now })
    .where('id', '=', r.orderId)
    .where('status', '=', 'paid')
    .where(sql<boolean>`refunded_amount + ${r.amount} <= total`)
    .executeTakeFirst();
  if (Number(raised.numUpdatedRows) === 0) {
    const row = await trx.selectFrom('orders').select('status').where('id', '=', r.orderId).executeTakeFirst();
    if (!row) throw new AbortTransaction(fail.notFound('iden'));
    throw new AbortTransaction(
      row.status === 'paid' ? fail.invalidInput('amount', 'too_long') : fail.conflict(row.status),
    );
  }
  const id = newId(r.now);
  await trx
    .insertInto('order_refunds')
    .values({
      id,
      order_id: r.orderId,
      amount: r.amount,
      currency: r.currency,
      keeps_grants: r.keepsGrants ? 1 : 0,
      reason: r.reason,
      admin_id: r.adminId,
      created_at: r.now,
    })
    .execute();
  return id;
}

/** Undoes {@link recordRefund} when the provider refused to give the money back. */
export async function dropRefund(trx: Transaction<Database>, orderId: string, refundId: string): Promise<void> {
  const row = await trx
    .deleteFrom('order_refunds')
    .where('id', '=', refundId)
    .where('order_id', '=', orderId)
    .returning('amount')
    .executeTakeFirst();
  if (!row) return;
  await trx
    .updateTable('orders')
    .set({ refunded_amount: sql<number>`refunded_amount - ${row.amount}` })
    .where('id', '=', orderId)
    .execute();
}

/**
 * The orders with their refunds as their buyer sees them (two queries, whatever the number of
 * orders): each refund written down, oldest first, and for an order a provider closed as refunded
 * (a card refund it confirmed, a store's refund or chargeback) what was not written down as a
 * refund: the rest of its money, and the credits an order paid with credits cost, given back when
 * it closed, with what it granted taken back.
 */
export async function withRefunds(x: Executor, orders: Order[]): Promise<Order[]> {
  if (!orders.length) return orders;
  const idens = orders.map((o) => o.iden);
  const written = await x
    .selectFrom('order_refunds')
    .select(['order_id', 'amount', 'currency', 'keeps_grants', 'created_at'])
    .where('order_id', 'in', idens)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const refunded = orders.filter((o) => o.status === 'refunded').map((o) => o.iden);
  const closed = refunded.length
    ? await x
        .selectFrom('orders')
        .select(['id', 'closed_at', 'updated_at', 'refunded_amount'])
        .where('id', 'in', refunded)
        .execute()
    : [];
  const closedById = new Map(closed.map((r) => [r.id, r]));
  return orders.map((o) => {
    const refunds: OrderRefund[] = written
      .filter((r) => r.order_id === o.iden)
      .map((r) => ({
        amount: { amount: r.amount, currency: r.currency },
        credits: 0,
        at: iso(r.created_at),
        grantsTakenBack: r.keeps_grants === 0,
      }));
    const close = closedById.get(o.iden);
    if (close) {
      const rest = Math.max(0, o.total.amount - close.refunded_amount);
      const last = refunds.at(-1);
      if (last?.grantsTakenBack && rest === 0) {
        // The administrator's whole-order refund, written down with the close: its credits too.
        last.credits = o.creditsSpent;
      } else {
        refunds.push({
          amount: { amount: rest, currency: o.total.currency },
          credits: o.creditsSpent,
          at: iso(close.closed_at ?? close.updated_at),
          grantsTakenBack: true,
        });
      }
    }
    return { ...o, refunds };
  });
}
