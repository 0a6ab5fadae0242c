import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultProvider } from '../modules/payments/providers/sandbox/provider.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, expectLedgerMatchesBalances, giveCredits, ok } from '@till/test-support/store';
import { confirmedUser, registerUser, uniqueEmail } from '@till/test-support/users';

const ADMIN_CALLS: [string, Record<string, unknown>][] = [
  ['/api/admin/products/list', {}],
  ['/api/admin/products/save', { product: { alias: 'x', title: 'X', type: 0 } }],
  ['/api/admin/coupons/list', {}],
  ['/api/admin/coupons/save', { coupon: { code: 'XYZ', kind: 'grant', grantCredits: 1 } }],
  ['/api/admin/coupons/bulk', { count: 1, coupon: { kind: 'grant', grantCredits: 1 } }],
  ['/api/admin/users/list', {}],
  ['/api/admin/credits/adjust', { userId: 'x', amount: 5, reason: 'r' }],
  ['/api/admin/credits/history', { userId: 'x' }],
  ['/api/admin/orders/list', {}],
  ['/api/admin/orders/refund', { iden: 'x' }],
];

describe.each(dialects)('store administration on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    admin = await anAdmin(t);
  });
  afterAll(() => t.close());

  /** Pays an order through the default provider's notification, as the checkout page does. */
  async function payByProvider(token: string, products: string): Promise<string> {
    const data = await ok<{ order: { iden: string; total: { amount: number; currency: string } } }>(
      t,
      '/api/store/doCheckout',
      {
        token,
        products,
      },
    );
    const note = new DefaultProvider(t.ctx.config).signNotification({
      eventId: `evt-${data.order.iden}`,
      orderId: data.order.iden,
      outcome: 'paid',
      amount: data.order.total.amount,
      currency: data.order.total.currency,
    });
    await ok(t, '/api/payments/notify/default', note);
    return data.order.iden;
  }

  it.each(ADMIN_CALLS)('%s answers 903 below level 9', async (path, body) => {
    const buyer = await confirmedUser(t);
    expect(await t.call(path, { token: buyer.token, ...body })).toEqual({ code: 903, required: 9 });
    expect(await t.call(path, body)).toEqual({ code: 901 });
  });

  it('saves products: creates, updates, switches off; aliases and store ids stay unique', async () => {
    const made = await ok<{ product: { id: string; active: boolean } }>(t, '/api/admin/products/save', {
      token: admin.token,
      product: {
        alias: 'yearly',
        title: 'Yearly',
        type: 2,
        price: { amount: 2999, currency: 'USD' },
        grants: { period: 'P1Y' },
      },
    });
    expect(made.product).toMatchObject({ id: 'yearly', active: true });
    const off = await ok<{ product: { active: boolean; title: string } }>(t, '/api/admin/products/save', {
      token: admin.token,
      product: {
        id: 'yearly',
        alias: 'yearly',
        title: 'Yearly plan',
        type: 2,
        grants: { period: 'P1Y' },
        active: false,
      },
    });
    expect(off.product).toMatchObject({ active: false, title: 'Yearly plan' });
    const all = await ok<{ products: { id: string }[] }>(t, '/api/admin/products/list', { token: admin.token });
    expect(all.products.map((p) => p.id)).toContain('yearly');
    expect(
      await t.call('/api/admin/products/save', {
        token: admin.token,
        product: { alias: 'monthly', title: 'Dup', type: 0 },
      }),
    ).toEqual({ code: 907, parameter: 'product.alias', reason: 'taken' });
    expect(
      await t.call('/api/admin/products/save', {
        token: admin.token,
        product: { alias: 'other', title: 'Dup', type: 0, storeIds: { appstore: 'till.monthly' } },
      }),
    ).toEqual({ code: 907, parameter: 'product.storeIds', reason: 'taken' });
    expect(
      await t.call('/api/admin/products/save', {
        token: admin.token,
        product: { alias: 'sub', title: 'Sub', type: 2 },
      }),
    ).toEqual({ code: 907, parameter: 'product.grants.period', reason: 'invalid' });
  });

  it('refuses coupons that make no sense (907)', async () => {
    const bad = (coupon: Record<string, unknown>) => t.call('/api/admin/coupons/save', { token: admin.token, coupon });
    expect(
      (await bad({ code: 'BOTH', kind: 'discount', percentOff: 5, amountOff: { amount: 5, currency: 'USD' } })).code,
    ).toBe(907);
    expect(await bad({ code: 'EMPTY', kind: 'grant' })).toMatchObject({ code: 907, parameter: 'coupon.grantCredits' });
    expect(await bad({ code: 'GHOST', kind: 'grant', grantProducts: ['ghost'] })).toMatchObject({
      code: 907,
      parameter: 'coupon.grantProducts',
    });
    expect(
      await bad({
        code: 'BACKWARDS',
        kind: 'grant',
        grantCredits: 1,
        startsAt: '2030-01-02T00:00:00Z',
        endsAt: '2030-01-01T00:00:00Z',
      }),
    ).toMatchObject({ code: 907, parameter: 'coupon.endsAt' });
  });

  it('lists users with their balances and adjusts credits by ledger entries with a reason', async () => {
    const b = await registerUser(t, { name: 'Findable Person' });
    const adjusted = await ok<{ balance: number; entry: { amount: number; reason: string; reference: string } }>(
      t,
      '/api/admin/credits/adjust',
      { token: admin.token, userId: b.userId, amount: 40, reason: 'Goodwill' },
    );
    expect(adjusted.balance).toBe(40);
    expect(adjusted.entry).toMatchObject({ amount: 40, reason: 'adjustment' });
    expect(adjusted.entry.reference).toContain('Goodwill');
    expect(
      await t.call('/api/admin/credits/adjust', {
        token: admin.token,
        userId: b.userId,
        amount: -41,
        reason: 'Too much',
      }),
    ).toEqual({ code: 909, balance: 40, required: 41 });
    await ok(t, '/api/admin/credits/adjust', {
      token: admin.token,
      userId: b.userId,
      amount: -15,
      reason: 'Correction',
    });
    const history = await ok<{ balance: number; entries: { amount: number }[] }>(t, '/api/admin/credits/history', {
      token: admin.token,
      userId: b.userId,
    });
    expect(history.balance).toBe(25);
    expect(history.entries.map((e) => e.amount)).toEqual([-15, 40]);
    const users = await ok<{ users: { id: string; credits: number }[]; total: number }>(t, '/api/admin/users/list', {
      token: admin.token,
      query: 'findable',
    });
    expect(users.users).toEqual([expect.objectContaining({ id: b.userId, credits: 25 })]);
    expect(
      await t.call('/api/admin/credits/adjust', { token: admin.token, userId: 'nobody', amount: 5, reason: 'x' }),
    ).toEqual({ code: 904, parameter: 'userId' });
    expect(
      await t.call('/api/admin/credits/adjust', { token: admin.token, userId: b.userId, amount: 0, reason: 'x' }),
    ).toMatchObject({ code: 907, parameter: 'amount' });
  });

  it('lists orders by status, provider and buyer', async () => {
    const b = await registerUser(t);
    const paid = await payByProvider(b.token, 'credits-100');
    await ok(t, '/api/store/doCheckout', { token: b.token, products: 'monthly' });
    const mine = await ok<{ orders: { iden: string; email: string; status: string }[]; total: number }>(
      t,
      '/api/admin/orders/list',
      { token: admin.token, userId: b.userId },
    );
    expect(mine.total).toBe(2);
    expect(mine.orders.every((o) => o.email === b.email)).toBe(true);
    const paidOnly = await ok<{ orders: { iden: string }[] }>(t, '/api/admin/orders/list', {
      token: admin.token,
      userId: b.userId,
      status: 'paid',
      provider: 'default',
      from: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(paidOnly.orders.map((o) => o.iden)).toEqual([paid]);
    const none = await ok<{ total: number }>(t, '/api/admin/orders/list', {
      token: admin.token,
      userId: b.userId,
      to: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(none.total).toBe(0);
  });

  it("finds orders by the number buyers see and by part of the buyer's e-mail", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const b = await registerUser(t, { email: uniqueEmail(`ann_${tag}.`) });
    const other = await registerUser(t, { email: uniqueEmail(`annx${tag}.`) });
    const first = await payByProvider(b.token, 'credits-100');
    const second = await payByProvider(b.token, 'credits-100');
    const theirs = await payByProvider(other.token, 'credits-100');
    type Found = { orders: { iden: string; email: string }[]; total: number };
    const find = (query: string, more: Record<string, unknown> = {}) =>
      ok<Found>(t, '/api/admin/orders/list', { token: admin.token, query, ...more });

    // The number as the buyer reads it: the last six characters of the iden, upper case, with `#`.
    const number = `#${second.slice(-6).toUpperCase()}`;
    expect((await find(number)).orders.map((o) => o.iden)).toEqual([second]);
    expect((await find(second.slice(-6).toLowerCase())).orders.map((o) => o.iden)).toEqual([second]);
    expect((await find(`#${theirs.slice(-6)}`)).orders.map((o) => o.iden)).toEqual([theirs]);
    // Part of the e-mail, any case; `_` is an underscore, not "any character".
    const byMail = await find(`ANN_${tag}`);
    expect(byMail.total).toBe(2);
    expect(byMail.orders.map((o) => o.iden)).toEqual([second, first]);
    expect(byMail.orders.every((o) => o.email === b.email)).toBe(true);
    expect((await find(`ann${tag}`)).total).toBe(0);
    expect((await find(`annx${tag}`)).orders.map((o) => o.iden)).toEqual([theirs]);
    expect((await find('%')).total).toBe(0);
    // The search narrows the other filters, never widens them.
    expect((await find(`ann_${tag}`, { status: 'pending' })).total).toBe(0);
  });

  it('lists the refunds of an order with their reasons and who made them', async () => {
    const me = await t.call('/api/auth/getUserInfo', { token: admin.token });
    const adminEmail = (me.user as { email: string }).email;
    const b = await registerUser(t);
    const iden = await payByProvider(b.token, 'credits-100');
    type Listed = { orders: { iden: string; refundHistory: unknown[] }[] };
    const before = await ok<Listed>(t, '/api/admin/orders/list', { token: admin.token, userId: b.userId });
    expect(before.orders[0]?.refundHistory).toEqual([]);
    await ok(t, '/api/admin/orders/refund', {
      token: admin.token,
      iden,
      reason: 'charged twice',
      amount: 100,
      keepGrants: true,
    });
    const refunded = await ok<{ order: { refundHistory: unknown[] } }>(t, '/api/admin/orders/refund', {
      token: admin.token,
      iden,
      reason: 'asked for the rest',
    });
    const listed = await ok<Listed>(t, '/api/admin/orders/list', { token: admin.token, userId: b.userId });
    expect(listed.orders[0]?.refundHistory).toEqual(refunded.order.refundHistory);
    expect(refunded.order.refundHistory).toEqual([
      {
        amount: { amount: 100, currency: expect.any(String) },
        keptGrants: true,
        reason: 'charged twice',
        by: adminEmail,
        at: expect.any(String),
      },
      {
        amount: { amount: expect.any(Number), currency: expect.any(String) },
        keptGrants: false,
        reason: 'asked for the rest',
        by: adminEmail,
        at: expect.any(String),
      },
    ]);
  });

  it('refunds a paid order, reversing its grants, and refuses what cannot be refunded with 912', async () => {
    const b = await registerUser(t);
    const iden = await payByProvider(b.token, 'credits-100');
    const refunded = await ok<{ order: { status: string } }>(t, '/api/admin/orders/refund', {
      token: admin.token,
      iden,
      reason: 'asked',
    });
    expect(refunded.order.status).toBe('refunded');
    const user = await t.call('/api/auth/getUserInfo', { token: b.token });
    expect((user.user as { credits: number }).credits).toBe(0);
    expect(await t.call('/api/admin/orders/refund', { token: admin.token, iden })).toEqual({
      code: 912,
      status: 'refunded',
    });
    const pending = await ok<{ order: { iden: string } }>(t, '/api/store/doCheckout', {
      token: b.token,
      products: 'monthly',
    });
    expect(await t.call('/api/admin/orders/refund', { token: admin.token, iden: pending.order.iden })).toEqual({
      code: 912,
      status: 'pending',
    });
    expect(await t.call('/api/admin/orders/refund', { token: admin.token, iden: 'nope' })).toEqual({
      code: 904,
      parameter: 'iden',
    });
  });

  it('refuses a refund whose credits are already spent (912 credits_spent) and changes nothing', async () => {
    const b = await registerUser(t);
    const iden = await payByProvider(b.token, 'credits-100');
    await ok(t, '/api/admin/credits/adjust', {
      token: admin.token,
      userId: b.userId,
      amount: -60,
      reason: 'spent elsewhere',
    });
    expect(await t.call('/api/admin/orders/refund', { token: admin.token, iden })).toEqual({
      code: 912,
      status: 'paid',
      reason: 'credits_spent',
    });
    const status = await ok<{ status: string }>(t, '/api/store/orderStatus', { token: b.token, iden });
    expect(status.status).toBe('paid');
  });

  it('refunds a credit purchase: credits come back, ownership goes', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 500);
    const paid = await ok<{ order: { iden: string } }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: '["pro-unlock"]',
    });
    await ok(t, '/api/admin/orders/refund', { token: admin.token, iden: paid.order.iden });
    const ent = await ok<{ entitlements: unknown[] }>(t, '/api/store/entitlements', { token: b.token });
    expect(ent.entitlements).toEqual([]);
    const credits = await ok<{ balance: number }>(t, '/api/store/credits', { token: b.token });
    expect(credits.balance).toBe(500);
    await expectLedgerMatchesBalances(t);
  });
});
