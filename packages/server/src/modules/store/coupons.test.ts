import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { STALE_HOLDS_EVERY_MS } from '../../flows/checkout.js';
import { PENDING_COUPON_HOLD_MS } from './orders.js';
import { dialects } from '@till/test-support/db';
import { anAdmin, ok, saveCoupon, saveProduct } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

const HOUR = 3_600_000;

describe.each(dialects)('coupons on %s', (dialect) => {
  let t: TestApp;
  let buyer: { token: string; userId: string };
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    buyer = await registerUser(t);
  });
  afterAll(() => t.close());

  const checkout = (token: string, products: string, couponCode: string) =>
    t.call('/api/store/doCheckout', { token, products, couponCode });

  it('getCoupon shows a usable coupon, matching the code without regard to case', async () => {
    const data = await ok<{ coupon: Record<string, unknown> }>(t, '/api/store/getCoupon', {
      token: buyer.token,
      couponCode: 'welcome10',
    });
    expect(data.coupon).toMatchObject({
      code: 'WELCOME10',
      kind: 'discount',
      percentOff: 10,
      appliesTo: 'all',
      minTotal: null,
    });
  });

  it('refuses an unknown coupon with 908 unknown and a switched-off one with 908 inactive', async () => {
    expect(await t.call('/api/store/getCoupon', { token: buyer.token, couponCode: 'NOPE-NOPE' })).toEqual({
      code: 908,
      reason: 'unknown',
    });
    await saveCoupon(t, { code: 'OFF-GRANT', kind: 'grant', grantCredits: 5, active: false });
    expect(await t.call('/api/store/redeemCoupon', { token: buyer.token, couponCode: 'OFF-GRANT' })).toEqual({
      code: 908,
      reason: 'inactive',
    });
  });

  it('refuses a coupon before it starts and after it ends', async () => {
    const now = Date.now();
    await saveCoupon(t, {
      code: 'LATER',
      kind: 'grant',
      grantCredits: 5,
      startsAt: new Date(now + HOUR).toISOString(),
    });
    await saveCoupon(t, {
      code: 'GONE',
      kind: 'discount',
      percentOff: 5,
      startsAt: new Date(now - 2 * HOUR).toISOString(),
      endsAt: new Date(now - HOUR).toISOString(),
    });
    expect(await t.call('/api/store/redeemCoupon', { token: buyer.token, couponCode: 'LATER' })).toEqual({
      code: 908,
      reason: 'not_started',
    });
    expect(await checkout(buyer.token, 'monthly', 'GONE')).toEqual({ code: 908, reason: 'expired' });
  });

  it('refuses a coupon used up in total, and one this buyer already used up', async () => {
    const other = await registerUser(t);
    await ok(t, '/api/store/redeemCoupon', { token: other.token, couponCode: 'ONCE' });
    expect(await t.call('/api/store/redeemCoupon', { token: buyer.token, couponCode: 'ONCE' })).toEqual({
      code: 908,
      reason: 'used_up',
    });
    const first = await ok<{ granted: { credits: number }; balance: number }>(t, '/api/store/redeemCoupon', {
      token: buyer.token,
      couponCode: 'FREE100',
    });
    expect(first.granted).toEqual({ credits: 100, products: [] });
    expect(await t.call('/api/store/getCoupon', { token: buyer.token, couponCode: 'FREE100' })).toEqual({
      code: 908,
      reason: 'already_redeemed',
    });
    expect(await t.call('/api/store/redeemCoupon', { token: buyer.token, couponCode: 'FREE100' })).toEqual({
      code: 908,
      reason: 'already_redeemed',
    });
  });

  it('refuses a coupon where it does not apply: the wrong kind, other products, another currency', async () => {
    // The wrong kind says which kind it is, so that the buyer can be sent where it works.
    expect(await t.call('/api/store/redeemCoupon', { token: buyer.token, couponCode: 'WELCOME10' })).toEqual({
      code: 908,
      reason: 'discount_coupon',
    });
    expect(await checkout(buyer.token, 'monthly', 'FREE100')).toEqual({ code: 908, reason: 'grant_coupon' });
    await saveCoupon(t, { code: 'PRO-ONLY', kind: 'discount', percentOff: 20, appliesTo: ['pro-unlock'] });
    expect(await checkout(buyer.token, 'monthly', 'PRO-ONLY')).toEqual({ code: 908, reason: 'not_applicable' });
    await saveCoupon(t, { code: 'EUROS', kind: 'discount', amountOff: { amount: 100, currency: 'EUR' } });
    expect(await checkout(buyer.token, 'monthly', 'EUROS')).toEqual({ code: 908, reason: 'not_applicable' });
  });

  it('refuses a cart below the minimum total with 908 min_total', async () => {
    await saveCoupon(t, {
      code: 'BIG-CART',
      kind: 'discount',
      percentOff: 10,
      minTotal: { amount: 500, currency: 'USD' },
    });
    expect(await checkout(buyer.token, 'monthly', 'BIG-CART')).toEqual({ code: 908, reason: 'min_total' });
    const fine = await ok<{ order: { discount: { amount: number } } }>(t, '/api/store/doCheckout', {
      token: buyer.token,
      products: 'monthly;pro-unlock',
      couponCode: 'BIG-CART',
    });
    expect(fine.order.discount.amount).toBe(80); // 10% of 7.98 = 0.798
  });

  it('applies a restricted discount only to the products it names, rounding halves up', async () => {
    // pro-unlock is not in this cart.
    expect(await checkout(buyer.token, 'credits-100;monthly', 'pro-only')).toEqual({
      code: 908,
      reason: 'not_applicable',
    });
    const pro = await ok<{ order: Record<string, { amount: number }> }>(t, '/api/store/doCheckout', {
      token: buyer.token,
      products: 'credits-100;pro-unlock',
      couponCode: 'pro-only',
    });
    expect(pro.order.subtotal!.amount).toBe(698);
    expect(pro.order.discount!.amount).toBe(100); // 20% of 4.99 = 0.998
    expect(pro.order.total!.amount).toBe(598);
  });

  it('grant coupons give products as well as credits', async () => {
    const id = await saveProduct(t, {
      alias: 'badge',
      title: 'Badge',
      type: 1,
      price: { amount: 99, currency: 'USD' },
    });
    await saveCoupon(t, { code: 'BADGE-GIFT', kind: 'grant', grantProducts: [id, 'monthly'], perUserLimit: 1 });
    const b = await registerUser(t);
    const data = await ok<{ granted: { credits: number; products: string[] } }>(t, '/api/store/redeemCoupon', {
      token: b.token,
      couponCode: 'BADGE-GIFT',
    });
    expect(data.granted.credits).toBe(0);
    expect(data.granted.products.sort()).toEqual([id, 'monthly'].sort());
    const ent = await ok<{ entitlements: { productId: string; kind: string; active: boolean }[] }>(
      t,
      '/api/store/entitlements',
      { token: b.token },
    );
    expect(ent.entitlements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ productId: id, kind: 'ownership', active: true }),
        expect.objectContaining({ productId: 'monthly', kind: 'subscription', active: true }),
      ]),
    );
  });

  it('bulk codes are single-use each', async () => {
    const { token } = await anAdmin(t);
    const bulk = await ok<{ batch: string; codes: string[] }>(t, '/api/admin/coupons/bulk', {
      token,
      count: 5,
      prefix: 'gift',
      coupon: { kind: 'grant', grantCredits: 25 },
    });
    expect(bulk.codes).toHaveLength(5);
    expect(new Set(bulk.codes).size).toBe(5);
    for (const code of bulk.codes) expect(code).toMatch(/^GIFT[A-Z2-9]{10}$/);
    const [a, b] = [await registerUser(t), await registerUser(t)];
    const code = bulk.codes[0]!;
    expect((await t.call('/api/store/redeemCoupon', { token: a.token, couponCode: code })).code).toBe(900);
    expect(await t.call('/api/store/redeemCoupon', { token: b.token, couponCode: code })).toEqual({
      code: 908,
      reason: 'used_up',
    });
    const listed = await ok<{ coupons: { code: string; used: number }[]; total: number }>(
      t,
      '/api/admin/coupons/list',
      {
        token,
        query: bulk.batch,
      },
    );
    expect(listed.total).toBe(5);
    expect(listed.coupons.find((c) => c.code === code)?.used).toBe(1);
  });

  it('a cancelled order gives its coupon use back', async () => {
    await saveCoupon(t, { code: 'ONE-TRY', kind: 'discount', percentOff: 10, usageLimit: 1 });
    const b = await registerUser(t);
    const first = await ok<{ order: { iden: string } }>(t, '/api/store/doCheckout', {
      token: b.token,
      products: 'monthly',
      couponCode: 'ONE-TRY',
    });
    expect(await checkout(b.token, 'monthly', 'ONE-TRY')).toEqual({ code: 908, reason: 'used_up' });
    const cancelled = await ok<{ order: { status: string } }>(t, '/api/store/cancelOrder', {
      token: b.token,
      iden: first.order.iden,
    });
    expect(cancelled.order.status).toBe('cancelled');
    expect((await checkout(b.token, 'monthly', 'ONE-TRY')).code).toBe(900);
  });
});

