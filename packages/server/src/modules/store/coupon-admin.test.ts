import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

interface AdminCoupon {
  code: string;
  percentOff: number | null;
  usageLimit: number | null;
  used: number;
  active: boolean;
  appliesTo: string[] | 'all';
}

/** Coupons an administrator edits, switches off and on again, and what buyers meet then. */
describe.each(dialects)('coupon administration on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    admin = await anAdmin(t);
  });
  afterAll(() => t.close());

  const save = (coupon: Record<string, unknown>) => t.call('/api/admin/coupons/save', { token: admin.token, coupon });
  const setActive = (code: string, active: boolean) =>
    t.call('/api/admin/coupons/setActive', { token: admin.token, code, active });
  const checkout = (token: string, couponCode: string) =>
    t.call('/api/store/doCheckout', { token, products: 'pro-unlock', couponCode });

  it('edits a coupon: new terms apply to the next buyer, its use count stays', async () => {
    expect((await save({ code: 'EDIT10', kind: 'discount', percentOff: 10, usageLimit: 5 })).code).toBe(900);
    const first = await registerUser(t);
    const paid = await ok<{ order: { discount: { amount: number } } }>(t, '/api/store/doCheckout', {
      token: first.token,
      products: 'pro-unlock',
      couponCode: 'edit10',
    });
    expect(paid.order.discount.amount).toBe(50);
    const edited = await save({ code: 'EDIT10', kind: 'discount', percentOff: 20, usageLimit: 3 });
    expect(edited).toMatchObject({ code: 900, data: { coupon: { percentOff: 20, usageLimit: 3, used: 1 } } });
    const second = await registerUser(t);
    const again = await ok<{ order: { discount: { amount: number } } }>(t, '/api/store/doCheckout', {
      token: second.token,
      products: 'pro-unlock',
      couponCode: 'EDIT10',
    });
    expect(again.order.discount.amount).toBe(100);
  });

  it('refuses an edit that breaks its rules, naming the field and the reason', async () => {
    await save({ code: 'USED2', kind: 'grant', grantCredits: 5 });
    for (let i = 0; i < 2; i += 1) {
      const b = await registerUser(t);
      await ok(t, '/api/store/redeemCoupon', { token: b.token, couponCode: 'USED2' });
    }
    // Below the uses already made: the database would refuse it too.
    expect(await save({ code: 'USED2', kind: 'grant', grantCredits: 5, usageLimit: 1 })).toEqual({
      code: 907,
      parameter: 'coupon.usageLimit',
      reason: 'too_short',
    });
    expect(
      await save({ code: 'USED2', kind: 'discount', percentOff: 10, amountOff: { amount: 1, currency: 'USD' } }),
    ).toMatchObject({
      code: 907,
      parameter: 'coupon.percentOff',
    });
    expect(
      await save({
        code: 'USED2',
        kind: 'grant',
        grantCredits: 5,
        startsAt: '2026-02-01T00:00:00Z',
        endsAt: '2026-01-01T00:00:00Z',
      }),
    ).toMatchObject({ code: 907, parameter: 'coupon.endsAt', reason: 'invalid' });
    expect(await save({ code: 'USED2', kind: 'grant', grantProducts: ['no-such-product'] })).toEqual({
      code: 907,
      parameter: 'coupon.grantProducts',
      reason: 'invalid',
    });
    const listed = await ok<{ coupons: AdminCoupon[] }>(t, '/api/admin/coupons/list', {
      token: admin.token,
      query: 'USED2',
    });
    expect(listed.coupons[0]).toMatchObject({ code: 'USED2', used: 2, usageLimit: null });
  });

  it('switches a coupon off: checkout and redeem refuse it with 908 inactive; on again, it works', async () => {
    await save({ code: 'PAUSE15', kind: 'discount', percentOff: 15, appliesTo: ['pro-unlock'] });
    const off = await setActive('pause15', false);
    // Its other terms stay as they were.
    expect(off).toMatchObject({
      code: 900,
      data: { coupon: { code: 'PAUSE15', active: false, percentOff: 15, appliesTo: ['pro-unlock'] } },
    });
    const b = await registerUser(t);
    expect(await checkout(b.token, 'PAUSE15')).toEqual({ code: 908, reason: 'inactive' });
    expect(await t.call('/api/store/getCoupon', { token: b.token, couponCode: 'PAUSE15' })).toEqual({
      code: 908,
      reason: 'inactive',
    });
    // Nothing was made of the refused checkout.
    const orders = await ok<{ total: number }>(t, '/api/store/orders', { token: b.token });
    expect(orders.total).toBe(0);
    expect(await setActive('PAUSE15', true)).toMatchObject({ code: 900, data: { coupon: { active: true } } });
    const made = await checkout(b.token, 'PAUSE15');
    expect(made).toMatchObject({ code: 900, data: { order: { couponCode: 'PAUSE15', discount: { amount: 75 } } } });
  });

  it('answers 904 for a code that does not exist, 907 for a malformed one, and 903 below level 9', async () => {
    expect(await setActive('NOPE-NOPE', false)).toEqual({ code: 904, parameter: 'code' });
    expect(await setActive('a b', false)).toMatchObject({ code: 907, parameter: 'code' });
    const b = await registerUser(t);
    expect(await t.call('/api/admin/coupons/setActive', { token: b.token, code: 'WELCOME10', active: false })).toEqual({
      code: 903,
      required: 9,
    });
  });
});
