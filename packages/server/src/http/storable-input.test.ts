import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, giveCredits, ok, saveProduct } from '@till/test-support/store';
import { registerUser, uniqueEmail } from '@till/test-support/users';

describe.each(dialects)('input no column can hold, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('refuses a NUL character in any string field with 907', async () => {
    expect(
      await t.call('/api/register', { email: uniqueEmail(), password: 'a long passphrase', name: 'Mia\u0000' }),
    ).toEqual({
      code: 907,
      parameter: 'name',
      reason: 'invalid',
    });
    const u = await registerUser(t);
    expect(await t.call('/api/store/getCoupon', { token: u.token, couponCode: 'WEL\u0000COME' })).toMatchObject({
      code: 907,
      parameter: 'couponCode',
    });
    // Also in a field no schema names: nothing unstorable reaches a query.
    expect(await t.call('/api/store/products', { extra: { deep: ['x\u0000'] } })).toMatchObject({
      code: 907,
      parameter: 'extra.deep.0',
    });
  });

  it('refuses numbers past a 32-bit integer with 907', async () => {
    const u = await registerUser(t);
    expect(await t.call('/api/store/orders', { token: u.token, page: 2 ** 31, pageSize: 10 })).toEqual({
      code: 907,
      parameter: 'page',
      reason: 'too_long',
    });
    const files = await t.app.inject({
      method: 'POST',
      url: '/api/files/list',
      payload: { token: u.token, page: '99999999999999999999' },
    });
    expect(files.json()).toMatchObject({ code: 907, parameter: 'page' });
  });

  it('refuses a purchase whose sum no column can hold, and a balance past the top', async () => {
    const dear = await saveProduct(t, {
      alias: `dear-${dialect}`,
      title: 'Dear',
      description: '',
      type: 0,
      price: { amount: 1_000_000_000, currency: 'USD' },
      creditPrice: 1_000_000_000,
      grants: { credits: 1_000_000_000 },
      imageUrl: null,
      storeIds: {},
      active: true,
    });
    const u = await registerUser(t);
    const many = Array<string>(5).fill(dear).join(';');
    expect(await t.call('/api/store/doCheckout', { token: u.token, products: many })).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'too_long',
    });
    expect(
      await t.call('/api/auth/payWithCredits', {
        token: u.token,
        products: JSON.stringify([{ id: dear, quantity: 5 }]),
      }),
    ).toEqual({ code: 907, parameter: 'products', reason: 'too_long' });
    await giveCredits(t, u.userId, 1_000_000_000);
    await giveCredits(t, u.userId, 1_000_000_000);
    const { token } = await anAdmin(t);
    expect(
      await t.call('/api/admin/credits/adjust', { token, userId: u.userId, amount: 1_000_000_000, reason: 'too much' }),
    ).toEqual({ code: 907, parameter: 'amount', reason: 'too_long' });
    const { balance } = await ok<{ balance: number }>(t, '/api/store/credits', {
      token: u.token,
      page: 1,
      pageSize: 1,
    });
    expect(balance).toBe(2_000_000_000);
  });
});
