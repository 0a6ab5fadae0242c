import { Code } from '@till/protocol';
import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInTransaction } from '../../db/transaction.js';
import { Failure } from '../../errors.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, ok, saveCoupon, storeDepsOf } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import { consumeCouponUse } from './coupon-uses.js';
import { Coupons } from './coupons.js';

// Coupons without a usage limit are kept between commits that change more than their counts, on
// SQLite only; checkouts price outside their transaction with them.
describe.each(dialects)('coupon lookups kept between commits on %s', (dialect) => {
  let t: TestApp;
  let coupons: Coupons;
  let buyer: { token: string; userId: string };

  beforeEach(async () => {
    t = await startTestApp({ dialect });
    coupons = new Coupons(storeDepsOf(t, dialect));
    buyer = await registerUser(t);
    await saveCoupon(t, { code: 'KEPT-TEN', kind: 'discount', percentOff: 10 });
  });
  afterEach(() => t.close());
  const checkout = () =>
    t.call('/api/store/doCheckout', { token: buyer.token, products: 'credits-100', couponCode: 'KEPT-TEN' });
  /** A write outside any transaction, as an operator's change makes one. */
  const write = (sql: string) => t.ctx.db.kysely.executeQuery(CompiledQuery.raw(sql));

  it('answers the same row while only uses were counted (SQLite), a fresh one otherwise', async () => {
    const first = await coupons.find('kept-ten');
    expect(first?.code).toBe('KEPT-TEN');
    const again = await coupons.find('KEPT-TEN');
    if (dialect === 'sqlite') {
      expect(again).toBe(first);
      expect(Object.isFrozen(again)).toBe(true);
    } else {
      expect(again).not.toBe(first);
    }
    // A checkout counts a use: the coupon's counts change, what its checks read does not.
    expect((await checkout()).code).toBe(900);
    const used = await t.ctx.db.kysely
      .selectFrom('coupons')
      .select('used')
      .where('code', '=', 'KEPT-TEN')
      .executeTakeFirstOrThrow();
    expect(used.used).toBe(1);
    expect((await coupons.find('KEPT-TEN')) === first).toBe(dialect === 'sqlite');
  });

  it('reads a coupon with a usage limit every time', async () => {
    await saveCoupon(t, { code: 'LIMITED-TEN', kind: 'discount', percentOff: 10, usageLimit: 5 });
    const first = await coupons.find('LIMITED-TEN');
    expect(first?.usage_limit).toBe(5);
    expect(await coupons.find('LIMITED-TEN')).not.toBe(first);
  });

  it('refuses a coupon an administrator switched off on the very next checkout, and takes its new terms', async () => {
    expect((await checkout()).code).toBe(900);
    const admin = await anAdmin(t);
    await ok(t, '/api/admin/coupons/setActive', { token: admin.token, code: 'KEPT-TEN', active: false });
    expect(await checkout()).toEqual({ code: Code.CouponRefused, reason: 'inactive' });
    await ok(t, '/api/admin/coupons/setActive', { token: admin.token, code: 'KEPT-TEN', active: true });
    await saveCoupon(t, { code: 'KEPT-TEN', kind: 'discount', percentOff: 50 });
    const data = await ok<{ order: { discount: { amount: number } } }>(t, '/api/store/doCheckout', {
      token: buyer.token,
      products: 'monthly',
      couponCode: 'KEPT-TEN',
    });
    expect(data.order.discount.amount).toBe(150);
  });

  it('refuses a coupon ended by a write outside any transaction on the very next checkout', async () => {
    expect((await checkout()).code).toBe(900);
    await write(`update coupons set ends_at = 1 where code = 'KEPT-TEN'`);
    expect(await checkout()).toEqual({ code: Code.CouponRefused, reason: 'expired' });
  });

  it('takes no use for a buyer when the per-buyer limit is below one', async () => {
    await write(`update coupons set per_user_limit = 0 where code = 'KEPT-TEN'`);
    const outcome = await runInTransaction(t.ctx.db.kysely, (trx) =>
      consumeCouponUse(trx, { code: 'KEPT-TEN', per_user_limit: 0 }, buyer.userId, Date.now()),
    );
    expect(outcome).toBeInstanceOf(Failure);
    expect((outcome as Failure).body).toEqual({ code: Code.CouponRefused, reason: 'already_redeemed' });
    const uses = await t.ctx.db.kysely
      .selectFrom('coupon_uses')
      .selectAll()
      .where('coupon_code', '=', 'KEPT-TEN')
      .execute();
    expect(uses).toEqual([]);
  });
});
