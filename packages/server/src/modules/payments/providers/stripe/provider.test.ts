import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { FakeStripe, newWebhookSecret, type EventObject } from '@till/test-support/fake-stripe';
import { anAdmin, expectLedgerMatchesBalances, ok, saveCoupon, spendCredits } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

interface Checkout {
  order: { iden: string; status: string; total: { amount: number; currency: string } };
  payment: { provider: string; url: string };
}
interface AdminOrder {
  iden: string;
  status: string;
  payment: { refs: { kind: string; ref: string }[]; refundRequestedAt: string | null; shortfallCredits: number };
}

const sessionIdOf = (url: string) => /cs_test_[A-Za-z0-9]+/.exec(url)?.[0] ?? '';

describe.each(dialects)('card route (Stripe Checkout) on %s', (dialect) => {
  let t: TestApp;
  let stripe: FakeStripe;
  let secret: string;
  let hook: string;

  beforeAll(async () => {
    stripe = new FakeStripe();
    await stripe.start();
    secret = newWebhookSecret();
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
    hook = `${t.url}/api/payments/webhook/stripe`;
    stripe.webhook = { url: hook, secret };
  });
  afterEach(() => stripe.flush());
  afterAll(async () => {
    await stripe.close();
    await t.close();
  });

  const buyer = () => registerUser(t);
  const checkout = (token: string, fields: Record<string, unknown>) =>
    ok<Checkout>(t, '/api/store/doCheckout', { token, provider: 'card', ...fields });
  const status = async (token: string, iden: string) =>
    (await ok<{ status: string }>(t, '/api/store/orderStatus', { token, iden })).status;
  const balance = async (token: string) =>
    (await ok<{ balance: number }>(t, '/api/store/credits', { token, page: 1, pageSize: 5 })).balance;
  const adminOrder = async (iden: string) => {
    const { token } = await anAdmin(t);
    const { orders } = await ok<{ orders: AdminOrder[] }>(t, '/api/admin/orders/list', {
      token,
      provider: 'card',
      page: 1,
      pageSize: 100,
    });
    const found = orders.find((o) => o.iden === iden);
    if (!found) throw new Error(`order ${iden} not listed`);
    return found;
  };
  const chargeOf = (iden: string) => {
    const intent = stripe.objects('payment_intent').find((p) => p.metadata.iden === iden);
    const charge = stripe.objects('charge').find((c) => c.payment_intent === intent?.id);
    if (!charge) throw new Error(`no charge for ${iden}`);
    return charge.id;
  };

  it('is offered by getCheckoutForm, and makes a Checkout Session of the order, once per attempt', async () => {
    const form = await ok<{ providers: { provider: string }[] }>(t, '/api/store/getCheckoutForm', {
      products: 'credits-100',
    });
    expect(form.providers.map((p) => p.provider)).toContain('card');
    const b = await buyer();
    const before = stripe.requests.length;
    const made = await checkout(b.token, { products: 'credits-100;credits-100' });
    expect(made.payment.provider).toBe('card');
    expect(made.payment.url.startsWith(`${stripe.url}/`)).toBe(true);
    const create = stripe.requests.slice(before).find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(create?.idempotencyKey).toBe(`till-checkout-${made.order.iden}-0`);
    expect(create?.params).toMatchObject({
      mode: 'payment',
      client_reference_id: made.order.iden,
      metadata: { iden: made.order.iden },
      payment_intent_data: { metadata: { iden: made.order.iden } },
      success_url: `${t.url}/orders/${made.order.iden}`,
      cancel_url: `${t.url}/orders/${made.order.iden}`,
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'usd', unit_amount: '398', product_data: { name: '100 credits × 2' } },
        },
      ],
    });
    // Paying it again while the session is open answers the same page and makes no second session.
    const again = await checkout(b.token, { pastOrder: made.order.iden });
    expect(again.payment.url).toBe(made.payment.url);
    expect(stripe.objects('checkout.session').filter((s) => s.client_reference_id === made.order.iden)).toHaveLength(1);
  });

  it('shares a discount over the lines so Stripe charges exactly the order total', async () => {
    await saveCoupon(t, { code: 'CARD15', kind: 'discount', percentOff: 15, active: true });
    const b = await buyer();
    const made = await checkout(b.token, { products: 'credits-100;pro-unlock', couponCode: 'CARD15' });
    const session = stripe.object(sessionIdOf(made.payment.url)) as { amount_total: number };
    expect(made.order.total.amount).toBe(199 + 499 - Math.floor(((199 + 499) * 15 + 50) / 100));
    expect(session.amount_total).toBe(made.order.total.amount);
  });

  it('asks Stripe nothing for an order paid at once, and fails a new order Stripe refuses, giving its coupon back', async () => {
    await saveCoupon(t, { code: 'CARDFREE', kind: 'discount', percentOff: 100, active: true });
    const b = await buyer();
    const before = stripe.requests.length;
    const free = await checkout(b.token, { products: 'credits-100', couponCode: 'CARDFREE' });
    expect(free.order.status).toBe('paid');
    expect(free.payment.url).toBe(`${t.url}/orders/${free.order.iden}`);
    expect(stripe.requests.length).toBe(before);

    await saveCoupon(t, { code: 'CARDONCE', kind: 'discount', percentOff: 5, usageLimit: 1, active: true });
    stripe.failNext(500, { type: 'api_error', message: 'Something went wrong on our end' });
    stripe.failNext(500, { type: 'api_error', message: 'Something went wrong on our end' });
    stripe.failNext(500, { type: 'api_error', message: 'Something went wrong on our end' });
    const refused = await t.call('/api/store/doCheckout', {
      token: b.token,
      provider: 'card',
      products: 'credits-100',
      couponCode: 'CARDONCE',
    });
    expect(refused).toEqual({ code: 910, reason: 'provider_error' });
    // The order made for it failed and gave the coupon back: another buyer can use it.
    const other = await buyer();
    expect((await checkout(other.token, { products: 'credits-100', couponCode: 'CARDONCE' })).order.status).toBe(
      'pending',
    );
  });

  it('turns the order paid with its grants when Stripe says the session is paid', async () => {
    const b = await buyer();
    const made = await checkout(b.token, { products: 'credits-100' });
    const events = await stripe.pay(sessionIdOf(made.payment.url));
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed']);
    expect(stripe.deliveries.at(-1)?.status).toBe(200);
    expect(await status(b.token, made.order.iden)).toBe('paid');
    expect(await balance(b.token)).toBe(100);
    const order = await adminOrder(made.order.iden);
    expect(order.payment.refs.map((r) => r.kind).sort()).toEqual(['payment', 'session']);
    await expectLedgerMatchesBalances(t);
  });

  it('refuses a webhook with a bad or stale signature (400) and applies nothing', async () => {
    const b = await buyer();
    const made = await checkout(b.token, { products: 'credits-100' });
    stripe.webhook = undefined;
    const [completed] = await stripe.pay(sessionIdOf(made.payment.url));
    stripe.webhook = { url: hook, secret };
    expect((await stripe.deliver(hook, completed!, { secret: newWebhookSecret() })).status).toBe(400);
    const stale = Math.floor(Date.now() / 1000) - 301;
    expect((await stripe.deliver(hook, completed!, { secret, timestamp: stale })).status).toBe(400);
    const tampered = await fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: JSON.stringify(completed),
    });
    expect(tampered.status).toBe(400);
    expect(await status(b.token, made.order.iden)).toBe('pending');
    expect((await stripe.deliver(hook, completed!, { secret })).status).toBe(200);
    expect(await status(b.token, made.order.iden)).toBe('paid');
  });

  it('applies the same event sent 10 times at once exactly once', async () => {
    const b = await buyer();
    const made = await checkout(b.token, { products: 'credits-100' });
    stripe.webhook = undefined;
    const [completed] = await stripe.pay(sessionIdOf(made.payment.url));
    stripe.webhook = { url: hook, secret };
    const answers = await Promise.all(Array.from({ length: 10 }, () => stripe.deliver(hook, completed!, { secret })));
    expect(answers.map((a) => a.status)).toEqual(Array<number>(10).fill(200));
    expect(answers.filter((a) => JSON.parse(a.body).applied === true)).toHaveLength(1);
    expect(await balance(b.token)).toBe(100);
    await expectLedgerMatchesBalances(t);
  });

  it('waits for a delayed payment, then pays or fails the order by its outcome', async () => {
    const b = await buyer();
    const first = await checkout(b.token, { products: 'credits-100' });
    await stripe.pay(sessionIdOf(first.payment.url), { async: true });
    expect(await status(b.token, first.order.iden)).toBe('pending');
    await stripe.settleAsync(sessionIdOf(first.payment.url));
    expect(await status(b.token, first.order.iden)).toBe('paid');

    const second = await checkout(b.token, { products: 'credits-100' });
    await stripe.pay(sessionIdOf(second.payment.url), { async: true });
    await stripe.failAsync(sessionIdOf(second.payment.url));
    expect(await status(b.token, second.order.iden)).toBe('failed');
    expect(await balance(b.token)).toBe(100);
  });

  it('fails an expired session’s order and gives its coupon use back; a new attempt makes a new session', async () => {
    await saveCoupon(t, { code: 'ONCECARD', kind: 'discount', percentOff: 10, usageLimit: 1, active: true });
    const b = await buyer();
    const made = await checkout(b.token, { products: 'credits-100', couponCode: 'ONCECARD' });
    const again = await buyer();
    const refused = await t.call('/api/store/doCheckout', {
      token: again.token,
      provider: 'card',
      products: 'credits-100',
      couponCode: 'ONCECARD',
    });
    expect(refused).toMatchObject({ code: 908, reason: 'used_up' });
    await stripe.expire(sessionIdOf(made.payment.url));
    expect(await status(b.token, made.order.iden)).toBe('failed');
    const now = await checkout(again.token, { products: 'credits-100', couponCode: 'ONCECARD' });
    expect(now.order.status).toBe('pending');

    // A pending order whose session expired gets a new session with the next idempotency key.
    const other = await checkout(b.token, { products: 'credits-100' });
    stripe.webhook = undefined;
    await stripe.expire(sessionIdOf(other.payment.url));
    stripe.webhook = { url: hook, secret };
    const retried = await checkout(b.token, { pastOrder: other.order.iden });
    expect(retried.payment.url).not.toBe(other.payment.url);
    expect(stripe.requests.at(-1)?.idempotencyKey).toBe(`till-checkout-${other.order.iden}-1`);
  });

  it('reverses the grants on a refund and on a dispute, never below zero, flagging what is left', async () => {
    const b = await buyer();
    const refunded = await checkout(b.token, { products: 'credits-100' });
    await stripe.pay(sessionIdOf(refunded.payment.url));
    expect(await balance(b.token)).toBe(100);
    await stripe.refund(chargeOf(refunded.order.iden));
    expect(await status(b.token, refunded.order.iden)).toBe('refunded');
    expect(await balance(b.token)).toBe(0);

    const disputed = await checkout(b.token, { products: 'credits-100' });
    await stripe.pay(sessionIdOf(disputed.payment.url));
    // The buyer spends 60 of the 100 credits before the chargeback arrives.
    await spendCredits(t, b.token, 60);
    expect(await balance(b.token)).toBe(40);
    await stripe.dispute(chargeOf(disputed.order.iden));
    expect(await status(b.token, disputed.order.iden)).toBe('refunded');
    expect(await balance(b.token)).toBe(0);
    expect((await adminOrder(disputed.order.iden)).payment.shortfallCredits).toBe(60);
    const { token } = await anAdmin(t);
    const { users } = await ok<{ users: { id: string; flaggedAt: string | null; flagReason: string | null }[] }>(
      t,
      '/api/admin/users/list',
      { token, query: b.email, page: 1, pageSize: 5 },
    );
    expect(users[0]?.flaggedAt).not.toBeNull();
    expect(users[0]?.flagReason).toContain('chargeback');
    await expectLedgerMatchesBalances(t);
  });

  it('ends in the right state when events come out of order', async () => {
    const b = await buyer();
    // A refund confirmed before the payment: refunded, nothing granted; the late completion changes nothing.
    const early = await checkout(b.token, { products: 'credits-100' });
    stripe.webhook = undefined;
    const [completed] = await stripe.pay(sessionIdOf(early.payment.url));
    const refundEvents = await stripe.refund(chargeOf(early.order.iden));
    stripe.webhook = { url: hook, secret };
    const refundedEvent = refundEvents.find((e) => e.type === 'charge.refunded') as EventObject;
    expect((await stripe.deliver(hook, refundedEvent, { secret })).status).toBe(200);
    expect(await status(b.token, early.order.iden)).toBe('refunded');
    expect((await stripe.deliver(hook, completed!, { secret })).status).toBe(200);
    expect(await status(b.token, early.order.iden)).toBe('refunded');
    expect(await balance(b.token)).toBe(0);

    // A completion after the buyer cancelled the order: the money is given back, nothing granted.
    const late = await checkout(b.token, { products: 'credits-100' });
    await ok(t, '/api/store/cancelOrder', { token: b.token, iden: late.order.iden });
    await stripe.pay(sessionIdOf(late.payment.url));
    await stripe.flush();
    expect(await status(b.token, late.order.iden)).toBe('cancelled');
    const refund = stripe.requests.find(
      (r) => r.path === '/v1/refunds' && r.idempotencyKey === `till-refund-${late.order.iden}`,
    );
    expect(refund?.params).toMatchObject({ metadata: { iden: late.order.iden } });
    expect(await balance(b.token)).toBe(0);
    await expectLedgerMatchesBalances(t);
  });

  it('asks Stripe for an administrator’s refund once, and refunds the order when Stripe confirms', async () => {
    const b = await buyer();
    const made = await checkout(b.token, { products: 'credits-100' });
    await stripe.pay(sessionIdOf(made.payment.url));
    const { token } = await anAdmin(t);
    const asked = (await Promise.all(
      [1, 2, 3].map(() => t.call('/api/admin/orders/refund', { token, iden: made.order.iden })),
    )) as ({ code: 900; data: { order: AdminOrder } } | { code: 912; status: string })[];
    // Stripe's confirmation may come back before a later ask has read the order: that ask finds it
    // refunded already (912), never paid twice.
    for (const a of asked) {
      if (a.code === 912) expect(a.status).toBe('refunded');
      else expect(a.data.order.status).toMatch(/^(paid|refunded)$/);
    }
    expect(asked.some((a) => a.code === 900)).toBe(true);
    await stripe.flush();
    expect(stripe.objects('refund').filter((r) => r.metadata?.iden === made.order.iden)).toHaveLength(1);
    expect(await status(b.token, made.order.iden)).toBe('refunded');
    const order = await adminOrder(made.order.iden);
    expect(order.payment.refundRequestedAt).not.toBeNull();
    expect(await balance(b.token)).toBe(0);
  });

  it('gives part of a card payment back at Stripe, keyed per refund; the order stays paid with its grants', async () => {
    const b = await buyer();
    const made = await checkout(b.token, { products: 'credits-100' });
    await stripe.pay(sessionIdOf(made.payment.url));
    const { token } = await anAdmin(t);
    const part = await ok<{ order: AdminOrder & { payment: { refundedAmount: number } } }>(
      t,
      '/api/admin/orders/refund',
      { token, iden: made.order.iden, amount: 50, keepGrants: true },
    );
    expect(part.order.payment.refundedAmount).toBe(50);
    await stripe.flush();
    const asked = stripe.requests.filter(
      (r) => r.path === '/v1/refunds' && r.idempotencyKey?.startsWith(`till-refund-${made.order.iden}-`),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]?.params).toMatchObject({ amount: '50', metadata: { iden: made.order.iden } });
    // Stripe's partial refund changes no status: the order and its credits stay.
    expect(await status(b.token, made.order.iden)).toBe('paid');
    expect(await balance(b.token)).toBe(100);
    // All the rest as money only would make Stripe reverse the order: refused, nothing asked.
    expect(
      await t.call('/api/admin/orders/refund', { token, iden: made.order.iden, amount: 149, keepGrants: true }),
    ).toEqual({ code: 912, status: 'paid', reason: 'provider_reverses' });
    expect(stripe.objects('refund').filter((r) => r.metadata?.iden === made.order.iden)).toHaveLength(1);
    // The whole refund of what is left still works, and takes the grants back once Stripe confirms.
    await ok(t, '/api/admin/orders/refund', { token, iden: made.order.iden });
    await stripe.flush();
    expect(await status(b.token, made.order.iden)).toBe('refunded');
    expect(await balance(b.token)).toBe(0);
    await expectLedgerMatchesBalances(t);
  });

  it('bills a subscription as a Stripe subscription: renewals extend it, the end stops them', async () => {
    const b = await buyer();
    const made = await checkout(b.token, { products: 'monthly' });
    const create = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(create?.params).toMatchObject({
      mode: 'subscription',
      subscription_data: { metadata: { iden: made.order.iden } },
      line_items: [{ price_data: { unit_amount: '299', recurring: { interval: 'month', interval_count: '1' } } }],
    });
    await stripe.pay(sessionIdOf(made.payment.url));
    expect(await status(b.token, made.order.iden)).toBe('paid');
    const until = async () => {
      const { entitlements } = await ok<{ entitlements: { productId: string; expiresAt: string }[] }>(
        t,
        '/api/store/entitlements',
        { token: b.token },
      );
      return Date.parse(entitlements.find((e) => e.productId === 'monthly')?.expiresAt ?? '');
    };
    const first = await until();
    const subscription = (await adminOrder(made.order.iden)).payment.refs.find((r) => r.kind === 'subscription')?.ref;
    expect(subscription).toMatch(/^sub_/);
    const renewal = await stripe.renew(subscription!);
    expect(renewal.map((e) => e.type)).toContain('invoice.paid');
    const second = await until();
    expect(second - first).toBeGreaterThanOrEqual(28 * 86_400_000);
    // The same renewal again changes nothing.
    await stripe.deliver(
      hook,
      renewal.find((e) => e.type === 'invoice.paid')!,
      { secret },
    );
    expect(await until()).toBe(second);
    await stripe.cancelSubscription(subscription!);
    const ended = await adminOrder(made.order.iden);
    expect(ended.status).toBe('paid');
    expect(await until()).toBe(second);
  });

  it('acknowledges event types it does not use', async () => {
    const res = await stripe.deliver(
      hook,
      {
        id: 'evt_unused_1',
        object: 'event',
        type: 'customer.created',
        api_version: '2026-10-28.endive',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: { id: 'cus_1', object: 'customer' } },
      } as unknown as EventObject,
      { secret },
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ received: true, ignored: 'customer.created' });
  });
});
