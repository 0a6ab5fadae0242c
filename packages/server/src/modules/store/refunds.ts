import { sql, type Transaction } from 'kysely';
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
