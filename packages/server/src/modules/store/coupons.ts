import type { Coupon } from '@till/protocol';
import { runInTransaction } from '../../db/transaction.js';
import { AbortTransaction, Failure, fail, type Outcome } from '../../errors.js';
import { consumeCouponUse } from './coupon-uses.js';
import { balanceOf, moveCredits } from './credits.js';
import { CommitMemo } from '../../db/commit-memo.js';
import { iso, readJson, type Executor } from '../../db/rows.js';
import { prepared } from '../../db/prepared.js';
import type { StoreDeps } from './deps.js';
import { applyGrants } from './grants.js';
import type { CouponRow } from './pricing.js';

/** Codes are kept upper-case and compared without regard to case. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** The coupon as the protocol shows it to a buyer (limits and counts stay with administrators). */
export function toCoupon(row: CouponRow): Coupon {
  const money = (amount: number | null, currency: string | null) =>
    amount != null && currency ? { amount, currency } : null;
  return {
    code: row.code,
    kind: row.kind,
    percentOff: row.percent_off,
    amountOff: money(row.amount_off, row.amount_currency),
    grantCredits: row.grant_credits,
    grantProducts: readJson<string[] | null>(row.grant_products, null),
    startsAt: row.starts_at != null ? iso(row.starts_at) : null,
    endsAt: row.ends_at != null ? iso(row.ends_at) : null,
    appliesTo: readJson<string[] | null>(row.applies_to, null) ?? 'all',
    minTotal: money(row.min_total, row.min_total_currency),
  };
}

const couponByCode = prepared<{ code: string }, CouponRow>((db, p) =>
  db.selectFrom('coupons').selectAll().where('code', '=', p('code')),
);

const usesOf = prepared<{ code: string; userId: string }, { uses: number }>((db, p) =>
  db.selectFrom('coupon_uses').select('uses').where('coupon_code', '=', p('code')).where('user_id', '=', p('userId')),
);

export async function findCoupon(x: Executor, code: string): Promise<CouponRow | undefined> {
  return (await couponByCode(x, { code: normalizeCode(code) })).rows[0];
}

/** Where a coupon check reads the coupon: {@link findCoupon} on an executor, or {@link Coupons.find}. */
export type CouponFinder = (code: string) => Promise<CouponRow | undefined>;

/**
 * The tables a kept coupon depends on. A use changes only `used` and `updated_at`, which count apart
 * ({@link COUNTED_USE}), so checkouts do not empty the memo; an administrator's edit does.
 */
const COUPON_TABLES = ['coupons'] as const;
/** The columns a use of a coupon updates, registered with the database to count apart (`Db.countApart`). */
const COUNTED_USE = ['used', 'updated_at'] as const;
/** Coupons kept at most (emptied when full). */
const COUPON_MEMO_SIZE = 1_000;

/**
 * Whether a buyer may use the coupon now: 908 `unknown` (also for a switched-off coupon, which
 * should not be told apart from a wrong code), `not_started`, `expired`, `used_up`,
 * `already_redeemed`, and `grant_coupon` or `discount_coupon` when it is of the other kind than the
 * call uses (a grant coupon at checkout, a discount to redeem). The counts
 * read here only give the buyer an early answer; the guarded {@link consumeCouponUse} decides when
 * uses race.
 */
