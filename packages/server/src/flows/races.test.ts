import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultProvider } from '../modules/payments/providers/sandbox/provider.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { expectLedgerMatchesBalances, giveCredits, ok, post, saveCoupon, saveProduct } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

/** Counts answers by code. */
function codes(answers: { code: number }[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.code] = (out[a.code] ?? 0) + 1;
  return out;
}

// Every request below goes over its own HTTP connection to a listening server; on PostgreSQL the
// pool hands them separate database connections, so the races are real ones.
describe.each(dialects)('store races on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect, listen: true, poolSize: 20 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a coupon usable once, redeemed by 50 buyers at once, succeeds exactly once', async () => {
    const buyers = await Promise.all(Array.from({ length: 50 }, () => registerUser(t)));
    const answers = await Promise.all(
      buyers.map((b) => post(t, '/api/store/redeemCoupon', { token: b.token, couponCode: 'ONCE' })),
    );
    expect(codes(answers)).toEqual({ 900: 1, 908: 49 });
    expect(answers.filter((a) => a.code === 908).every((a) => (a as { reason?: string }).reason === 'used_up')).toBe(
      true,
    );
    const coupon = await t.ctx.db.kysely
      .selectFrom('coupons')
      .select('used')
      .where('code', '=', 'ONCE')
      .executeTakeFirstOrThrow();
    expect(coupon.used).toBe(1);
    const granted = await t.ctx.db.kysely
      .selectFrom('credit_ledger')
      .select('user_id')
      .where('reason', '=', 'coupon')
      .where('reference', '=', 'ONCE')
      .execute();
    expect(granted).toHaveLength(1);
  });

  it('one buyer sending 20 redemptions of a once-per-buyer coupon at once gets it once', async () => {
    const b = await registerUser(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(t, '/api/store/redeemCoupon', { token: b.token, couponCode: 'FREE100' })),
    );
    expect(codes(answers)).toEqual({ 900: 1, 908: 19 });
    const user = await t.call('/api/auth/getUserInfo', { token: b.token });
    expect((user.user as { credits: number }).credits).toBe(100);
  });

  it('a buyer with credits for 10 purchases sending 50 payWithCredits at once gets exactly 10 and a zero balance', async () => {
    const id = await saveProduct(t, { alias: 'race-gem', title: 'Gem', type: 0, creditPrice: 7, grants: {} });
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 70);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        post(t, '/api/auth/payWithCredits', { token: b.token, products: JSON.stringify([id]), dataObj: '{}' }),
      ),
    );
    expect(codes(answers)).toEqual({ 900: 10, 909: 40 });
    for (const a of answers.filter((x) => x.code === 909)) expect(a).toMatchObject({ required: 7 });
    const history = await ok<{ balance: number; entries: { amount: number }[] }>(t, '/api/store/credits', {
      token: b.token,
      pageSize: 100,
    });
    expect(history.balance).toBe(0);
    expect(history.entries.filter((e) => e.amount === -7)).toHaveLength(10);
    const paid = await ok<{ total: number }>(t, '/api/store/orders', { token: b.token, status: 'paid' });
    expect(paid.total).toBe(10);
  });

  it('a discount coupon usable once, used by 20 buyers checking out at once, discounts one order', async () => {
    await saveCoupon(t, { code: 'RACE-HALF', kind: 'discount', percentOff: 50, usageLimit: 1 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => registerUser(t)));
    const answers = await Promise.all(
      buyers.map((b) =>
        post(t, '/api/store/doCheckout', { token: b.token, products: 'monthly', couponCode: 'RACE-HALF' }),
      ),
    );
    expect(codes(answers)).toEqual({ 900: 1, 908: 19 });
    const winner = answers.find((a) => a.code === 900)?.data as { order: { discount: { amount: number } } };
    expect(winner.order.discount.amount).toBe(150);
  });

  it('the same provider notification applied 10 times at once pays and grants once', async () => {
    const b = await registerUser(t);
    const checkout = await ok<{ order: { iden: string; total: { amount: number; currency: string } } }>(
      t,
      '/api/store/doCheckout',
      { token: b.token, products: 'credits-100' },
    );
    const note = new DefaultProvider(t.ctx.config).signNotification({
      eventId: 'evt-race-1',
      orderId: checkout.order.iden,
      outcome: 'paid',
      amount: checkout.order.total.amount,
      currency: checkout.order.total.currency,
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(t, '/api/payments/notify/default', note)));
    expect(codes(answers)).toEqual({ 900: 10 });
    expect(answers.filter((a) => (a.data as { applied: boolean }).applied)).toHaveLength(1);
    expect(answers.every((a) => (a.data as { status: string }).status === 'paid')).toBe(true);
    const status = await ok<{ status: string }>(t, '/api/store/orderStatus', {
      token: b.token,
      iden: checkout.order.iden,
    });
    expect(status.status).toBe('paid');
    const history = await ok<{ balance: number; entries: unknown[] }>(t, '/api/store/credits', { token: b.token });
    expect(history.balance).toBe(100);
    expect(history.entries).toHaveLength(1);
  });

  it('a buyer sending 10 purchases of one non-consumable at once owns it once and pays once', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 5_000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(t, '/api/auth/payWithCredits', { token: b.token, products: '["pro-unlock"]' }),
      ),
    );
    expect(codes(answers)).toEqual({ 900: 1, 907: 9 });
    for (const a of answers.filter((x) => x.code === 907))
      expect(a).toMatchObject({ parameter: 'products', reason: 'owned' });
    const history = await ok<{ balance: number }>(t, '/api/store/credits', { token: b.token });
    expect(history.balance).toBe(4_500);
  });

  it('after all of it, the ledger sums to every balance', async () => {
    await expectLedgerMatchesBalances(t);
  });
});
