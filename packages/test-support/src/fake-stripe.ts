import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { ApiFailure, failures, type StripeErrorBody } from './fake-stripe/errors.js';
import { canonicalForm, FormError, parseStripeForm, type FormObject } from './fake-stripe/form.js';
import { Ledger, type EventCause } from './fake-stripe/ledger.js';
import {
  list,
  newId,
  type EventObject,
  type ObjectKind,
  type ObjectOf,
  type StoredObject,
} from './fake-stripe/objects.js';
import { checkoutPage, messagePage } from './fake-stripe/page.js';
import { expandPaths, onlyKnown } from './fake-stripe/params.js';

export type { EventObject } from './fake-stripe/objects.js';

export interface FakeStripeOptions {
  /** The secret key requests must carry; a random `sk_test_` key by default. */
  secretKey?: string;
  /** Where events go as they happen, signed with `secret`, like a webhook endpoint set up in Stripe's dashboard. */
  webhook?: WebhookTarget;
  /** The `api_version` events carry; the library's own version by default. */
  apiVersion?: string;
}

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface Delivery {
  event: EventObject;
  url: string;
  status: number;
  body: string;
}

interface StoredResponse {
  method: string;
  path: string;
  params: string;
  status: number;
  body: string;
  requestId: string;
}

interface Answer {
  status: number;
  body: unknown;
}

