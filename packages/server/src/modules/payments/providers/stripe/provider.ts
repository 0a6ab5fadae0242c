import type { FastifyInstance } from 'fastify';
import type { PaymentInstruction, Order } from '@till/protocol';
import type Stripe from 'stripe';
import { Failure, fail, type Outcome } from '../../../../errors.js';
import type { ModuleHost } from '../../../../http/module.js';
import type { PaymentsDeps } from '../../deps.js';
import {
  checkoutOffer,
  type PartialRefund,
  type PayableOrder,
  type PaymentPorts,
  type PaymentProvider,
} from '../../provider.js';
import { linkRef, orderOfRef, refsOf } from '../../refs.js';
import type { CardConfig } from './config.js';
import { toProviderEvent } from './events.js';
import { sessionParams } from './session-params.js';

/** Stripe's webhook signatures older than this are refused as replays (Stripe's own default). */
const TOLERANCE_S = 300;

/**
 * The card route: Stripe Checkout, through Stripe's own library. doCheckout makes a Checkout
 * Session for the pending order and answers its page; Stripe's webhooks say what happened, and are
 * applied through the same event flow as every provider's. The library is loaded on first use, so
 * a server without the card route never holds it.
 */
export class CardProvider implements PaymentProvider {
  readonly name = 'card' as const;
  readonly checkout = true;
  private client: Promise<Stripe> | undefined;

  constructor(
    private readonly deps: PaymentsDeps,
    private readonly card: CardConfig,
  ) {}

  private stripe(): Promise<Stripe> {
    this.client ??= import('stripe').then(({ default: StripeClient }) => {
      const base = this.card.apiUrl ? new URL(this.card.apiUrl) : undefined;
      return new StripeClient(this.card.secretKey, {
        maxNetworkRetries: 2,
        timeout: 20_000,
        telemetry: false,
        appInfo: { name: 'Till' },
        ...(base && {
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }),
      });
    });
    return this.client;
  }

  /**
   * Answers the page of the order's open Checkout Session, making one when there is none (or the
   * last expired). Each session is made with an idempotency key of the order and the attempt, so a
   * retried request (the library retries on network failures) never makes a second session.
   */
  async start(order: PayableOrder): Promise<Outcome<PaymentInstruction>> {
    const db = this.deps.db;
    const sessions = await refsOf(db, this.name, order.iden, 'session');
    try {
      const stripe = await this.stripe();
      const last = sessions.at(-1);
      if (last) {
        const open = await stripe.checkout.sessions.retrieve(last);
        if (open.status === 'open' && open.url) return { provider: this.name, url: open.url };
      }
      const session = await stripe.checkout.sessions.create(
        sessionParams(order, this.deps.config.publicUrl, this.deps.now()),
        { idempotencyKey: `till-checkout-${order.iden}-${sessions.length}` },
      );
      await linkRef(
        db,
        { provider: this.name, ref: session.id, orderId: order.iden, kind: 'session' },
        this.deps.now(),
      );
      if (!session.url) return fail.paymentRejected('provider_error');
      return { provider: this.name, url: session.url };
    } catch (error) {
      return this.refused(error, order.iden, 'checkout session not made');
    }
  }

  offer(products: string[]): PaymentInstruction {
    return checkoutOffer(this.name, this.deps.config.publicUrl, products);
  }

  /**
   * An administrator's refund: Stripe gives the payment back (keyed by the order, so asking twice
   * refunds once) and ends the subscription the order started, if any; Stripe's `charge.refunded`
   * then turns the order refunded.
   */
  async refund(order: Order, part?: PartialRefund): Promise<Outcome<void>> {
    const db = this.deps.db;
    const [payment] = await refsOf(db, this.name, order.iden, 'payment');
    const [subscription] = await refsOf(db, this.name, order.iden, 'subscription');
    if (!payment) return fail.paymentRejected('no_payment');
    try {
      const stripe = await this.stripe();
      if (part) {
        // Part of the money only: Stripe changes no status for it, and the subscription goes on.
        await stripe.refunds.create(
          { payment_intent: payment, amount: part.amount, metadata: { iden: order.iden } },
          { idempotencyKey: part.key },
        );
        return undefined;
      }
      await stripe.refunds.create(
        { payment_intent: payment, metadata: { iden: order.iden } },
        { idempotencyKey: `till-refund-${order.iden}` },
      );
      if (subscription)
        await stripe.subscriptions.cancel(subscription, {}, { idempotencyKey: `till-end-${order.iden}` });
      return undefined;
    } catch (error) {
      return this.refused(error, order.iden, 'refund not made');
    }
  }