describe.each(dialects)('coupon holds of abandoned checkouts on %s', (dialect) => {
  let t: TestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ dialect, now: () => clock });
  });
  afterAll(() => t.close());

  it('gives back the use of a pending order older than the hold to the next buyer', async () => {
    await saveCoupon(t, { code: 'LAST-ONE', kind: 'discount', percentOff: 10, usageLimit: 1 });
    const [a, b] = [await registerUser(t), await registerUser(t)];
    const held = await ok<{ order: { iden: string } }>(t, '/api/store/doCheckout', {
      token: a.token,
      products: 'monthly',
      couponCode: 'LAST-ONE',
    });
    const tryB = () => t.call('/api/store/doCheckout', { token: b.token, products: 'monthly', couponCode: 'LAST-ONE' });
    clock += PENDING_COUPON_HOLD_MS - 60_000;
    expect(await tryB()).toEqual({ code: 908, reason: 'used_up' });
    clock += 120_000;
    expect((await tryB()).code).toBe(900);
    const first = await ok<{ status: string }>(t, '/api/store/orderStatus', { token: a.token, iden: held.order.iden });
    expect(first.status).toBe('cancelled');
  });

  it('looks for stale holds at most every few seconds per coupon: a hold comes back that much late at most', async () => {
    await saveCoupon(t, { code: 'LAST-TWO', kind: 'discount', percentOff: 10, usageLimit: 1 });
    const [a, b] = [await registerUser(t), await registerUser(t)];
    await ok(t, '/api/store/doCheckout', { token: a.token, products: 'monthly', couponCode: 'LAST-TWO' });
    const tryB = () => t.call('/api/store/doCheckout', { token: b.token, products: 'monthly', couponCode: 'last-two' });
    clock += PENDING_COUPON_HOLD_MS - 1_000;
    expect(await tryB()).toEqual({ code: 908, reason: 'used_up' });
    // Stale now, but looked for a moment ago: still held.
    clock += 2_000;
    expect(await tryB()).toEqual({ code: 908, reason: 'used_up' });
    clock += STALE_HOLDS_EVERY_MS;
    expect((await tryB()).code).toBe(900);
  });
});
