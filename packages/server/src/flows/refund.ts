import type { AdminOrder } from '@till/protocol';
import { runInTransaction } from '../db/transaction.js';
import type { Outcome } from '../errors.js';
import { adminOrderOf, grantLinesOf, itemsOf, revokeGrants, toOrder, transitionOrder } from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';

/**
 * An administrator's refund, paid -> refunded: gives back the credits the order cost and takes back
 * what it granted, in the transaction that changes the status. 912 when the order is not paid, or
 * (with `reason: credits_spent`) when the buyer no longer has the credits it granted.
 */
export async function refundOrder(
  deps: FlowDeps,
  iden: string,
  reason: string | undefined,
): Promise<Outcome<{ order: AdminOrder }>> {
  const now = deps.now();
  return runInTransaction(deps.db, async (trx) => {
    const row = await transitionOrder(trx, iden, 'refunded', now, reason ? `refund: ${reason}` : 'refund');
    const items = await itemsOf(trx, iden);
    await revokeGrants(
      trx,
      { id: row.id, userId: row.user_id, creditsSpent: row.credits_spent, status: 'paid' },
      grantLinesOf(items),
      now,
    );
    return { order: await adminOrderOf(trx, toOrder(row, items)) };
  });
}
