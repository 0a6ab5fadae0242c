import type { Executor } from '../../db/rows.js';

/**
 * What the store forgets of a deleted account, in `trx`: the free-form data a buyer sent with
 * credit purchases (`dataObj`). The orders themselves, their items, the ledger entries and the
 * entitlements stay, pointing at the account's anonymised row, so that the books still balance.
 * Answers how many orders were changed.
 */
export async function forgetBuyerData(trx: Executor, userId: string): Promise<number> {
  const res = await trx
    .updateTable('orders')
    .set({ data: null })
    .where('user_id', '=', userId)
    .where('provider', '=', 'credits')
    .where('data', 'is not', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
