import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe, newWebhookSecret, type EventObject } from './fake-stripe.js';
import { parseStripeForm } from './fake-stripe/form.js';

/** A tiny webhook endpoint that verifies each delivery with the library, as the server will. */
async function startReceiver(secret: string) {
  const received: Stripe.Event[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = Stripe.webhooks.constructEvent(
          Buffer.concat(chunks).toString('utf8'),
          req.headers['stripe-signature'] ?? '',
          secret,
        );
        received.push(event);
        res.writeHead(200).end('ok');
      } catch (error) {
        res.writeHead(400).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const paymentParams = (iden = 'ord_1'): Stripe.Checkout.SessionCreateParams => ({
  mode: 'payment',
  line_items: [
    { quantity: 2, price_data: { currency: 'EUR', unit_amount: 499, product_data: { name: 'Coffee' } } },
    { quantity: 1, price_data: { currency: 'eur', unit_amount: 250, product_data: { name: 'Cake' } } },
  ],
  client_reference_id: iden,
  metadata: { iden },
  success_url: `http://localhost:3000/orders/${iden}?session={CHECKOUT_SESSION_ID}`,
  cancel_url: `http://localhost:3000/orders/${iden}`,
});

const subscriptionParams: Stripe.Checkout.SessionCreateParams = {
  mode: 'subscription',
  line_items: [
    {
      quantity: 1,
      price_data: {
        currency: 'usd',
        unit_amount: 900,
        product_data: { name: 'Monthly plan' },
        recurring: { interval: 'month', interval_count: 1 },
      },
    },
  ],
  client_reference_id: 'sub_order',
  success_url: 'http://localhost:3000/orders/sub_order',
  cancel_url: 'http://localhost:3000/orders/sub_order',
};

const ofType = (events: EventObject[], type: string): EventObject => {
  const found = events.find((e) => e.type === type);
  if (!found) throw new Error(`no ${type} among ${events.map((e) => e.type).join(', ')}`);
  return found;
};

describe('parseStripeForm', () => {
  it('reads bracketed keys into nested objects and arrays', () => {
    expect(
      parseStripeForm(
        'mode=payment&line_items[0][price_data][unit_amount]=499&line_items[0][quantity]=2' +
          '&line_items[1][quantity]=1&metadata[iden]=x&metadata[0]=zero&expand[]=a&expand[]=b.c' +
          '&a%5Bb%5D=encoded',
      ),
    ).toEqual({
      mode: 'payment',
      line_items: [{ price_data: { unit_amount: '499' }, quantity: '2' }, { quantity: '1' }],
      metadata: { iden: 'x', 0: 'zero' },
      expand: ['a', 'b.c'],
      a: { b: 'encoded' },
    });
  });

  it('refuses a key that is both a value and a hash, and prototype keys', () => {
    expect(() => parseStripeForm('a=1&a[b]=2')).toThrow(/Invalid hash/);
    expect(() => parseStripeForm('metadata[__proto__]=x')).toThrow(/Invalid parameter/);
  });
});

describe('FakeStripe with the stripe library', () => {
  const fake = new FakeStripe();
  let stripe: Stripe;

  beforeAll(async () => {
    await fake.start();
    stripe = new Stripe(fake.secretKey, { ...fake.clientOptions(), maxNetworkRetries: 0 });
  });
  afterAll(() => fake.close());

  it('creates a payment-mode session and reads it back', async () => {
    const created = await stripe.checkout.sessions.create(paymentParams());
    expect(created).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 2 * 499 + 250,
      currency: 'eur',
      client_reference_id: 'ord_1',
      metadata: { iden: 'ord_1' },
      payment_intent: null,
      livemode: false,
    });
    expect(created.id).toMatch(/^cs_test_[A-Za-z0-9]{58}$/);
    expect(created.url).toBe(`${fake.url}/c/pay/${created.id}`);
    expect(created.expires_at - created.created).toBe(24 * 3600);
    expect(created.lastResponse.requestId).toMatch(/^req_/);

    const read = await stripe.checkout.sessions.retrieve(created.id, { expand: ['line_items'] });
    expect(read.id).toBe(created.id);
    expect(read.line_items?.data.map((i) => [i.description, i.quantity, i.amount_total])).toEqual([
      ['Coffee', 2, 998],
      ['Cake', 1, 250],
    ]);
    // The library sends Stripe's bracket encoding; the fake read it as nested params.
    expect(fake.requests.find((r) => r.method === 'POST')?.params).toMatchObject({
      line_items: [{ price_data: { unit_amount: '499', product_data: { name: 'Coffee' } }, quantity: '2' }, {}],
    });
  });

  it('creates a subscription-mode session', async () => {
    const session = await stripe.checkout.sessions.create(subscriptionParams);
    expect(session).toMatchObject({ mode: 'subscription', amount_total: 900, currency: 'usd', subscription: null });
  });

  it('replays an idempotent retry and keeps one session', async () => {
    const before = fake.objects('checkout.session').length;
    const first = await stripe.checkout.sessions.create(paymentParams('ord_idem'), {
      idempotencyKey: 'order-ord_idem',
    });
    const again = await stripe.checkout.sessions.create(paymentParams('ord_idem'), {
      idempotencyKey: 'order-ord_idem',
    });
    expect(again.id).toBe(first.id);
    expect(again.url).toBe(first.url);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    expect(fake.objects('checkout.session').length).toBe(before + 1);
  });

  it('refuses a reused key with other params with the library idempotency error', async () => {
    await stripe.checkout.sessions.create(paymentParams('ord_k'), { idempotencyKey: 'key-reused' });
    const error = await stripe.checkout.sessions
      .create(paymentParams('ord_other'), { idempotencyKey: 'key-reused' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(400);
  });

  it('answers a missing required param as StripeInvalidRequestError naming it', async () => {
    const { success_url: _omitted, ...params } = paymentParams();
    const error = await stripe.checkout.sessions.create(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ param: 'success_url', code: 'parameter_missing', statusCode: 400 });

    const nested = await stripe.checkout.sessions
      .create({
        ...paymentParams(),
        line_items: [{ quantity: 1, price_data: { currency: 'eur', product_data: { name: 'x' } } }],
      })
      .catch((e: unknown) => e);
    expect(nested).toMatchObject({ param: 'line_items[0][price_data][unit_amount]', code: 'parameter_missing' });

    const recurringInPayment = await stripe.checkout.sessions
      .create({ ...subscriptionParams, mode: 'payment' })
      .catch((e: unknown) => e);
    expect(recurringInPayment).toMatchObject({ param: 'line_items[0][price_data][recurring]' });
  });

  it('answers an unknown session as 404 resource_missing', async () => {
    const error = await stripe.checkout.sessions.retrieve('cs_test_nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such checkout.session: 'cs_test_nope'",
    });
  });

  it('answers a wrong key with StripeAuthenticationError', async () => {
    const wrong = new Stripe('sk_test_wrong_key_1234', { ...fake.clientOptions(), maxNetworkRetries: 0 });
    const error = await wrong.checkout.sessions.retrieve('cs_test_x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(401);
  });

  it('answers an unknown path as 404 in Stripe error shape', async () => {
    const response = await fetch(`${fake.url}/v1/nothing`, { headers: { authorization: `Bearer ${fake.secretKey}` } });
    expect(response.status).toBe(404);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(await response.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: /Unrecognized request URL/ },
    });
  });

  it('raises an injected card error as StripeCardError', async () => {
    fake.failNext(402, {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
    const error = await stripe.checkout.sessions.create(paymentParams()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });
  });

  describe('events and webhooks', () => {
    const secret = newWebhookSecret();
    let receiver: Awaited<ReturnType<typeof startReceiver>>;

    beforeAll(async () => {
      receiver = await startReceiver(secret);
    });
    afterAll(async () => {
      fake.webhook = undefined;
      await receiver.close();
    });

    it('sets a subscription to cancel at its period end, as Stripe answers and tells it', async () => {
      const session = await stripe.checkout.sessions.create(subscriptionParams);
      await fake.pay(session.id);
      const id = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
      const before = await stripe.subscriptions.retrieve(id);
      const periodEnd = Math.max(...before.items.data.map((i) => i.current_period_end));
      const updated = await stripe.subscriptions.update(id, { cancel_at_period_end: true });
      expect(updated).toMatchObject({
        object: 'subscription',
        id,
        status: 'active',
        cancel_at_period_end: true,
        cancel_at: periodEnd,
        cancellation_details: { reason: 'cancellation_requested' },
      });
      expect(updated.canceled_at).toEqual(expect.any(Number));
      expect(fake.requests.at(-1)).toMatchObject({
        method: 'POST',
        path: `/v1/subscriptions/${id}`,
        params: { cancel_at_period_end: 'true' },
      });
      const told = fake.events.filter((e) => e.type === 'customer.subscription.updated').at(-1);
      expect(told?.data).toMatchObject({
        object: { id, cancel_at_period_end: true },
        previous_attributes: { cancel_at_period_end: false, cancel_at: null },
      });
      // Undone by clearing it; a canceled subscription refuses the change in Stripe's words.
      expect(await stripe.subscriptions.update(id, { cancel_at_period_end: false })).toMatchObject({
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
      });
      await stripe.subscriptions.cancel(id);
      await expect(stripe.subscriptions.update(id, { cancel_at_period_end: true })).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
      });
    });

    it('pay() yields checkout.session.completed that constructEvent accepts', async () => {
      const session = await stripe.checkout.sessions.create(paymentParams('ord_pay'));
      const events = await fake.pay(session.id);
      expect(events.map((e) => e.type)).toEqual(['checkout.session.completed']);
      const event = events[0]!;
      expect(event).toMatchObject({ object: 'event', livemode: false, api_version: Stripe.API_VERSION });
      expect(event.id).toMatch(/^evt_/);

      const answer = await fake.deliver(receiver.url, event, { secret });
      expect(answer.status).toBe(200);
      const got = receiver.received.at(-1)!;
      expect(got.type).toBe('checkout.session.completed');
      const completed = got.data.object as Stripe.Checkout.Session;
      expect(completed).toMatchObject({
        id: session.id,
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: 'ord_pay',
      });

      const read = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent.latest_charge'] });
      const intent = read.payment_intent as Stripe.PaymentIntent;
      expect(intent).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 1248, currency: 'eur' });
      expect(intent.latest_charge).toMatchObject({ object: 'charge', status: 'succeeded', paid: true, amount: 1248 });
    });

    it('rejects a tampered body, a stale timestamp and a wrong secret', async () => {
      const session = await stripe.checkout.sessions.create(paymentParams('ord_tamper'));
      const [event] = await fake.pay(session.id);
      const payload = JSON.stringify(event, null, 2);
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
      expect(Stripe.webhooks.constructEvent(payload, header, secret).id).toBe(event!.id);
      expect(() => Stripe.webhooks.constructEvent(payload.replace('"paid"', '"unpaid"'), header, secret)).toThrow(
        Stripe.errors.StripeSignatureVerificationError,
      );

      const stale = await fake.deliver(receiver.url, event!, {
        secret,
        timestamp: Math.floor(Date.now() / 1000) - 600,
      });
      expect(stale.status).toBe(400);
      expect(stale.body).toMatch(/tolerance/i);
      const wrong = await fake.deliver(receiver.url, event!, { secret: newWebhookSecret() });
      expect(wrong.status).toBe(400);
    });

    it('delivers by itself once a webhook is configured, and after API calls', async () => {
      fake.webhook = { url: receiver.url, secret };
      const session = await stripe.checkout.sessions.create(paymentParams('ord_auto'));
      const before = receiver.received.length;
      await fake.pay(session.id);
      expect(receiver.received.length).toBe(before + 1);
      expect(fake.deliveries.at(-1)).toMatchObject({ status: 200, event: { type: 'checkout.session.completed' } });

      const intent = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
      const refund = await stripe.refunds.create({ payment_intent: intent, amount: 300 });
      expect(refund).toMatchObject({ object: 'refund', status: 'succeeded', amount: 300, payment_intent: intent });
      await fake.flush();
      const refunded = receiver.received.find((e) => e.type === 'charge.refunded');
      expect(refunded?.data.object).toMatchObject({ amount_refunded: 300, refunded: false });
      expect(refunded?.request?.id).toBe(refund.lastResponse.requestId);
      fake.webhook = undefined;
    });

    it('async payments complete unpaid, then settle or fail', async () => {
      const a = await stripe.checkout.sessions.create(paymentParams('ord_async_ok'));
      const [completed] = await fake.pay(a.id, { async: true });
      expect(completed!.data.object).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
      const [succeeded] = await fake.settleAsync(a.id);
      expect(succeeded).toMatchObject({
        type: 'checkout.session.async_payment_succeeded',
        data: { object: { payment_status: 'paid' } },
      });

      const b = await stripe.checkout.sessions.create(paymentParams('ord_async_ko'));
      await fake.pay(b.id, { async: true });
      const [failed] = await fake.failAsync(b.id);
      expect(failed).toMatchObject({ type: 'checkout.session.async_payment_failed', data: { object: { id: b.id } } });
      const intent = await stripe.paymentIntents.retrieve(
        (await stripe.checkout.sessions.retrieve(b.id)).payment_intent as string,
      );
      expect(intent.status).toBe('requires_payment_method');
    });

    it('expire: by the driver and through the API', async () => {
      const a = await stripe.checkout.sessions.create(paymentParams('ord_exp'));
      const [expired] = await fake.expire(a.id);
      expect(expired).toMatchObject({
        type: 'checkout.session.expired',
        data: { object: { id: a.id, status: 'expired', url: null } },
      });
      await expect(fake.pay(a.id)).rejects.toThrow(/expired/);

      const b = await stripe.checkout.sessions.create(paymentParams('ord_exp2'));
      const viaApi = await stripe.checkout.sessions.expire(b.id);
      expect(viaApi.status).toBe('expired');
      const again = await stripe.checkout.sessions.expire(b.id).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    });

    it('refund and dispute produce charge.refunded and charge.dispute.created', async () => {
      const session = await stripe.checkout.sessions.create(paymentParams('ord_refund'));
      await fake.pay(session.id);
      const intent = await stripe.paymentIntents.retrieve(
        (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string,
      );
      const chargeId = intent.latest_charge as string;

      const refundEvents = await fake.refund(chargeId);
      expect(ofType(refundEvents, 'charge.refunded').data).toMatchObject({
        object: { object: 'charge', id: chargeId, refunded: true, amount_refunded: 1248 },
        previous_attributes: { refunded: false, amount_refunded: 0 },
      });
      const refund = ofType(refundEvents, 'refund.created').data.object;
      expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
        amount: 1248,
        charge: chargeId,
        status: 'succeeded',
      });
      const twice = await stripe.refunds.create({ charge: chargeId }).catch((e: unknown) => e);
      expect(twice).toMatchObject({ code: 'charge_already_refunded', statusCode: 400 });

      const other = await stripe.checkout.sessions.create(paymentParams('ord_dispute'));
      await fake.pay(other.id);
      const otherCharge = (
        await stripe.paymentIntents.retrieve(
          (await stripe.checkout.sessions.retrieve(other.id)).payment_intent as string,
        )
      ).latest_charge as string;
      const [disputed] = await fake.dispute(otherCharge);
      expect(disputed).toMatchObject({
        type: 'charge.dispute.created',
        data: { object: { object: 'dispute', charge: otherCharge, amount: 1248, status: 'needs_response' } },
      });
      expect((await stripe.charges.retrieve(otherCharge)).disputed).toBe(true);
      const tooMuch = await stripe.refunds.create({ charge: otherCharge }).catch((e: unknown) => e);
      expect(tooMuch).toMatchObject({ code: 'charge_disputed' });
    });

    it('subscriptions: pay, renew and cancel', async () => {
      const session = await stripe.checkout.sessions.create(subscriptionParams);
      const events = await fake.pay(session.id);
      expect(events.map((e) => e.type)).toEqual([
        'customer.subscription.created',
        'invoice.paid',
        'checkout.session.completed',
      ]);
      const completed = ofType(events, 'checkout.session.completed').data.object as unknown as Stripe.Checkout.Session;
      expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid', payment_intent: null });
      expect(completed.subscription).toMatch(/^sub_/);
      expect(completed.customer).toMatch(/^cus_/);
      const firstInvoice = ofType(events, 'invoice.paid').data.object as unknown as Stripe.Invoice;
      expect(firstInvoice).toMatchObject({ billing_reason: 'subscription_create', amount_paid: 900, status: 'paid' });
      expect(firstInvoice.parent?.subscription_details?.subscription).toBe(completed.subscription);

      const subscription = await stripe.subscriptions.retrieve(completed.subscription as string);
      expect(subscription).toMatchObject({
        status: 'active',
        customer: completed.customer,
        latest_invoice: firstInvoice.id,
      });
      const period = subscription.items.data[0]!;
      const end = new Date(period.current_period_start * 1000);
      end.setUTCMonth(end.getUTCMonth() + 1);
      expect(period.current_period_end).toBe(end.getTime() / 1000);

      const [renewed] = await fake.renew(subscription.id);
      const renewal = renewed!.data.object as unknown as Stripe.Invoice;
      expect(renewed!.type).toBe('invoice.paid');
      expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', amount_paid: 900 });
      expect(renewal.id).not.toBe(firstInvoice.id);
      const after = await stripe.subscriptions.retrieve(subscription.id);
      expect(after.items.data[0]!.current_period_start).toBe(period.current_period_end);
      expect(after.latest_invoice).toBe(renewal.id);

      const canceled = await stripe.subscriptions.cancel(subscription.id);
      expect(canceled).toMatchObject({ status: 'canceled' });
      expect(fake.events.at(-1)).toMatchObject({
        type: 'customer.subscription.deleted',
        data: { object: { id: subscription.id } },
      });
      await expect(fake.renew(subscription.id)).rejects.toThrow(/canceled/);

      const other = await stripe.checkout.sessions.create(subscriptionParams);
      const [, , done] = await fake.pay(other.id);
      const [deleted] = await fake.cancelSubscription(
        (done!.data.object as unknown as Stripe.Checkout.Session).subscription as string,
      );
      expect(deleted!.type).toBe('customer.subscription.deleted');
    });
  });

  describe('hosted checkout page', () => {
    it('shows the amount, and Pay delivers the events and redirects to success_url', async () => {
      const secret = newWebhookSecret();
      const receiver = await startReceiver(secret);
      fake.webhook = { url: receiver.url, secret };
      try {
        const session = await stripe.checkout.sessions.create(paymentParams('ord_page'));
        const page = await fetch(session.url!);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain('€12.48');
        expect(html).toMatch(/<button type="submit">Pay<\/button>/);
        expect(html).not.toMatch(/<script/);

        const paid = await fetch(`${fake.url}/c/pay/${session.id}/pay`, { method: 'POST', redirect: 'manual' });
        expect(paid.status).toBe(303);
        expect(paid.headers.get('location')).toBe(`http://localhost:3000/orders/ord_page?session=${session.id}`);
        expect(receiver.received.at(-1)).toMatchObject({
          type: 'checkout.session.completed',
          data: { object: { id: session.id } },
        });
        expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid');
        expect((await fetch(session.url!)).status).toBe(410);
      } finally {
        fake.webhook = undefined;
        await receiver.close();
      }
    });

    it('Cancel redirects to cancel_url and leaves the session open', async () => {
      const session = await stripe.checkout.sessions.create(paymentParams('ord_cancel'));
      const cancelled = await fetch(`${fake.url}/c/pay/${session.id}/cancel`, { method: 'POST', redirect: 'manual' });
      expect(cancelled.status).toBe(303);
      expect(cancelled.headers.get('location')).toBe('http://localhost:3000/orders/ord_cancel');
      expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    });
  });
});
