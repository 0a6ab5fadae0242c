import type { AdminOrder } from '@till/protocol';
import { runInTransaction } from '../db/transaction.js';
import { Failure, fail, type Outcome } from '../errors.js';
import {
  adminOrderOf,
  grantLinesOf,
  itemsOf,
  loadOrder,
  markRefundRequested,
  revokeGrants,
  toOrder,
  transitionOrder,
} from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';

/**
 * An administrator's refund. An order paid through a provider that takes money back itself (the
 * card route) is refunded there: the provider is asked (once, whatever the retries: it keys the
 * request by the order), the order notes the request, and the provider's confirmation turns it
 * `refunded` through the event flow, which takes the grants back. Any other order goes paid ->
 * refunded at once: the credits it cost come back and what it granted is taken back, in the
 * transaction that changes the status; 912 when the order is not paid, or (with `reason:
 * credits_spent`) when the buyer no longer has the credits it granted.
 */
export async function refundOrder(
  deps: FlowDeps,
  iden: string,
  reason: string | undefined,
): Promise<Outcome<{ order: AdminOrder }>> {
  const found = await loadOrder(deps.db, iden);
  if (!found) return fail.notFound('iden');
  const provider = deps.payments.providers.get(found.row.provider);
  if (provider?.refund) {
    if (found.row.status !== 'paid') return fail.conflict(found.row.status);
    if (found.row.refund_requested_at == null) {
      const asked = await provider.refund(found.order);
      if (asked instanceof Failure) return asked;
      await runInTransaction(deps.db, (trx) => markRefundRequested(trx, iden, deps.now()));
      deps.log.info({ iden, provider: provider.name }, 'refund asked of the provider');
    }
    return { order: await adminOrderOf(deps.db, found.order) };
  }
  const now = deps.now();
  return runInTransaction(deps.db, async (trx) => {
    const note = reason ? `refund: ${reason}` : 'refund';
    const row = await transitionOrder(trx, iden, 'refunded', now, note, ['paid']);
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