export async function checkCoupon(
  x: Executor,
  code: string,
  userId: string,
  now: number,
  kind?: CouponRow['kind'],
  find: CouponFinder = (c) => findCoupon(x, c),
): Promise<Outcome<CouponRow>> {
  const row = await find(code);
  if (!row) return fail.couponRefused('unknown');
  // Switched off by an administrator: said as such, so the buyer knows the code was right.
  if (!row.active) return fail.couponRefused('inactive');
  // The other kind: said as such, so that the buyer can be sent where it works.
  if (kind && row.kind !== kind) return fail.couponRefused(row.kind === 'grant' ? 'grant_coupon' : 'discount_coupon');
  if (row.starts_at != null && now < row.starts_at) return fail.couponRefused('not_started');
  if (row.ends_at != null && now >= row.ends_at) return fail.couponRefused('expired');
  if (row.usage_limit != null && row.used >= row.usage_limit) return fail.couponRefused('used_up');
  if (row.per_user_limit != null) {
    const mine = (await usesOf(x, { code: row.code, userId })).rows[0];
    if ((mine?.uses ?? 0) >= row.per_user_limit) return fail.couponRefused('already_redeemed');
  }
  return row;
}

/** getCoupon and redeemCoupon, and the coupon lookups a checkout prices its cart with. */
export class Coupons {
  /** Coupons without a usage limit, by code, until a commit changes more of coupons than their counts (SQLite only). */
  private readonly memo: CommitMemo<Readonly<CouponRow>>;

  constructor(private readonly deps: StoreDeps) {
    this.memo = new CommitMemo(deps.version, COUPON_TABLES, COUPON_MEMO_SIZE);
    deps.countApart?.('coupons', COUNTED_USE);
  }

  /**
   * A coupon by code, outside any transaction. Where the database counts commits per table (SQLite), a
   * coupon without a usage limit is kept until a commit changes it other than by counting a use: every
   * checkout with a code looks it up, and only an administrator's edit changes what the checks read. Its
   * `used` may then be behind, which no check of an unlimited coupon reads. A coupon with a usage limit is
   * read every time, so that the early `used_up` answer stays as exact as before.
   */
  readonly find: CouponFinder = (code) => {
    const key = normalizeCode(code);
    return this.memo.read(
      key,
      () => findCoupon(this.deps.db, key),
      (row) => row.usage_limit == null,
    );
  };

  /** {@link checkCoupon} outside any transaction, on the kept coupons ({@link find}). */
  check(code: string, userId: string, now: number, kind?: CouponRow['kind']): Promise<Outcome<CouponRow>> {
    return checkCoupon(this.deps.db, code, userId, now, kind, this.find);
  }

  async getCoupon(userId: string, code: string): Promise<Outcome<{ coupon: Coupon }>> {
    const row = await this.check(code, userId, this.deps.now());
    return row instanceof Failure ? row : { coupon: toCoupon(row) };
  }

  /**
   * Redeems a grant coupon: the use, the credits and the products in one transaction, so that a
   * refused use grants nothing and a granted use is counted.
   */
  async redeem(
    userId: string,
    code: string,
  ): Promise<Outcome<{ granted: { credits: number; products: string[] }; balance: number }>> {
    const now = this.deps.now();
    return runInTransaction(this.deps.db, async (trx) => {
      const row = await checkCoupon(trx, code, userId, now, 'grant');
      if (row instanceof Failure) throw new AbortTransaction(row);
      await consumeCouponUse(trx, row, userId, now);
      let credits = 0;
      if (row.grant_credits) {
        await moveCredits(trx, { userId, amount: row.grant_credits, reason: 'coupon', reference: row.code, now });
        credits += row.grant_credits;
      }
      const ids = readJson<string[]>(row.grant_products, []);
      const products = ids.length ? await trx.selectFrom('products').selectAll().where('id', 'in', ids).execute() : [];
      const granted = await applyGrants(
        trx,
        products.map((p) => ({
          productId: p.id,
          type: p.type,
          quantity: 1,
          grantCredits: p.grant_credits,
          grantPeriod: p.grant_period,
        })),
        { userId, orderId: null, source: `coupon:${row.code}`, creditReason: 'coupon', reference: row.code, now },
      );
      const balance = await balanceOf(trx, userId);
      if (balance === undefined) throw new AbortTransaction(fail.notFound('userId'));
      return { granted: { credits: credits + granted.credits, products: granted.products }, balance };
    });
  }
}