  /**
   * The buyer's wish to stop renewing: Stripe's subscription is set to cancel at its period's end
   * (keyed by the order, so asking twice asks once). It stays active until then; Stripe ends it
   * and says so with `customer.subscription.deleted`.
   */
  async endAtPeriodEnd(order: Order): Promise<Outcome<void>> {
    const [subscription] = await refsOf(this.deps.db, this.name, order.iden, 'subscription');
    if (!subscription) return fail.conflict(order.status, 'not_renewing');
    try {
      const stripe = await this.stripe();
      await stripe.subscriptions.update(
        subscription,
        { cancel_at_period_end: true },
        { idempotencyKey: `till-period-end-${order.iden}` },
      );
      return undefined;
    } catch (error) {
      return this.refused(error, order.iden, 'subscription not set to end');
    }
  }

  /** Stripe's failure, logged without secrets; the buyer or administrator gets 910. */
  private refused(error: unknown, iden: string, what: string): Failure {
    const e = error as { type?: string; code?: string; statusCode?: number; requestId?: string };
    if (!e.type?.startsWith('Stripe')) throw error;
    this.deps.log.warn({ iden, type: e.type, code: e.code, status: e.statusCode, requestId: e.requestId }, what);
    return fail.paymentRejected(e.type === 'StripeCardError' ? 'declined' : 'provider_error');
  }

  register({ app }: ModuleHost, ports: PaymentPorts): Promise<void> {
    return registerWebhook(app, this, ports);
  }

  /**
   * Reads a webhook: the signature (against the raw body, within {@link TOLERANCE_S}) first, then
   * the event. Undefined when the signature does not verify or is stale.
   */
  async verify(raw: Buffer, signature: string): Promise<Stripe.Event | undefined> {
    const stripe = await this.stripe();
    try {
      return stripe.webhooks.constructEvent(raw, signature, this.card.webhookSecret, TOLERANCE_S);
    } catch {
      return undefined;
    }
  }

  /** The order a payment intent belongs to: linked when it was paid, or named in its own metadata. */
  async orderOfPaymentIntent(paymentIntent: string): Promise<string | undefined> {
    const linked = await orderOfRef(this.deps.db, this.name, paymentIntent);
    if (linked) return linked;
    const stripe = await this.stripe();
    const intent = await stripe.paymentIntents.retrieve(paymentIntent);
    return intent.metadata.iden;
  }

  /**
   * Links the payments of a subscription's invoice to its order, so that a refund or dispute of a
   * renewal's charge finds it. Stripe lists an invoice's payments only when asked to expand them.
   */
  async linkInvoicePayments(invoiceId: string, iden: string): Promise<void> {
    const stripe = await this.stripe();
    const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });
    for (const p of invoice.payments?.data ?? []) {
      const intent = p.payment.payment_intent;
      const ref = typeof intent === 'string' ? intent : intent?.id;
      if (ref)
        await linkRef(this.deps.db, { provider: this.name, ref, orderId: iden, kind: 'payment' }, this.deps.now());
    }
  }
}

async function registerWebhook(app: FastifyInstance, card: CardProvider, ports: PaymentPorts): Promise<void> {
  await app.register(async (scope) => {
    // The signature covers the exact bytes Stripe sent: the body is kept raw in this scope only.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/api/payments/webhook/stripe', async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      const event =
        Buffer.isBuffer(request.body) && typeof signature === 'string'
          ? await card.verify(request.body, signature)
          : undefined;
      if (!event) return reply.status(400).send({ error: 'signature' });
      const change = await toProviderEvent(event, card);
      if (event.type === 'invoice.paid') {
        const invoice = event.data.object;
        const iden = invoice.parent?.subscription_details?.metadata?.iden;
        if (iden && invoice.id) await card.linkInvoicePayments(invoice.id, iden);
      }
      if (!change) return { received: true, ignored: event.type };
      const applied = await ports.applyEvent(card.name, change);
      if (applied instanceof Failure) {
        // Not yet applicable (a renewal before its first payment): Stripe sends it again later.
        if (applied.body.code === 912) return reply.status(409).send({ error: 'not_yet' });
        // An event for an order this server does not hold, or one that can never apply: retrying
        // would change nothing, so it is acknowledged (and logged by the flow).
        return { received: true, refused: applied.body.code };
      }
      return { received: true, applied: applied.applied };
    });
  });
}
