import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../../config.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { FakePaymentwall, type PingbackInput } from '@till/test-support/fake-paymentwall';
import { anAdmin, expectLedgerMatchesBalances, ok, post, spendCredits } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import { PINGBACK_PATH } from './route.js';

const PROJECT_KEY = 'pwProjectKeyTest';
const SECRET_KEY = 'pwSecretKeyTest0123456789';

interface Checkout {
  order: { iden: string; total: { amount: number; currency: string } };
  payment: { provider: string; url: string };
}

type Buyer = { token: string; userId: string; email: string };

/** A test app whose paywall route takes pingbacks from `pingbackIps`, and a fake Paymentwall wired to it. */
async function startPaywallApp(dialect: (typeof dialects)[number], pingbackIps: string[]) {
  const fake = new FakePaymentwall({ projectKey: PROJECT_KEY, secretKey: SECRET_KEY });
  const apiUrl = await fake.start();
  const paywall: NonNullable<Config['payments']['paywall']> = {
    projectKey: PROJECT_KEY,
    secretKey: SECRET_KEY,
    widget: 'p1_1',
    pingbackIps,
    apiUrl,
  };
  const t = await startTestApp({
    dialect,
    listen: true,
    poolSize: 20,
    config: { payments: { card: undefined, paywall } },
  });
  fake.pingbackUrl = `${t.url}${PINGBACK_PATH}`;
  return { t, fake };
}

