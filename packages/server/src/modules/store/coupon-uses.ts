import { type Kysely, sql, type Transaction } from 'kysely';
import { prepared, type Param } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { AbortTransaction, fail } from '../../errors.js';

type UseKey = { code: string; userId: string; now: number; limit: number };
/**
 * The buyer's use: their first makes their row, a later one raises it; with `limited`, only while the
 * row is under `limit` (a row at the limit changes nothing).
 */
const useOf = (limited: boolean) => (db: Kysely<Database>, p: Param<UseKey>) =>
  db
    .insertInto('coupon_uses')
    .values({ coupon_code: p('code'), user_id: p('userId'), uses: 1, updated_at: p('now') })
    .onConflict((oc) => {
      const raise = oc
        .columns(['coupon_code', 'user_id'])
        .doUpdateSet({ uses: sql<number>`coupon_uses.uses + 1`, updated_at: p('now') });
      return limited ? raise.where('coupon_uses.uses', '<', p('limit')) : raise;
    });
const countUse = prepared<UseKey, never>(useOf(false));
const countUseWithin = prepared<UseKey, never>(useOf(true));
const countCouponUse = prepared<UseKey, never>((db, p) =>
  db
    .updateTable('coupons')
    .set({ used: sql<number>`used + 1`, updated_at: p('now') })
    .where('code', '=', p('code'))
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('used', '<', eb.ref('usage_limit'))])),
);

/**
 * Takes one use of a coupon for a buyer, or throws 908 (`already_redeemed`, `used_up`).
 *
 * Both limits are guarded by conditional writes, not by counting first: the per-buyer use is one
 * upsert, whose row's primary key settles two first uses racing and whose update raises a row only
 * while `uses < limit`; the coupon's own counter is raised only while `used < usage_limit`. On
 * PostgreSQL the racers queue on the row lock and re-check the condition after each commit, so a
 * coupon usable once, redeemed by fifty buyers at once, is used exactly once. The CHECK on `coupons`
 * backs this up.
 */
export async function consumeCouponUse(
  trx: Transaction<Database>,
  coupon: { code: string; per_user_limit: number | null },
  userId: string,
  now: number,
): Promise<void> {
  const limit = coupon.per_user_limit;
  // A first use inserts one use whatever the limit: a limit below one allows none.
  if (limit != null && limit < 1) throw new AbortTransaction(fail.couponRefused('already_redeemed'));
  const key = { code: coupon.code, userId, now, limit: limit ?? 0 };
  const own = limit != null ? await countUseWithin(trx, key) : await countUse(trx, key);
  if (Number(own.numAffectedRows) === 0) throw new AbortTransaction(fail.couponRefused('already_redeemed'));
  const all = await countCouponUse(trx, key);
  if (Number(all.numAffectedRows) === 0) throw new AbortTransaction(fail.couponRefused('used_up'));
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
