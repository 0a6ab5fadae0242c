import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@till/protocol';
import { DefaultProvider } from '../modules/payments/providers/sandbox/provider.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { FakeStripe, newWebhookSecret } from '@till/test-support/fake-stripe';
import { anAdmin, giveCredits, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

const sessionIdOf = (url: string) => /cs_test_[A-Za-z0-9]+/.exec(url)?.[0] ?? '';

/**
 * The buyer's own answers (orderStatus and the orders list) carry each order's refunds: what money
 * and credits went back, when, and whether what the order granted was taken back, whether an
 * administrator refunded it here or the provider confirmed a refund.
 */
describe.each(dialects)("refunds in the buyer's order answers on %s", (dialect) => {
  let t: TestApp;
  let stripe: FakeStripe;
  let admin: { token: string };

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
    admin = await anAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  /** An order paid through the sandbox provider, as its checkout page pays it. */
  async function paidOrder(token: string, products: string): Promise<Order> {
    const { order } = await ok<{ order: Order }>(t, '/api/store/doCheckout', { token, products });
    const note = new DefaultProvider(t.ctx.config).signNotification({
      eventId: `evt-${order.iden}`,
      orderId: order.iden,
      outcome: 'paid',
      amount: order.total.amount,
      currency: order.total.currency,
    });
    await ok(t, '/api/payments/notify/default', note);
    return order;
  }
  const refund = (iden: string, extra: Record<string, unknown> = {}) =>
    ok(t, '/api/admin/orders/refund', { token: admin.token, iden, ...extra });
  const seen = async (token: string, iden: string) => {
    const one = (await ok<{ order: Order }>(t, '/api/store/orderStatus', { token, iden })).order;
    const { orders } = await ok<{ orders: Order[] }>(t, '/api/store/orders', { token, page: 1, pageSize: 50 });
    expect(orders.find((o) => o.iden === iden)).toEqual(one);
    return one;
  };

  it('shows no refunds on an order that has none', async () => {
    const b = await registerUser(t);
    const order = await paidOrder(b.token, 'credits-100');
    expect((await seen(b.token, order.iden)).refunds).toEqual([]);
  });

  it('shows a part of the money given back as money only, the order still paid; then the rest, taken back', async () => {
    const b = await registerUser(t);
    const order = await paidOrder(b.token, 'credits-100;credits-100');
    expect(order.total.amount).toBe(398);
    await refund(order.iden, { amount: 100, keepGrants: true });
    const part = await seen(b.token, order.iden);
    expect(part.status).toBe('paid');
    expect(part.refunds).toEqual([
      { amount: { amount: 100, currency: 'USD' }, credits: 0, at: expect.any(String), grantsTakenBack: false },
    ]);
    await refund(order.iden);
    const whole = await seen(b.token, order.iden);
    expect(whole.status).toBe('refunded');
    expect(whole.refunds).toEqual([
      part.refunds?.[0],
      { amount: { amount: 298, currency: 'USD' }, credits: 0, at: expect.any(String), grantsTakenBack: true },
    ]);
    expect(Date.parse(whole.refunds?.[1]?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(part.refunds?.[0]?.at ?? ''));
  });

  it('shows the credits an order paid with credits got back', async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 500);
    const { order } = await ok<{ order: Order }>(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['pro-unlock']),
    });
    await refund(order.iden);
    const refunded = await seen(b.token, order.iden);
    expect(refunded.status).toBe('refunded');
    expect(refunded.refunds).toEqual([
      { amount: { amount: 0, currency: 'USD' }, credits: 500, at: expect.any(String), grantsTakenBack: true },
    ]);
  });

  it('shows a refund made at the provider, with the money it gave back and when the order closed', async () => {
    const b = await registerUser(t);
    const made = await ok<{ order: Order; payment: { url: string } }>(t, '/api/store/doCheckout', {
      token: b.token,
      provider: 'card',
      products: 'pro-unlock',
    });
    await stripe.pay(sessionIdOf(made.payment.url));
    await stripe.flush();
    expect((await seen(b.token, made.order.iden)).refunds).toEqual([]);
    // Refunded in Stripe's dashboard: Stripe's event closes the order.
    const intent = stripe.objects('payment_intent').find((p) => p.metadata.iden === made.order.iden);
    const charge = stripe.objects('charge').find((c) => c.payment_intent === intent?.id);
    await stripe.refund(charge?.id ?? '');
    await stripe.flush();
    const refunded = await seen(b.token, made.order.iden);
    expect(refunded.status).toBe('refunded');
    expect(refunded.refunds).toEqual([
      { amount: { amount: 499, currency: 'USD' }, credits: 0, at: expect.any(String), grantsTakenBack: true },
    ]);
  });
});
