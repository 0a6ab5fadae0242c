import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { giveCredits, ok, saveCoupon, saveProduct } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

interface OrderData {
  order: {
    iden: string;
    status: string;
    total: { amount: number; currency: string };
    subtotal: { amount: number };
    creditsSpent: number;
    provider: string;
    paidAt: string | null;
    items: { productId: string; quantity: number }[];
  };
  payment?: { provider: string; url?: string };
  balance?: number;
}

describe.each(dialects)('checkout on %s', (dialect) => {
  let t: TestApp;
  let buyer: { token: string; userId: string };
  let inactiveId: string;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    buyer = await registerUser(t);
    inactiveId = await saveProduct(t, {
      alias: 'retired',
      title: 'Retired',
      type: 0,
      price: { amount: 100, currency: 'USD' },
      creditPrice: 10,
      active: false,
    });
  });
  afterAll(() => t.close());

  const checkout = (body: Record<string, unknown>) => t.call('/api/store/doCheckout', { token: buyer.token, ...body });
  const payCredits = (products: string, dataObj = '{}', token = buyer.token) =>
    t.call('/api/auth/payWithCredits', { token, products, dataObj });

  it('lists the active catalog and shows one product by id or alias, without a token', async () => {
    const list = await ok<{ products: { id: string; active: boolean }[] }>(t, '/api/store/products', {});
    const ids = list.products.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['credits-100', 'pro-unlock', 'monthly']));
    expect(ids).not.toContain(inactiveId);
    const one = await ok<{ product: Record<string, unknown> }>(t, '/api/store/product', { id: 'monthly' });
    expect(one.product).toMatchObject({
      type: 2,
      price: { amount: 299, currency: 'USD' },
      creditPrice: 300,
      grants: { period: 'P1M' },
      storeIds: { appstore: 'till.monthly' },
      active: true,
    });
    expect(await t.call('/api/store/product', { id: 'no-such-thing' })).toEqual({ code: 904, parameter: 'id' });
  });

  it('makes a pending order with a coupon and answers how to pay it with the default provider', async () => {
    const data = (await checkout({ products: 'credits-100;credits-100;monthly', couponCode: 'WELCOME10' }))
      .data as OrderData;
    expect(data.order).toMatchObject({ status: 'pending', provider: 'default', paidAt: null });
    expect(data.order.subtotal.amount).toBe(697);
    expect(data.order.total).toEqual({ amount: 627, currency: 'USD' }); // 69.7 off rounds to 70
    expect(data.order.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ productId: 'credits-100', quantity: 2 })]),
    );
    expect(data.payment?.provider).toBe('default');
    expect(data.payment?.url).toContain(`/api/pay/default/${data.order.iden}?sig=`);
    const status = await ok<{ status: string }>(t, '/api/store/orderStatus', {
      token: buyer.token,
      iden: data.order.iden,
    });
    expect(status.status).toBe('pending');
  });

  it('answers the way to pay a pending pastOrder, and 912 once it is not pending', async () => {
    const made = (await checkout({ products: 'monthly' })).data as OrderData;
    const again = (await checkout({ pastOrder: made.order.iden })).data as OrderData;
    expect(again.order.iden).toBe(made.order.iden);
    expect(again.payment?.url).toBe(made.payment?.url);
    await ok(t, '/api/store/cancelOrder', { token: buyer.token, iden: made.order.iden });
    expect(await checkout({ pastOrder: made.order.iden })).toEqual({ code: 912, status: 'cancelled' });
    expect(await t.call('/api/store/cancelOrder', { token: buyer.token, iden: made.order.iden })).toEqual({
      code: 912,
      status: 'cancelled',
    });
  });

  it("refuses another buyer's pastOrder and order status with 904", async () => {
    const made = (await checkout({ products: 'monthly' })).data as OrderData;
    const other = await registerUser(t);
    expect(await t.call('/api/store/doCheckout', { token: other.token, pastOrder: made.order.iden })).toEqual({
      code: 904,
      parameter: 'pastOrder',
    });
    expect(await t.call('/api/store/orderStatus', { token: other.token, iden: made.order.iden })).toEqual({
      code: 904,
      parameter: 'iden',
    });
    expect(await checkout({ pastOrder: 'not-an-order' })).toEqual({ code: 904, parameter: 'pastOrder' });
  });

  it('refuses unknown (904) and inactive (907) products', async () => {
    expect(await checkout({ products: 'monthly;ghost' })).toEqual({ code: 904, parameter: 'products' });
    expect(await checkout({ products: inactiveId })).toEqual({ code: 907, parameter: 'products', reason: 'inactive' });
    expect(await payCredits(JSON.stringify(['ghost']))).toEqual({ code: 904, parameter: 'products' });
    expect(await payCredits(JSON.stringify([inactiveId]))).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'inactive',
    });
    expect(await t.call('/api/store/getCheckoutForm', { products: 'ghost' })).toEqual({
      code: 904,
      parameter: 'products',
    });
  });

  it('refuses malformed products and dataObj text with 907', async () => {
    expect(await checkout({})).toEqual({ code: 907, parameter: 'products', reason: 'required' });
    expect(await checkout({ products: 'monthly;;pro-unlock' })).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'required',
    });
    expect(await checkout({ products: 'monthly;<script>' })).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'invalid',
    });
    expect(await checkout({ products: 'monthly', pastOrder: 'x' })).toEqual({
      code: 907,
      parameter: 'pastOrder',
      reason: 'invalid',
    });
    expect(await checkout({ products: 'pro-unlock;pro-unlock' })).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'invalid',
    });
    expect(await payCredits('not json')).toEqual({ code: 907, parameter: 'products', reason: 'invalid' });
    expect(await payCredits('{"id":"monthly"}')).toEqual({ code: 907, parameter: 'products', reason: 'invalid' });
    expect(await payCredits('[]')).toEqual({ code: 907, parameter: 'products', reason: 'invalid' });
    expect(await payCredits('["monthly"]', '{broken')).toEqual({ code: 907, parameter: 'dataObj', reason: 'invalid' });
    expect(await payCredits('["monthly"]', '[1,2]')).toEqual({ code: 907, parameter: 'dataObj', reason: 'invalid' });
    expect(await payCredits('["credits-100"]')).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'no_credit_price',
    });
    expect(await t.call('/api/store/getCheckoutForm', { products: 'a,,b' })).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'required',
    });
  });

  it('answers 909 with the balance and the price when credits do not cover it', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 120);
    expect(await payCredits(JSON.stringify([{ id: 'monthly', quantity: 1 }]), '{}', b.token)).toEqual({
      code: 909,
      balance: 120,
      required: 300,
    });
  });

  it('spends before it grants: credits a purchase gives cannot pay for it', async () => {
    await saveProduct(t, {
      alias: 'credit-swap',
      title: '500 credits for 40',
      type: 0,
      creditPrice: 40,
      grants: { credits: 500 },
    });
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 30);
    expect(await payCredits('["credit-swap"]', '{}', b.token)).toEqual({ code: 909, balance: 30, required: 40 });
    const orders = await t.ctx.db.kysely.selectFrom('orders').select('id').where('user_id', '=', b.userId).execute();
    expect(orders).toEqual([]);
    await giveCredits(t, b.userId, 10);
    const paid = (await payCredits('["credit-swap"]', '{}', b.token)).data as OrderData;
    expect(paid.balance).toBe(500);
    const ledger = await ok<{ entries: { amount: number; reason: string }[] }>(t, '/api/store/credits', {
      token: b.token,
    });
    expect(ledger.entries.slice(0, 2).map((e) => [e.reason, e.amount])).toEqual([
      ['purchase', 500],
      ['spend', -40],
    ]);
  });

  it('pays with credits: the order comes back paid, the subscription runs, dataObj is kept', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 1_000);
    const first = (await payCredits(JSON.stringify([{ id: 'monthly', quantity: 2 }]), '{"note":"gift"}', b.token))
      .data as OrderData;
    expect(first.order).toMatchObject({ status: 'paid', provider: 'credits', creditsSpent: 600 });
    expect(first.balance).toBe(400);
    const stored = await t.ctx.db.kysely
      .selectFrom('orders')
      .select('data')
      .where('id', '=', first.order.iden)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.data ?? '{}')).toEqual({ note: 'gift' });
    const second = (await payCredits('["monthly"]', '{}', b.token)).data as OrderData;
    expect(second.balance).toBe(100);
    const ent = await ok<{ entitlements: { productId: string; expiresAt: string; active: boolean }[] }>(
      t,
      '/api/store/entitlements',
      { token: b.token },
    );
    const monthly = ent.entitlements.find((e) => e.productId === 'monthly');
    const months = (Date.parse(monthly!.expiresAt) - Date.now()) / (30 * 86_400_000);
    // Three months bought in two orders: the second starts where the first ends.
    expect(months).toBeGreaterThan(2.9);
    expect(months).toBeLessThan(3.2);
    expect(monthly!.active).toBe(true);
  });

  it('refuses to sell a non-consumable twice with 907 owned', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 1_000);
    expect((await payCredits('["pro-unlock"]', '{}', b.token)).code).toBe(900);
    expect(await payCredits('["pro-unlock"]', '{}', b.token)).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'owned',
    });
    expect(await t.call('/api/store/doCheckout', { token: b.token, products: 'pro-unlock' })).toEqual({
      code: 907,
      parameter: 'products',
      reason: 'owned',
    });
  });

  it('pays an order whose total is zero at once and grants it', async () => {
    await saveCoupon(t, { code: 'ALL-FREE', kind: 'discount', percentOff: 100 });
    const b = await registerUser(t);
    const data = (
      await t.call('/api/store/doCheckout', { token: b.token, products: 'credits-100', couponCode: 'ALL-FREE' })
    ).data as OrderData;
    expect(data.order).toMatchObject({ status: 'paid', total: { amount: 0, currency: 'USD' } });
    expect(data.order.paidAt).not.toBeNull();
    const history = await ok<{ balance: number; entries: { reason: string; reference: string }[] }>(
      t,
      '/api/store/credits',
      {
        token: b.token,
      },
    );
    expect(history.balance).toBe(100);
    expect(history.entries).toEqual([expect.objectContaining({ reason: 'purchase', reference: data.order.iden })]);
  });

  it('getCheckoutForm lists the products, the total and the configured providers', async () => {
    const data = await ok<{
      products: { id: string }[];
      total: unknown;
      providers: { provider: string; form?: unknown }[];
    }>(t, '/api/store/getCheckoutForm', { products: 'pro-unlock,monthly,monthly' });
    expect(data.products.map((p) => p.id)).toEqual(['pro-unlock', 'monthly']);
    expect(data.total).toEqual({ amount: 1097, currency: 'USD' });
    expect(data.providers).toEqual([
      expect.objectContaining({
        provider: 'default',
        form: expect.objectContaining({
          method: 'POST',
          fields: { products: 'pro-unlock;monthly;monthly', provider: 'default' },
        }),
      }),
    ]);
    const empty = await ok<{ products: unknown[]; total: unknown }>(t, '/api/store/getCheckoutForm', { products: '' });
    expect(empty).toMatchObject({ products: [], total: null });
  });

  it('lists the buyer’s own orders only, newest first, by status', async () => {
    const b = await registerUser(t);
    const one = (await t.call('/api/store/doCheckout', { token: b.token, products: 'monthly' })).data as OrderData;
    const two = (await t.call('/api/store/doCheckout', { token: b.token, products: 'credits-100' })).data as OrderData;
    const list = await ok<{ orders: { iden: string }[]; total: number }>(t, '/api/store/orders', { token: b.token });
    expect(list.total).toBe(2);
    expect(list.orders.map((o) => o.iden)).toEqual([two.order.iden, one.order.iden]);
    const paged = await ok<{ orders: unknown[]; total: number }>(t, '/api/store/orders', {
      token: b.token,
      pageSize: 1,
      page: 2,
    });
    expect(paged).toMatchObject({ total: 2, orders: [expect.objectContaining({ iden: one.order.iden })] });
    const none = await ok<{ total: number }>(t, '/api/store/orders', { token: b.token, status: 'paid' });
    expect(none.total).toBe(0);
  });

  it('asks for a token on buyer calls (901)', async () => {
    expect(await t.call('/api/store/redeemCoupon', { couponCode: 'FREE100' })).toEqual({ code: 901 });
    expect(await t.call('/api/auth/payWithCredits', { token: 'wrong', products: '["monthly"]' })).toEqual({
      code: 901,
    });
    expect(await t.call('/api/store/credits', { token: 'wrong' })).toEqual({ code: 901 });
  });
});

describe.each(dialects)('checkout with production configured on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect, config: { production: true } });
  });
  afterAll(() => t.close());

  it('offers no default provider, loads no demo data and has no checkout page', async () => {
    const form = await ok<{ providers: unknown[] }>(t, '/api/store/getCheckoutForm', { products: '' });
    expect(form.providers).toEqual([]);
    const list = await ok<{ products: unknown[] }>(t, '/api/store/products', {});
    expect(list.products).toEqual([]);
    const b = await registerUser(t);
    const id = await saveProduct(t, { alias: 'real', title: 'Real', type: 0, price: { amount: 100, currency: 'USD' } });
    expect(await t.call('/api/store/doCheckout', { token: b.token, products: id })).toEqual({
      code: 910,
      reason: 'no_provider',
    });
    const page = await t.app.inject({ method: 'GET', url: '/api/pay/default/x?sig=y' });
    expect(page.statusCode).toBe(404);
  });
});