describe.each(dialects)('paywall provider on %s', (dialect) => {
  let t: TestApp;
  let fake: FakePaymentwall;
  beforeAll(async () => {
    ({ t, fake } = await startPaywallApp(dialect, ['127.0.0.1']));
  });
  afterAll(async () => {
    await fake.close();
    await t.close();
  });

  const checkout = (buyer: Buyer, products: string) =>
    ok<Checkout>(t, '/api/store/doCheckout', { token: buyer.token, products, provider: 'paywall' });
  const statusOf = async (buyer: Buyer, iden: string) =>
    (await ok<{ status: string }>(t, '/api/store/orderStatus', { token: buyer.token, iden })).status;
  const balanceOf = (buyer: Buyer) =>
    ok<{ balance: number; entries: { amount: number }[] }>(t, '/api/store/credits', { token: buyer.token });
  const monthlyEnd = async (buyer: Buyer) => {
    const { entitlements } = await ok<{ entitlements: { productId: string; expiresAt: string | null }[] }>(
      t,
      '/api/store/entitlements',
      { token: buyer.token },
    );
    return Date.parse(entitlements.find((e) => e.productId === 'monthly')?.expiresAt ?? '');
  };
  /** A payment pingback for an order, as Paymentwall sends it with the amount parameters set up. */
  const payment = (buyer: Buyer, iden: string, more: Partial<PingbackInput> = {}): PingbackInput => ({
    type: 0,
    uid: buyer.userId,
    goodsid: iden,
    amount: '1.99',
    currencyCode: 'USD',
    ...more,
  });
  /** Pays an order through the fake's widget, as a buyer would, and answers the pingback it sent. */
  const payOnWidget = async (url: string) => {
    const call = new URL(url).search.slice(1);
    const res = await fetch(new URL('/api/subscription/pay', url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ call, action: 'pay' }).toString(),
      redirect: 'manual',
    });
    return { res, pingback: fake.pingbacks.at(-1) };
  };

  it('lists paywall in getCheckoutForm, with a form posting to doCheckout', async () => {
    const form = await ok<{ providers: { provider: string; form?: { action: string; fields: object } }[] }>(
      t,
      '/api/store/getCheckoutForm',
      { products: 'credits-100' },
    );
    const paywall = form.providers.find((p) => p.provider === 'paywall');
    expect(paywall?.form).toEqual({
      action: `${t.url}/api/store/doCheckout`,
      method: 'POST',
      fields: { products: 'credits-100', provider: 'paywall' },
    });
  });

  it('answers the signed widget URL; the widget accepts it, and Pay pays the order with its grants', async () => {
    const buyer = await registerUser(t);
    const { order, payment: pay } = await checkout(buyer, 'credits-100');
    expect(pay.provider).toBe('paywall');
    const url = new URL(pay.url);
    expect(`${url.origin}${url.pathname}`).toBe(fake.widgetBaseUrl);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      key: PROJECT_KEY,
      uid: buyer.userId,
      widget: 'p1_1',
      amount: '1.99',
      currencyCode: 'USD',
      ag_name: '100 credits',
      ag_external_id: order.iden,
      ag_type: 'fixed',
      success_url: `${t.url}/orders/${order.iden}`,
      sign_version: '3',
    });
    expect(url.searchParams.get('sign')).toMatch(/^[0-9a-f]{64}$/);

    const widget = await fetch(pay.url);
    expect(widget.status).toBe(200);
    expect(await widget.text()).toContain('1.99 USD');

    const { res, pingback } = await payOnWidget(pay.url);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${t.url}/orders/${order.iden}`);
    expect(pingback).toMatchObject({ status: 200, body: 'OK' });
    expect(await statusOf(buyer, order.iden)).toBe('paid');
    const credits = await balanceOf(buyer);
    expect(credits.balance).toBe(100);
    expect(credits.entries).toHaveLength(1);
  });

  it("lets pages frame the widget's origin, and no other", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/pay/default/none?sig=x' });
    const policy = page.headers['content-security-policy'] as string;
    expect(policy).toContain(`frame-src 'self' ${new URL(fake.widgetBaseUrl).origin}`);
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('a widget URL signed with another key is refused by the widget', async () => {
    const buyer = await registerUser(t);
    const { payment: pay } = await checkout(buyer, 'credits-100');
    const forged = new URL(pay.url);
    forged.searchParams.set('amount', '0.01');
    expect((await fetch(forged)).status).toBe(400);
  });

  it('pays without amount parameters: the signed widget call fixed the price', async () => {
    const buyer = await registerUser(t);
    const { order } = await checkout(buyer, 'credits-100');
    const sent = await fake.sendPingback({ type: 0, uid: buyer.userId, goodsid: order.iden });
    expect(sent).toEqual({ status: 200, body: 'OK' });
    expect(await statusOf(buyer, order.iden)).toBe('paid');
  });

  it('the same pingback sent 10 times at once is applied once, and every answer is OK', async () => {
    const buyer = await registerUser(t);
    const { order } = await checkout(buyer, 'credits-100');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fake.sendPingback(payment(buyer, order.iden, { ref: `race-${order.iden}` }))),
    );
    expect(answers).toEqual(Array.from({ length: 10 }, () => ({ status: 200, body: 'OK' })));
    expect(await statusOf(buyer, order.iden)).toBe('paid');
    const credits = await balanceOf(buyer);
    expect(credits.balance).toBe(100);
    expect(credits.entries).toHaveLength(1);
    const events = await t.ctx.db.kysely
      .selectFrom('payment_events')
      .select('event_id')
      .where('order_id', '=', order.iden)
      .execute();
    expect(events).toEqual([{ event_id: `race-${order.iden}_0` }]);
    await expectLedgerMatchesBalances(t);
  });

  it('refuses a pingback with a bad signature and applies nothing', async () => {
    const buyer = await registerUser(t);
    const { order } = await checkout(buyer, 'credits-100');
    const forged = await fake.sendPingback(payment(buyer, order.iden, { secretKey: 'not-the-project-secret' }));
    expect(forged.status).toBe(403);
    expect(forged.body).not.toBe('OK');
    const v2 = await fake.sendPingback(payment(buyer, order.iden, { signVersion: 2, secretKey: 'nope' }));
    expect(v2.body).not.toBe('OK');
    // Parameters changed after signing: the signature no longer covers them.
    const good = fake.pingbacks.at(-1)!;
    const tampered = new URL(good.url);
    tampered.searchParams.set('goodsid', order.iden);
    tampered.searchParams.set('sig', '0'.repeat(64));
    const res = await fetch(tampered);
    expect(await res.text()).not.toBe('OK');
    expect(await statusOf(buyer, order.iden)).toBe('pending');
    expect((await balanceOf(buyer)).balance).toBe(0);
  });

  it('a pingback whose amount or currency differs from the order total does not pay it', async () => {
    const buyer = await registerUser(t);
    const { order } = await checkout(buyer, 'credits-100');
    const cheap = await fake.sendPingback(payment(buyer, order.iden, { amount: '0.99' }));
    expect(cheap.body).not.toBe('OK');
    const euros = await fake.sendPingback(payment(buyer, order.iden, { currencyCode: 'EUR' }));
    expect(euros.body).not.toBe('OK');
    // An amount with no currency cannot be checked: refused rather than passed.
    const half = await fake.sendPingback({ type: 0, uid: buyer.userId, goodsid: order.iden, amount: '1.99' });
    expect(half.body).not.toBe('OK');
    expect(await statusOf(buyer, order.iden)).toBe('pending');
    expect((await balanceOf(buyer)).balance).toBe(0);
    // The right amount, sent afterwards, pays it.
    expect(await fake.sendPingback(payment(buyer, order.iden))).toEqual({ status: 200, body: 'OK' });
    expect(await statusOf(buyer, order.iden)).toBe('paid');
  });

  it('refuses a pingback for an unknown order or another buyer, and acknowledges types it does not act on', async () => {
    const buyer = await registerUser(t);
    const other = await registerUser(t);
    const { order } = await checkout(buyer, 'credits-100');
    const unknown = await fake.sendPingback(payment(buyer, 'no-such-order'));
    expect(unknown).toEqual({ status: 404, body: 'ERROR' });
    const stranger = await fake.sendPingback(payment(other, order.iden));
    expect(stranger.body).not.toBe('OK');
    // Under risk review (200): nothing yet, but the pingback is handled.
    expect(await fake.sendPingback(payment(buyer, order.iden, { type: 200 }))).toEqual({ status: 200, body: 'OK' });
    expect(await statusOf(buyer, order.iden)).toBe('pending');
  });

  it('a goodwill credit (type 1) delivers the order', async () => {
    const buyer = await registerUser(t);
    const { order } = await checkout(buyer, 'credits-100');
    const sent = await fake.sendPingback({ type: 1, uid: buyer.userId, goodsid: order.iden });
    expect(sent).toEqual({ status: 200, body: 'OK' });
    expect(await statusOf(buyer, order.iden)).toBe('paid');
    expect((await balanceOf(buyer)).balance).toBe(100);
  });

  it('a chargeback after the credits were spent: refunded, no negative balance, shortfall shown, buyer flagged', async () => {
    const buyer = await registerUser(t);
    const { order } = await checkout(buyer, 'credits-100');
    const ref = `cb-${order.iden}`;
    expect(await fake.sendPingback(payment(buyer, order.iden, { ref }))).toMatchObject({ body: 'OK' });
    await spendCredits(t, buyer.token, 60);
    expect((await balanceOf(buyer)).balance).toBe(40);

    const back = { type: 2, uid: buyer.userId, goodsid: order.iden, ref, reason: '1' };
    expect(await fake.sendPingback(back)).toEqual({ status: 200, body: 'OK' });
    // Sent again: the same event, applied once.
    expect(await fake.sendPingback(back)).toEqual({ status: 200, body: 'OK' });

    expect(await statusOf(buyer, order.iden)).toBe('refunded');
    expect((await balanceOf(buyer)).balance).toBe(0);
    const { token } = await anAdmin(t);
    const orders = await ok<{ orders: { iden: string; payment: { shortfallCredits: number } }[] }>(
      t,
      '/api/admin/orders/list',
      { token, userId: buyer.userId },
    );
    expect(orders.orders.find((o) => o.iden === order.iden)?.payment.shortfallCredits).toBe(60);
    const users = await ok<{ users: { id: string; flaggedAt: string | null; flagReason: string | null }[] }>(
      t,
      '/api/admin/users/list',
      { token, query: buyer.email },
    );
    const flagged = users.users.find((u) => u.id === buyer.userId);
    expect(flagged?.flaggedAt).not.toBeNull();
    expect(flagged?.flagReason).toContain('chargeback');
    await expectLedgerMatchesBalances(t);
  });

  it('a subscription: the widget bills its period, and each renewal extends it by one period, once', async () => {
    const buyer = await registerUser(t);
    const { order, payment: pay } = await checkout(buyer, 'monthly');
    const params = new URL(pay.url).searchParams;
    expect(Object.fromEntries(params)).toMatchObject({
      amount: '2.99',
      ag_type: 'subscription',
      ag_period_length: '1',
      ag_period_type: 'month',
      ag_recurring: '1',
    });
    const { pingback } = await payOnWidget(pay.url);
    expect(pingback).toMatchObject({ body: 'OK' });
    expect(pingback?.params).toMatchObject({ slength: '1', speriod: 'month' });
    expect(await statusOf(buyer, order.iden)).toBe('paid');
    const first = await monthlyEnd(buyer);
    expect(first).toBeGreaterThan(Date.now());

    // The first payment's pingback again (another type for the same ref): no renewal.
    const firstRef = pingback?.params['ref'];
    expect(
      await fake.sendPingback(
        payment(buyer, order.iden, { type: 201, ref: firstRef, amount: '2.99', slength: '1', speriod: 'month' }),
      ),
    ).toMatchObject({ body: 'OK' });
    expect(await monthlyEnd(buyer)).toBe(first);

    // A renewal has a ref of its own; sent 10 times at once, it extends the subscription once.
    const renewal = payment(buyer, order.iden, {
      ref: `renew-${order.iden}`,
      amount: '2.99',
      slength: '1',
      speriod: 'month',
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => fake.sendPingback(renewal)));
    expect(answers).toEqual(Array.from({ length: 10 }, () => ({ status: 200, body: 'OK' })));
    const second = await monthlyEnd(buyer);
    const day = 86_400_000;
    expect(second - first).toBeGreaterThanOrEqual(28 * day);
    expect(second - first).toBeLessThanOrEqual(31 * day);

    // A renewal billed at another amount does not extend it.
    const cheap = await fake.sendPingback({ ...renewal, ref: `cheap-${order.iden}`, amount: '0.99' });
    expect(cheap.body).not.toBe('OK');
    expect(await monthlyEnd(buyer)).toBe(second);

    const { token } = await anAdmin(t);
    const orders = await ok<{ orders: { iden: string; payment: { refs: { kind: string; ref: string }[] } }[] }>(
      t,
      '/api/admin/orders/list',
      { token, userId: buyer.userId },
    );
    expect(orders.orders.find((o) => o.iden === order.iden)?.payment.refs).toEqual(
      expect.arrayContaining([
        { kind: 'payment', ref: firstRef },
        { kind: 'renewal', ref: `renew-${order.iden}` },
      ]),
    );
  });

  it('a risk review: 200 waits, 201 pays; 202 fails an order still pending', async () => {
    const buyer = await registerUser(t);
    const { order } = await checkout(buyer, 'credits-100');
    const ref = `risk-${order.iden}`;
    expect(await fake.sendPingback(payment(buyer, order.iden, { type: 200, ref }))).toMatchObject({ body: 'OK' });
    expect(await statusOf(buyer, order.iden)).toBe('pending');
    expect(await fake.sendPingback(payment(buyer, order.iden, { type: 201, ref }))).toMatchObject({ body: 'OK' });
    expect(await statusOf(buyer, order.iden)).toBe('paid');
    expect((await balanceOf(buyer)).balance).toBe(100);

    const declined = await checkout(buyer, 'credits-100');
    const no = payment(buyer, declined.order.iden, { type: 202, ref: `risk-${declined.order.iden}` });
    expect(await fake.sendPingback(no)).toMatchObject({ body: 'OK' });
    expect(await statusOf(buyer, declined.order.iden)).toBe('failed');
  });

  it('a subscription cancelled at Paymentwall (12) is ended; the time paid stays', async () => {
    const buyer = await registerUser(t);
    const { order, payment: pay } = await checkout(buyer, 'monthly');
    expect((await payOnWidget(pay.url)).pingback).toMatchObject({ body: 'OK' });
    const end = await monthlyEnd(buyer);
    const cancelled = { type: 12, uid: buyer.userId, goodsid: order.iden, ref: `end-${order.iden}` };
    expect(await fake.sendPingback(cancelled)).toEqual({ status: 200, body: 'OK' });
    const { token } = await anAdmin(t);
    const orders = await ok<{
      orders: { iden: string; status: string; payment: { subscriptionEndedAt: string | null } }[];
    }>(t, '/api/admin/orders/list', { token, userId: buyer.userId });
    const ended = orders.orders.find((o) => o.iden === order.iden);
    expect(ended?.status).toBe('paid');
    expect(ended?.payment.subscriptionEndedAt).not.toBeNull();
    expect(await monthlyEnd(buyer)).toBe(end);
  });

  it('after all of it, the ledger sums to every balance', async () => {
    await expectLedgerMatchesBalances(t);
  });
});

describe.each(dialects)('paywall pingbacks from outside the allow list on %s', (dialect) => {
  let t: TestApp;
  let fake: FakePaymentwall;
  beforeAll(async () => {
    // The fake sends from 127.0.0.1, which this list leaves out.
    ({ t, fake } = await startPaywallApp(dialect, ['203.0.113.0/24']));
  });
  afterAll(async () => {
    await fake.close();
    await t.close();
  });

  it('refuses a pingback with a valid signature and applies nothing', async () => {
    const buyer = await registerUser(t);
    const { order } = await ok<Checkout>(t, '/api/store/doCheckout', {
      token: buyer.token,
      products: 'credits-100',
      provider: 'paywall',
    });
    const sent = await fake.sendPingback({
      type: 0,
      uid: buyer.userId,
      goodsid: order.iden,
      amount: '1.99',
      currencyCode: 'USD',
    });
    expect(sent).toEqual({ status: 403, body: 'ERROR' });
    const status = await post(t, '/api/store/orderStatus', { token: buyer.token, iden: order.iden });
    expect(status).toMatchObject({ code: 900, data: { status: 'pending' } });
    const events = await t.ctx.db.kysely.selectFrom('payment_events').select('event_id').execute();
    expect(events).toEqual([]);
  });
});
