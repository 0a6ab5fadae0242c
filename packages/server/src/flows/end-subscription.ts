import type { Order } from '@till/protocol';
import { runInTransaction } from '../db/transaction.js';
import { Failure, fail, type Outcome } from '../errors.js';
import { loadOrder, notePeriodEnd } from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';

/**
 * The buyer's wish that the subscription a paid order started end at its period's end, not
 * renewed. Only where the route ends it on request (`subscription.manage` is `cancel`: the card
 * route); a store's subscription is stopped in the store's settings, and one that does not renew
 * has nothing to stop (912 `not_renewing`). The provider is asked first, outside any transaction
 * (keyed by the order, so asking twice asks once); then the order notes it, and answers as its
 * buyer sees it: running until the period's end, not renewing.
 */
export async function endSubscription(
  deps: FlowDeps,
  userId: string,
  iden: string,
): Promise<Outcome<{ order: Order }>> {
  const found = await loadOrder(deps.db, iden);
  if (!found || found.row.user_id !== userId) return fail.notFound('iden');
  const orders = deps.store.parts.orders;
  const [seen] = await orders.asSeen([found.order]);
  if (!seen) return fail.notFound('iden');
  if (seen.subscription?.manage !== 'cancel') {
    // Asked before, perhaps by a request that noted it between the two reads above: done already.
    const now = await loadOrder(deps.db, iden);
    if (seen.subscription && !seen.subscription.renews && now?.row.period_end_requested_at != null)
      return { order: seen };
    return fail.conflict(found.row.status, 'not_renewing');
  }
  const provider = deps.payments.providers.get(found.row.provider);
  if (!provider?.endAtPeriodEnd) return fail.conflict(found.row.status, 'not_renewing');
  const asked = await provider.endAtPeriodEnd(found.order);
  if (asked instanceof Failure) return asked;
  const noted = await runInTransaction(deps.db, (trx) => notePeriodEnd(trx, iden, deps.now()));
  if (noted instanceof Failure) return noted;
  deps.log.info({ iden, provider: provider.name }, 'subscription set to end at its period end');
  const [after] = await orders.asSeen([found.order]);
  return { order: after ?? seen };
}
