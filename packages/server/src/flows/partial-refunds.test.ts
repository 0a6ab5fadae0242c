import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultProvider } from '../modules/payments/providers/sandbox/provider.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, expectLedgerMatchesBalances, giveCredits, ok, spendCredits } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

/**
 * Partial and money-only refunds: money goes back, the order stays paid and keeps what it granted,
 * no credit moves; the whole-order refund still takes everything back. The ledger matches the
 * balances after each, and refunds racing never give back more than was paid.
 */
describe.each(dialects)('partial and money-only refunds on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    t = await startTestApp({ dialect, poolSize: 8 });
    admin = await anAdmin(t);
  });
  afterAll(() => t.close());

  /** An order paid through the sandbox provider, as its checkout page pays it. */
  async function paidOrder(token: string, products: string): Promise<{ iden: string; total: number }> {
    const data = await ok<{ order: { iden: string; total: { amount: number; currency: string } } }>(
      t,
      '/api/store/doCheckout',
      { token, products },
    );
    const note = new DefaultProvider(t.ctx.config).signNotification({
      eventId: `evt-${data.order.iden}`,
      orderId: data.order.iden,
      outcome: 'paid',
      amount: data.order.total.amount,
      currency: data.order.total.currency,
    });
    await ok(t, '/api/payments/notify/default', note);
    return { iden: data.order.iden, total: data.order.total.amount };
  }
  const refund = (iden: string, extra: Record<string, unknown> = {}) =>
    t.call('/api/admin/orders/refund', { token: admin.token, iden, ...extra });
  const balance = async (token: string) =>
    (await ok<{ balance: number }>(t, '/api/store/credits', { token, page: 1, pageSize: 5 })).balance;
  const owns = async (token: string, productId: string) =>
    (await ok<{ entitlements: { productId: string }[] }>(t, '/api/store/entitlements', { token })).entitlements.some(
      (e) => e.productId === productId,
    );
  const refundRows = (iden: string) =>
    t.ctx.db.kysely
      .selectFrom('order_refunds')
      .selectAll()
      .where('order_id', '=', iden)
      .orderBy('created_at')
      .execute();

  it('gives part of the money back: the order stays paid, its credits and ownership stay, the ledger is untouched', async () => {
    const b = await registerUser(t);
    const credits = await paidOrder(b.token, 'credits-100');
    const pro = await paidOrder(b.token, 'pro-unlock');
    const ledgerBefore = await t.ctx.db.kysely
      .selectFrom('credit_ledger')
      .select('id')
      .where('user_id', '=', b.userId)
      .execute();
    const part = await refund(credits.iden, { amount: 50, keepGrants: true, reason: 'late delivery' });
    expect(part).toMatchObject({ code: 900, data: { order: { status: 'paid', payment: { refundedAmount: 50 } } } });
    expect(await refund(pro.iden, { amount: 100, keepGrants: true })).toMatchObject({
      data: { order: { status: 'paid', payment: { refundedAmount: 100 } } },
    });
    expect(await balance(b.token)).toBe(100);
    expect(await owns(b.token, 'pro-unlock')).toBe(true);
    const ledgerAfter = await t.ctx.db.kysely
      .selectFrom('credit_ledger')
      .select('id')
      .where('user_id', '=', b.userId)
      .execute();
    expect(ledgerAfter).toEqual(ledgerBefore);
    const [row] = await refundRows(credits.iden);
    expect(row).toMatchObject({ amount: 50, currency: 'USD', keeps_grants: 1, reason: 'late delivery' });
    await expectLedgerMatchesBalances(t);
  });

  it('adds partial refunds up to the total and no further; money only of the rest keeps the grants', async () => {
    const b = await registerUser(t);
    const o = await paidOrder(b.token, 'credits-100');
    expect(await refund(o.iden, { amount: 150, keepGrants: true })).toMatchObject({ code: 900 });
    expect(await refund(o.iden, { amount: 50, keepGrants: true })).toEqual({
      code: 907,
      parameter: 'amount',
      reason: 'too_long',
    });
    // Without an amount, money only gives back all that is left.
    expect(await refund(o.iden, { keepGrants: true })).toMatchObject({
      code: 900,
      data: { order: { status: 'paid', payment: { refundedAmount: o.total } } },
    });
    expect(await refund(o.iden, { amount: 1, keepGrants: true })).toEqual({
      code: 907,
      parameter: 'amount',
      reason: 'too_long',
    });
    expect(await balance(b.token)).toBe(100);
    expect((await refundRows(o.iden)).map((r) => r.amount)).toEqual([150, 49]);
    await expectLedgerMatchesBalances(t);
  });

  it('refuses a partial refund that would take the grants back: a part of the money is money only', async () => {
    const b = await registerUser(t);
    const o = await paidOrder(b.token, 'credits-100');
    expect(await refund(o.iden, { amount: 50 })).toEqual({ code: 907, parameter: 'keepGrants', reason: 'required' });
    expect(await refund(o.iden, { amount: 0, keepGrants: true })).toMatchObject({ code: 907, parameter: 'amount' });
    expect(await refund(o.iden, { amount: 1.5, keepGrants: true })).toMatchObject({ code: 907, parameter: 'amount' });
    expect((await refundRows(o.iden)).length).toBe(0);
  });

  it('refunds the rest of a partly refunded order whole: status refunded, credits taken back, sums right', async () => {
    const b = await registerUser(t);
    const o = await paidOrder(b.token, 'credits-100');
    await refund(o.iden, { amount: 99, keepGrants: true });
    const whole = await refund(o.iden, { reason: 'asked by the buyer' });
    expect(whole).toMatchObject({
      code: 900,
      data: { order: { status: 'refunded', payment: { refundedAmount: o.total } } },
    });
    expect(await balance(b.token)).toBe(0);
    expect((await refundRows(o.iden)).map((r) => [r.amount, r.keeps_grants])).toEqual([
      [99, 1],
      [100, 0],
    ]);
    // Refunded is final: no more money goes back.
    expect(await refund(o.iden, { amount: 1, keepGrants: true })).toEqual({ code: 912, status: 'refunded' });
    await expectLedgerMatchesBalances(t);
  });

  it('refuses a whole refund whose credits are spent (912), while the money alone can still go back', async () => {
    const b = await registerUser(t);
    const o = await paidOrder(b.token, 'credits-100');
    await spendCredits(t, b.token, 60);
    expect(await refund(o.iden)).toEqual({ code: 912, status: 'paid', reason: 'credits_spent' });
    expect(await balance(b.token)).toBe(40);
    expect(await refund(o.iden, { keepGrants: true })).toMatchObject({
      code: 900,
      data: { order: { status: 'paid', payment: { refundedAmount: o.total } } },
    });
    expect(await balance(b.token)).toBe(40);
    await expectLedgerMatchesBalances(t);
  });

  it('has no money to give back on an order paid with credits: money only is refused, the whole refund works', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 500);
    const bought = await ok<{ order: { iden: string } }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['pro-unlock']),
    });
    expect(await refund(bought.order.iden, { amount: 1, keepGrants: true })).toEqual({
      code: 907,
      parameter: 'amount',
      reason: 'too_long',
    });
    expect(await refund(bought.order.iden, { keepGrants: true })).toEqual({
      code: 907,
      parameter: 'amount',
      reason: 'too_long',
    });
    expect(await refund(bought.order.iden)).toMatchObject({ code: 900, data: { order: { status: 'refunded' } } });
    expect(await balance(b.token)).toBe(500);
    expect(await owns(b.token, 'pro-unlock')).toBe(false);
    await expectLedgerMatchesBalances(t);
  });

  it('gives back no more than was paid when partial refunds race', async () => {
    const b = await registerUser(t);
    const o = await paidOrder(b.token, 'credits-100');
    // Five refunds of 40 % each at once over separate connections: exactly two fit in the total.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => refund(o.iden, { amount: 80, keepGrants: true })),
    );
    const codes = answers.map((a) => a.code).sort();
    expect(codes).toEqual([900, 900, 907, 907, 907]);
    const row = await t.ctx.db.kysely
      .selectFrom('orders')
      .select(['refunded_amount', 'status'])
      .where('id', '=', o.iden)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ refunded_amount: 160, status: 'paid' });
    expect((await refundRows(o.iden)).length).toBe(2);
    await expectLedgerMatchesBalances(t);
  });
});
