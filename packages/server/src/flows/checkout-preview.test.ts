import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { giveCredits, ok, saveCoupon } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

interface Preview {
  lines: {
    productId: string;
    quantity: number;
    unitPrice: { amount: number };
    amount: { amount: number };
    owned: boolean;
  }[];
  subtotal: { amount: number; currency: string };
  discount: { amount: number; currency: string };
  total: { amount: number; currency: string };
  coupon: { code: string } | null;
  couponRefused: string | null;
}
interface Placed {
  order: {
    iden: string;
    subtotal: { amount: number };
    discount: { amount: number };
    total: { amount: number; currency: string };
  };
}

describe.each(dialects)('checkout preview on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    await saveCoupon(t, { code: 'TWO-OFF', kind: 'discount', amountOff: { amount: 200, currency: 'USD' } });
    await saveCoupon(t, { code: 'ONE-USE', kind: 'discount', percentOff: 50, usageLimit: 1 });
    await saveCoupon(t, {
      code: 'BIG-CARTS',
      kind: 'discount',
      percentOff: 20,
      minTotal: { amount: 10_000, currency: 'USD' },
    });
  });
  afterAll(() => t.close());

  const preview = (token: string, products: string, couponCode?: string) =>
    ok<Preview>(t, '/api/store/checkoutPreview', { token, products, ...(couponCode ? { couponCode } : {}) });
  const place = async (token: string, products: string, couponCode?: string) =>
    ok<Placed>(t, '/api/store/doCheckout', { token, products, ...(couponCode ? { couponCode } : {}) });

  it.each([
    ['credits-100;credits-100;monthly', 'WELCOME10'],
    ['credits-100;pro-unlock', 'TWO-OFF'],
    ['monthly', undefined],
    ['credits-100;credits-100;credits-100', 'WELCOME10'],
  ])('answers for %s with %s the total doCheckout then charges', async (products, code) => {
    const buyer = await registerUser(t);
    const seen = await preview(buyer.token, products, code);
    const placed = await place(buyer.token, products, code);
    expect(seen.couponRefused).toBeNull();
    expect(seen.subtotal.amount).toBe(placed.order.subtotal.amount);
    expect(seen.discount.amount).toBe(placed.order.discount.amount);
    expect(seen.total).toEqual(placed.order.total);
    expect(seen.lines.reduce((sum, l) => sum + l.amount.amount, 0)).toBe(seen.subtotal.amount);
    if (code) expect(seen.discount.amount).toBeGreaterThan(0);
  });

  it('keeps quantities and unit prices per line', async () => {
    const buyer = await registerUser(t);
    const seen = await preview(buyer.token, 'credits-100;monthly;credits-100', 'WELCOME10');
    expect(seen.lines).toEqual([
      expect.objectContaining({ productId: 'credits-100', quantity: 2, unitPrice: { amount: 199, currency: 'USD' } }),
      expect.objectContaining({ productId: 'monthly', quantity: 1, amount: { amount: 299, currency: 'USD' } }),
    ]);
    expect(seen.coupon?.code).toBe('WELCOME10');
    expect(seen.total.amount).toBe(697 - 70);
  });

  it('writes nothing: a previewed single-use coupon is still free for a checkout', async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    for (let i = 0; i < 3; i += 1) expect((await preview(a.token, 'monthly', 'ONE-USE')).discount.amount).toBe(150);
    const orders = await ok<{ total: number }>(t, '/api/store/orders', { token: a.token });
    expect(orders.total).toBe(0);
    const placed = await place(b.token, 'monthly', 'ONE-USE');
    expect(placed.order.discount.amount).toBe(150);
    // Now used up: the preview says so as doCheckout would, and prices the cart without it.
    const after = await preview(a.token, 'monthly', 'ONE-USE');
    expect(after).toMatchObject({ couponRefused: 'used_up', discount: { amount: 0 }, total: { amount: 299 } });
    expect(
      await t.call('/api/store/doCheckout', { token: a.token, products: 'monthly', couponCode: 'ONE-USE' }),
    ).toEqual({
      code: 908,
      reason: 'used_up',
    });
  });

  it('names the reason a coupon cannot be used, as doCheckout refuses it', async () => {
    const buyer = await registerUser(t);
    for (const [code, reason] of [
      ['NO-SUCH-CODE', 'unknown'],
      ['BIG-CARTS', 'min_total'],
      ['FREE100', 'grant_coupon'],
    ] as const) {
      const seen = await preview(buyer.token, 'monthly', code);
      expect(seen).toMatchObject({ couponRefused: reason, coupon: null, total: { amount: 299 } });
      expect(
        await t.call('/api/store/doCheckout', { token: buyer.token, products: 'monthly', couponCode: code }),
      ).toEqual({ code: 908, reason });
    }
  });

  it('marks a product the buyer owns, which doCheckout refuses', async () => {
    const buyer = await registerUser(t);
    await giveCredits(t, buyer.userId, 500);
    await ok(t, '/api/auth/payWithCredits', { token: buyer.token, products: JSON.stringify(['pro-unlock']) });
    const seen = await preview(buyer.token, 'pro-unlock;credits-100');
    expect(seen.lines.map((l) => [l.productId, l.owned])).toEqual([
      ['pro-unlock', true],
      ['credits-100', false],
    ]);
    expect(await t.call('/api/store/doCheckout', { token: buyer.token, products: 'pro-unlock' })).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'owned',
    });
  });

  it('needs a session and a well-formed cart', async () => {
    expect(await t.call('/api/store/checkoutPreview', { products: 'monthly' })).toMatchObject({ code: 901 });
    const buyer = await registerUser(t);
    expect(await t.call('/api/store/checkoutPreview', { token: buyer.token, products: 'a;;b' })).toMatchObject({
      code: 907,
      parameter: 'products',
    });
    expect(await t.call('/api/store/checkoutPreview', { token: buyer.token, products: 'no-such-product' })).toEqual({
      code: 904,
      parameter: 'products',
    });
  });
});