const RETRIEVE_PARAMS = new Set(['expand']);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1 << 20) throw new ApiFailure(413, { type: 'invalid_request_error', message: 'Request too large' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A local stand-in for Stripe's API, for tests: it speaks Stripe's wire format (form-encoded
 * requests, JSON objects and errors, idempotency keys, signed webhooks), so the real `stripe`
 * library can be pointed at it with its `host`, `port` and `protocol` options. The buyer's side
 * (paying, a bank debit settling later, renewals, refunds, disputes) is driven by methods.
 */
export class FakeStripe {
  readonly secretKey: string;
  webhook: WebhookTarget | undefined;
  readonly deliveries: Delivery[] = [];
  /** Every API request received, in order, with its parsed params: what the code under test sent. */
  readonly requests: { method: string; path: string; params: FormObject; idempotencyKey: string | null }[] = [];
  private readonly ledger: Ledger;
  private readonly idempotent = new Map<string, StoredResponse>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly injected: { status: number; error: StripeErrorBody }[] = [];
  private server: Server | undefined;
  private base = '';

  constructor(options: FakeStripeOptions = {}) {
    this.secretKey = options.secretKey ?? `sk_test_${newId('', 40)}`;
    if (!/^(sk|rk)_test_/.test(this.secretKey)) throw new Error('the fake accepts test-mode keys only (sk_test_...)');
    this.webhook = options.webhook;
    this.ledger = new Ledger(
      options.apiVersion ?? Stripe.API_VERSION,
      () => this.base,
      () => (this.webhook ? 1 : 0),
    );
  }

  /** Listens on 127.0.0.1 at a free port; answers the base URL (`http://127.0.0.1:PORT`). */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        console.error('fake-stripe: request failed', error);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.base;
  }

  get url(): string {
    return this.base;
  }

  /** The `stripe` library's connection options for this fake. */
  clientOptions(): { host: string; port: number; protocol: 'http' } {
    const { hostname, port } = new URL(this.base);
    return { host: hostname, port: Number(port), protocol: 'http' };
  }

  async close(): Promise<void> {
    await this.flush();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits for the webhook deliveries of API calls (Stripe sends those after answering the call). */
  async flush(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Every event created so far, oldest first. */
  get events(): EventObject[] {
    return [...this.ledger.events];
  }

  /** A stored object by id (a copy), or `undefined`. */
  object(id: string): StoredObject | undefined {
    const found = this.ledger.byId(id);
    return found && structuredClone(found);
  }

  /** All stored objects of one kind (copies), oldest first. */
  objects<K extends ObjectKind>(kind: K): ObjectOf<K>[] {
    return structuredClone(this.ledger.all(kind));
  }

  /** The next API request answers this error instead (e.g. a 500, or a 402 card error), and is not stored for replay. */
  failNext(status: number, error: StripeErrorBody): void {
    this.injected.push({ status, error });
  }

  // ---- the buyer's and Stripe's side ----

  /**
   * Completes an open session as a buyer would. In payment mode this creates a PaymentIntent and a
   * charge; with `async` they stay `processing`/`pending` (a bank debit) until {@link settleAsync} or
   * {@link failAsync}. In subscription mode it creates a customer, an active subscription and its
   * first paid invoice. Answers the events, after delivering them when a webhook is set.
   */
  async pay(sessionId: string, options: { async?: boolean; email?: string } = {}): Promise<EventObject[]> {
    return this.dispatch(this.ledger.completeSession(sessionId, options.async ?? false, options.email));
  }

  /** A delayed payment succeeds: `checkout.session.async_payment_succeeded`. */
  async settleAsync(sessionId: string): Promise<EventObject[]> {
    return this.dispatch(this.ledger.settleDelayed(sessionId));
  }

  /** A delayed payment fails: `checkout.session.async_payment_failed`. */
  async failAsync(sessionId: string): Promise<EventObject[]> {
    return this.dispatch(this.ledger.failDelayed(sessionId));
  }

  /** The session times out: `checkout.session.expired`. */
  async expire(sessionId: string): Promise<EventObject[]> {
    return this.dispatch(this.ledger.expireSession(sessionId, { id: null, idempotency_key: null }));
  }

  /** A billing period ends and the next one is charged: a new paid invoice, `invoice.paid`. */
  async renew(subscriptionId: string): Promise<EventObject[]> {
    return this.dispatch(this.ledger.renew(subscriptionId));
  }

  /** The subscription is canceled outside the API (dashboard, dunning): `customer.subscription.deleted`. */
  async cancelSubscription(subscriptionId: string): Promise<EventObject[]> {
    return this.dispatch(this.ledger.cancelSubscription(subscriptionId, { id: null, idempotency_key: null }));
  }

  /** A refund made from the dashboard: `refund.created` and `charge.refunded`. Whole charge by default. */
  async refund(chargeId: string, options: { amount?: number } = {}): Promise<EventObject[]> {
    const params: FormObject = {
      charge: chargeId,
      ...(options.amount !== undefined && { amount: String(options.amount) }),
    };
    return this.dispatch(this.ledger.createRefund(params, { id: null, idempotency_key: null }).events);
  }

  /** The cardholder's bank disputes the charge: `charge.dispute.created`. */
  async dispute(chargeId: string, options: { reason?: string } = {}): Promise<EventObject[]> {
    return this.dispatch(this.ledger.dispute(chargeId, options.reason ?? 'fraudulent'));
  }

  /**
   * POSTs an event to `url` as Stripe does: the raw JSON body and a `Stripe-Signature` header made
   * with the library's own helper. Answers the receiver's status and body.
   */
  async deliver(
    url: string,
    event: EventObject,
    options: { secret: string; timestamp?: number },
  ): Promise<{ status: number; body: string }> {
    if (!LOOPBACK.has(new URL(url).hostname)) throw new Error(`webhooks go to this machine only, not ${url}`);
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret,
      ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signature,
      },
      body: payload,
    });
    return { status: response.status, body: await response.text() };
  }

  private async dispatch(events: EventObject[]): Promise<EventObject[]> {
    const target = this.webhook;
    if (target) {
      for (const event of events) {
        const answer = await this.deliver(target.url, event, { secret: target.secret });
        this.deliveries.push({ event, url: target.url, ...answer });
      }
    }
    return events;
  }

  /** Delivery after the API call has been answered, as Stripe sends events. */
  private dispatchLater(events: EventObject[]): void {
    if (!this.webhook || !events.length) return;
    const p = this.dispatch(events)
      .catch((error: unknown) => console.error('fake-stripe: webhook delivery failed', error))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  // ---- HTTP ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    if (url.pathname.startsWith('/c/pay/')) return this.page(req, res, url.pathname);
    const requestId = `req_${newId('', 14)}`;
    const method = req.method ?? 'GET';
    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' && method === 'POST' ? key : null;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'request-id': requestId,
      'stripe-version': String(req.headers['stripe-version'] ?? Stripe.API_VERSION),
      ...(idempotencyKey && { 'idempotency-key': idempotencyKey }),
    };
    let answer: Answer;
    let store = false;
    try {
      const body = await readBody(req);
      this.authenticate(req.headers.authorization);
      const params = this.params(url.search.slice(1), body, req.headers['content-type']);
      this.requests.push({ method, path: url.pathname, params, idempotencyKey });
      if (idempotencyKey !== null) {
        if (idempotencyKey.length > 255)
          throw failures.invalid('Idempotency-Key', 'Idempotency keys can be up to 255 characters long.');
        const previous = this.idempotent.get(idempotencyKey);
        if (previous) {
          if (
            previous.method !== method ||
            previous.path !== url.pathname ||
            previous.params !== canonicalForm(params)
          ) {
            throw failures.idempotency(idempotencyKey);
          }
          res.writeHead(previous.status, {
            ...headers,
            'idempotent-replayed': 'true',
            'original-request': previous.requestId,
          });
          res.end(previous.body);
          return;
        }
      }
      const injected = this.injected.shift();
      if (injected) throw new ApiFailure(injected.status, injected.error);
      store = true;
      answer = this.route(method, url.pathname, params, { id: requestId, idempotency_key: idempotencyKey });
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      answer = {
        status: error.status,
        body: { error: { ...error.error, request_log_url: `${this.base}/logs/${requestId}` } },
      };
      // Stripe keeps the outcome of a call that ran (even a card decline) but not a refused one.
      store = store && error.status === 402;
    }
    const text = JSON.stringify(answer.body, null, 2);
    if (store && idempotencyKey !== null) {
      this.idempotent.set(idempotencyKey, {
        method,
        path: url.pathname,
        params: canonicalForm(this.requests.at(-1)!.params),
        status: answer.status,
        body: text,
        requestId,
      });
    }
    res.writeHead(answer.status, headers).end(text);
  }

  private authenticate(header: string | undefined): void {
    const m = /^Bearer (.+)$/.exec(header ?? '');
    if (!m) throw failures.noKey();
    if (m[1] !== this.secretKey) throw failures.badKey(m[1]!);
  }

  private params(query: string, body: string, contentType: string | undefined): FormObject {
    try {
      if (body && !(contentType ?? '').startsWith('application/x-www-form-urlencoded')) {
        throw failures.state('Invalid request: the body must be application/x-www-form-urlencoded.');
      }
      return { ...parseStripeForm(query), ...parseStripeForm(body) };
    } catch (error) {
      if (error instanceof FormError) throw failures.invalid(error.param, error.message);
      throw error;
    }
  }

  private route(method: string, path: string, params: FormObject, cause: EventCause): Answer {
    const parts = path.split('/').slice(1);
    const [v1, resource, id] = parts;
    const ok = (object: StoredObject) => ({ status: 200, body: this.expand(object, expandPaths(params)) });
    const retrieve = <K extends ObjectKind>(kind: K, param = 'id') => {
      onlyKnown(params, RETRIEVE_PARAMS);
      return ok(this.ledger.get(kind, id!, param));
    };
    if (v1 === 'v1' && resource === 'checkout' && id === 'sessions') {
      const sessionId = parts[3];
      const sub = parts[4];
      if (parts.length === 3 && method === 'POST') return ok(this.ledger.createSession(params));
      if (parts.length === 4 && method === 'GET') {
        onlyKnown(params, RETRIEVE_PARAMS);
        return ok(this.ledger.get('checkout.session', sessionId!, 'session'));
      }
      if (parts.length === 5 && sub === 'expire' && method === 'POST') {
        onlyKnown(params, RETRIEVE_PARAMS);
        this.dispatchLater(this.ledger.expireSession(sessionId!, cause));
        return ok(this.ledger.get('checkout.session', sessionId!, 'session'));
      }
      if (parts.length === 5 && sub === 'line_items' && method === 'GET') {
        this.ledger.get('checkout.session', sessionId!, 'session');
        return { status: 200, body: list(this.ledger.sessionLineItems(sessionId!), path) };
      }
    }
    if (v1 === 'v1' && parts.length === 2 && resource === 'refunds' && method === 'POST') {
      const { refund, events } = this.ledger.createRefund(params, cause);
      this.dispatchLater(events);
      return ok(refund);
    }
    if (v1 === 'v1' && parts.length === 3 && id) {
      if (method === 'POST' && resource === 'subscriptions') {
        const events = this.ledger.updateSubscription(id, cause, params);
        this.dispatchLater(events);
        return ok(this.ledger.get('subscription', id));
      }
      if (method === 'DELETE' && resource === 'subscriptions') {
        const events = this.ledger.cancelSubscription(id, cause, params);
        this.dispatchLater(events);
        return ok(this.ledger.get('subscription', id));
      }
      const kinds: Record<string, ObjectKind> = {
        refunds: 'refund',
        subscriptions: 'subscription',
        payment_intents: 'payment_intent',
        charges: 'charge',
        customers: 'customer',
        invoices: 'invoice',
        disputes: 'dispute',
        events: 'event',
      };
      const kind = resource ? kinds[resource] : undefined;
      if (kind && method === 'GET') return retrieve(kind, kind === 'payment_intent' ? 'intent' : 'id');
    }
    throw failures.unrecognizedUrl(method, path);
  }

  /** Replaces ids with their objects along each `expand` path (`payment_intent.latest_charge`). */
  private expand(object: StoredObject, paths: string[]): unknown {
    const copy = structuredClone(object) as unknown as Record<string, unknown>;
    paths.forEach((path, i) => {
      let holder: Record<string, unknown> = copy;
      for (const field of path.split('.')) {
        const value = holder[field];
        let expanded: unknown;
        if (field === 'line_items' && holder.object === 'checkout.session') {
          expanded = list(
            this.ledger.sessionLineItems(String(holder.id)),
            `/v1/checkout/sessions/${String(holder.id)}/line_items`,
          );
        } else if (field === 'payments' && holder.object === 'invoice') {
          expanded = list(this.ledger.invoicePayments(String(holder.id)), `/v1/invoices/${String(holder.id)}/payments`);
        } else if (typeof value === 'string' && this.ledger.byId(value)) {
          expanded = structuredClone(this.ledger.byId(value));
        } else if (value !== null && typeof value === 'object') {
          expanded = value;
        } else if (value === null) {
          break;
        } else {
          throw failures.invalid(`expand[${i}]`, `This property cannot be expanded (${field}).`);
        }
        holder[field] = expanded;
        holder = expanded as Record<string, unknown>;
      }
    });
    return copy;
  }

  // ---- hosted checkout page ----

  private async page(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    await readBody(req);
    const [, , , rawId, action] = path.split('/');
    const id = decodeURIComponent(rawId ?? '');
    const html = (status: number, body: string): void => {
      res
        .writeHead(status, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          // No form-action: browsers apply it to the redirect that follows the post, which leaves for the shop.
          'content-security-policy':
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
        })
        .end(body);
    };
    const session = this.ledger.find('checkout.session', id);
    if (!session) return html(404, messagePage('Something went wrong', 'This checkout link is not valid.'));
    if (session.status === 'open' && session.expires_at <= Math.floor(Date.now() / 1000)) {
      await this.expire(id);
    }
    if (session.status !== 'open') {
      return html(
        410,
        messagePage('Checkout closed', `This Checkout Session is no longer available (${String(session.status)}).`),
      );
    }
    if (req.method === 'GET' && action === undefined)
      return html(200, checkoutPage(session, this.ledger.sessionLineItems(id)));
    if (req.method === 'POST' && action === 'pay') {
      await this.pay(id);
      const target = (session.success_url ?? '').replaceAll('{CHECKOUT_SESSION_ID}', session.id);
      return void res.writeHead(303, { location: target }).end();
    }
    if (req.method === 'POST' && action === 'cancel') {
      return void res.writeHead(303, { location: session.cancel_url ?? '/' }).end();
    }
    html(404, messagePage('Something went wrong', 'Not found.'));
  }
}

/** A random webhook signing secret in Stripe's format. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;
