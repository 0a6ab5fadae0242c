import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AbortTransaction, fail } from '../../errors.js';

/**
 * Takes one use of a coupon for a buyer, or throws 908 (`already_redeemed`, `used_up`).
 *
 * Both limits are guarded by conditional updates, not by counting first: the per-buyer row is made
 * once (its primary key settles two first uses racing) and then raised only while `uses < limit`;
 * the coupon's own counter is raised only while `used < usage_limit`. On PostgreSQL the racers queue
 * on the row lock and re-check the condition after each commit, so a coupon usable once, redeemed
 * by fifty buyers at once, is used exactly once. The CHECK on `coupons` backs this up.
 */
export async function consumeCouponUse(
  trx: Transaction<Database>,
  coupon: { code: string; per_user_limit: number | null },
  userId: string,
  now: number,
): Promise<void> {
  await trx
    .insertInto('coupon_uses')
    .values({ coupon_code: coupon.code, user_id: userId, uses: 0, updated_at: now })
    .onConflict((oc) => oc.columns(['coupon_code', 'user_id']).doNothing())
    .execute();
  let mine = trx
    .updateTable('coupon_uses')
    .set({ uses: sql<number>`uses + 1`, updated_at: now })
    .where('coupon_code', '=', coupon.code)
    .where('user_id', '=', userId);
  if (coupon.per_user_limit != null) mine = mine.where('uses', '<', coupon.per_user_limit);
  const own = await mine.executeTakeFirst();
  if (Number(own.numUpdatedRows) === 0) throw new AbortTransaction(fail.couponRefused('already_redeemed'));

  const all = await trx
    .updateTable('coupons')
    .set({ used: sql<number>`used + 1`, updated_at: now })
    .where('code', '=', coupon.code)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('used', '<', eb.ref('usage_limit'))]))
    .executeTakeFirst();
  if (Number(all.numUpdatedRows) === 0) throw new AbortTransaction(fail.couponRefused('used_up'));
}

/** Gives back the use an order held when it fails or is cancelled (never below zero). */
export async function releaseCouponUse(
  trx: Transaction<Database>,
  code: string,
  userId: string,
  now: number,
): Promise<void> {
  await trx
    .updateTable('coupon_uses')
    .set({ uses: sql<number>`uses - 1`, updated_at: now })
    .where('coupon_code', '=', code)
    .where('user_id', '=', userId)
    .where('uses', '>', 0)
    .execute();
  await trx
    .updateTable('coupons')
    .set({ used: sql<number>`used - 1`, updated_at: now })
    .where('code', '=', code)
    .where('used', '>', 0)
    .execute();
}
