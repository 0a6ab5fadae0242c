import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Entitlement, Order } from '@till/protocol';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { FakeStripe, newWebhookSecret } from '@till/test-support/fake-stripe';
import { giveCredits, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

const sessionIdOf = (url: string) => /cs_test_[A-Za-z0-9]+/.exec(url)?.[0] ?? '';

/**
 * Where a subscription stands, in the buyer's order answers and entitlements, and the buyer's wish
 * to end it at its period's end: on the card route Stripe's cancel at period end, once; in an app
 * store, its settings page; a subscription that does not renew has nothing to end.
 */
describe.each(dialects)('subscriptions as the buyer sees them on %s', (dialect) => {
  let t: TestApp;
  let stripe: FakeStripe;

  beforeAll(async () => {
    stripe = new FakeStripe();
    await stripe.start();
    const secret = newWebhookSecret();
    t = await startTestApp({
      dialect,
      listen: true,
      config: {
        payments: {
          card: { secretKey: stripe.secretKey, webhookSecret: secret, apiUrl: stripe.url },
          paywall: undefined,
        },
      },
    });
    stripe.webhook = { url: `${t.url}/api/payments/webhook/stripe`, secret };
  });
  afterEach(() => stripe.flush());
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const order = async (token: string, iden: string) =>
    (await ok<{ order: Order }>(t, '/api/store/orderStatus', { token, iden })).order;
  const listed = async (token: string, iden: string) =>
    (await ok<{ orders: Order[] }>(t, '/api/store/orders', { token, page: 1, pageSize: 50 })).orders.find(
      (o) => o.iden === iden,
    );
  const monthly = async (token: string) =>
    (await ok<{ entitlements: Entitlement[] }>(t, '/api/store/entitlements', { token })).entitlements.find(
      (e) => e.productId === 'monthly' || e.alias === 'monthly',
    );
  async function cardSubscription() {
    const b = await registerUser(t);
    const made = await ok<{ order: Order; payment: { url: string } }>(t, '/api/store/doCheckout', {
      token: b.token,
      provider: 'card',
      products: 'monthly',
    });
    await stripe.pay(sessionIdOf(made.payment.url));
    await stripe.flush();
    return { b, iden: made.order.iden };
  }

  it('says a card subscription renews on its end date, and ends it at the period end once asked', async () => {
    const { b, iden } = await cardSubscription();
    const before = await order(b.token, iden);
    expect(before.status).toBe('paid');
    expect(before.subscription).toEqual({ until: expect.any(String), renews: true, manage: 'cancel', manageUrl: null });
    expect(Date.parse(before.subscription?.until ?? '')).toBeGreaterThan(Date.now());
    expect(await listed(b.token, iden)).toEqual(before);
    expect(await monthly(b.token)).toMatchObject({ active: true, renews: true, expiresAt: before.subscription?.until });

    // Asked several times at once (a double tap, two devices): every answer says it is done.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => ok<{ order: Order }>(t, '/api/store/endSubscription', { token: b.token, iden })),
    );
    for (const answer of answers)
      expect(answer.order.subscription).toEqual({
        until: before.subscription?.until,
        renews: false,
        manage: null,
        manageUrl: null,
      });
    // Stripe was asked to cancel at the period's end, keyed by the order: one change, still active.
    const asked = stripe.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/subscriptions/'));
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(new Set(asked.map((r) => r.idempotencyKey))).toEqual(new Set([`till-period-end-${iden}`]));
    expect(asked[0]?.params).toEqual({ cancel_at_period_end: 'true' });
    const [sub] = stripe.objects('subscription').filter((s) => s.metadata.iden === iden);
    expect(sub).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect((await order(b.token, iden)).subscription?.renews).toBe(false);
    expect(await monthly(b.token)).toMatchObject({ active: true, renews: false });
  });

  it('has nothing to end for a subscription paid with credits, which does not renew', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 300);
    const bought = await ok<{ order: Order }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['monthly']),
    });
    const seen = await order(b.token, bought.order.iden);
    expect(seen.subscription).toEqual({ until: expect.any(String), renews: false, manage: null, manageUrl: null });
    expect(await monthly(b.token)).toMatchObject({ active: true, renews: false });
    const refused = await t.call('/api/store/endSubscription', { token: b.token, iden: bought.order.iden });
    expect(refused).toMatchObject({ code: 912, reason: 'not_renewing' });
  });

  it("points an App Store subscription to the store's settings, and ends nothing itself", async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 300);
    const bought = await ok<{ order: Order }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['monthly']),
    });
    // As validatePurchase records an App Store purchase: paid through the store's route.
    await t.ctx.db.kysely
      .updateTable('orders')
      .set({ provider: 'appstore' })
      .where('id', '=', bought.order.iden)
      .execute();
    expect((await order(b.token, bought.order.iden)).subscription).toEqual({
      until: expect.any(String),
      renews: true,
      manage: 'store',
      manageUrl: 'https://apps.apple.com/account/subscriptions',
    });
    const refused = await t.call('/api/store/endSubscription', { token: b.token, iden: bought.order.iden });
    expect(refused).toMatchObject({ code: 912, reason: 'not_renewing' });
  });

  it("answers 904 for another buyer's order, and leaves other orders without a subscription", async () => {
    const { iden } = await cardSubscription();
    const other = await registerUser(t);
    expect(await t.call('/api/store/endSubscription', { token: other.token, iden })).toMatchObject({ code: 904 });
    const made = await ok<{ order: Order }>(t, '/api/store/doCheckout', { token: other.token, products: 'pro-unlock' });
    expect((await order(other.token, made.order.iden)).subscription).toBeUndefined();
  });
});
