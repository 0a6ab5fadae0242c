import { randomInt } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_SIGN_VERSION,
  escapeHtml,
  type Params,
  type SignVersion,
  parseQuery,
  pingbackSignature,
  toSearchParams,
  verifyWidgetSignature,
} from '@till/server/testing';

/** Where the fake serves the widget: the same path as Paymentwall's Digital Goods widget. */
export const WIDGET_PATH = '/api/subscription';
const PAY_PATH = `${WIDGET_PATH}/pay`;

export interface FakePaymentwallOptions {
  projectKey: string;
  secretKey: string;
  /** The project's pingback URL; often known only once the server under test listens, so also settable later. */
  pingbackUrl?: string;
  /** Signature version of the pingbacks it sends; default 3. */
  signVersion?: SignVersion;
  /** Mark pingbacks `is_test=1`, as Paymentwall does for its test payment methods. */
  test?: boolean;
}

/** A pingback to send by hand: a payment (0), a goodwill credit (1), a chargeback (2), ... */
export interface PingbackInput {
  type: number;
  uid: string;
  goodsid: string;
  /** Default: a new reference, as Paymentwall makes one per transaction. */
  ref?: string;
  slength?: string;
  speriod?: string;
  amount?: string;
  currencyCode?: string;
  reason?: string;
  /** More parameters, signed with the rest (custom pingback parameters). */
  extra?: Record<string, string>;
  signVersion?: SignVersion;
  /** Sign with another key than the project's, to send a pingback that must be refused. */
  secretKey?: string;
}

/** A pingback the fake sent and what the server under test answered. */
export interface SentPingback {
  url: string;
  params: Record<string, string>;
  status: number;
  body: string;
}

/**
 * Paymentwall's widget and pingbacks on loopback. Its widget page checks the call's signature as
 * Paymentwall does, and its "Pay" button sends the project's pingback (a signed GET) before sending
 * the buyer to the call's `success_url`, so a purchase runs end to end without Paymentwall's cloud.
 */
export class FakePaymentwall {
  pingbackUrl: string | undefined;
  /** Every pingback sent, in order. */
  readonly pingbacks: SentPingback[] = [];
  private server: Server | undefined;
  private origin = '';

  constructor(private readonly options: FakePaymentwallOptions) {
    this.pingbackUrl = options.pingbackUrl;
  }

  /** Listens on 127.0.0.1 and answers the widget base address to build widget URLs with. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        page(res, 500, 'Error', `<p>${escapeHtml(String(error))}</p>`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.widgetBaseUrl;
  }

  get widgetBaseUrl(): string {
    return `${this.origin}${WIDGET_PATH}`;
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    this.server = undefined;
    return new Promise((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  }

  /** Sends a signed pingback to the pingback URL and answers the server's status and body. */
  async sendPingback(input: PingbackInput): Promise<{ status: number; body: string }> {
    const version = input.signVersion ?? this.options.signVersion ?? DEFAULT_SIGN_VERSION;
    const params: Record<string, string> = {
      ...input.extra,
      uid: input.uid,
      goodsid: input.goodsid,
      slength: input.slength ?? '0',
      speriod: input.speriod ?? '',
      type: String(input.type),
      ref: input.ref ?? newRef(),
    };
    if (input.amount !== undefined) params['amount'] = input.amount;
    if (input.currencyCode !== undefined) params['currencyCode'] = input.currencyCode;
    if (input.reason !== undefined) params['reason'] = input.reason;
    if (this.options.test) params['is_test'] = '1';
    params['sign_version'] = String(version);
    params['sig'] = pingbackSignature(params, input.secretKey ?? this.options.secretKey, version);

    if (this.pingbackUrl === undefined) throw new Error('the fake Paymentwall has no pingback URL');
    const url = new URL(this.pingbackUrl);
    for (const [name, value] of toSearchParams(params)) url.searchParams.append(name, value);
    const res = await fetch(url, { redirect: 'manual' });
    const sent = { url: url.toString(), params, status: res.status, body: await res.text() };
    this.pingbacks.push(sent);
    return { status: sent.status, body: sent.body };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    if (req.method === 'GET' && url.pathname === WIDGET_PATH) return this.widgetPage(url.search, res);
    if (req.method === 'POST' && url.pathname === PAY_PATH) {
      const form = new URLSearchParams(await readBody(req));
      return this.choose(form.get('call') ?? '', form.get('action'), res);
    }
    page(res, 404, 'Not found', '<p>Not found.</p>');
  }

  /** The widget call's parameters when it is signed by this project and names one order; else undefined. */
  private verifiedCall(query: string): Params | undefined {
    const params = parseQuery(query);
    if (!params || params['key'] !== this.options.projectKey) return undefined;
    if (!verifyWidgetSignature(params, this.options.secretKey)) return undefined;
    for (const name of ['uid', 'amount', 'currencyCode', 'ag_external_id', 'ag_type'])
      if (typeof params[name] !== 'string' || params[name] === '') return undefined;
    return params;
  }

  private widgetPage(query: string, res: ServerResponse): void {
    const call = this.verifiedCall(query);
    if (!call) return page(res, 400, 'Invalid request', '<p>The widget call is not signed by this project.</p>');
    const text = (name: string) => escapeHtml(typeof call[name] === 'string' ? call[name] : '');
    const every =
      call['ag_type'] === 'subscription' ? ` every ${text('ag_period_length')} ${text('ag_period_type')}` : '';
    page(
      res,
      200,
      'Paymentwall',
      `<h1>${text('ag_name')}</h1>
<p class="amount">${text('amount')} ${text('currencyCode')}${every}</p>
<form method="post" action="${PAY_PATH}">
<input type="hidden" name="call" value="${escapeHtml(query.replace(/^\?/, ''))}">
<button type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="decline">Decline</button>
</form>`,
    );
  }

  private async choose(query: string, action: string | null, res: ServerResponse): Promise<void> {
    const call = this.verifiedCall(query);
    if (!call) return page(res, 400, 'Invalid request', '<p>The widget call is not signed by this project.</p>');
    if (action === 'decline') return page(res, 200, 'Payment declined', '<p>Payment declined.</p>');
    if (action !== 'pay') return page(res, 400, 'Invalid request', '<p>Pay or decline.</p>');
    const value = (name: string): string | undefined => {
      const v = call[name];
      return typeof v === 'string' ? v : undefined;
    };
    const subscription = value('ag_type') === 'subscription';
    // Paymentwall answers the buyer whatever the pingback's fate (it retries pingbacks on its own).
    await this.sendPingback({
      type: 0,
      uid: value('uid') ?? '',
      goodsid: value('ag_external_id') ?? '',
      slength: subscription ? (value('ag_period_length') ?? '0') : '0',
      speriod: subscription ? (value('ag_period_type') ?? '') : '',
      amount: value('amount') ?? '',
      currencyCode: value('currencyCode') ?? '',
    });
    const success = value('success_url');
    if (success) {
      res.writeHead(303, { location: success }).end();
      return;
    }
    page(res, 200, 'Payment complete', '<p>Payment complete.</p>');
  }
}

function newRef(): string {
  return `b${randomInt(1_000_000_000, 9_999_999_999)}`;
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .end(
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`,
    );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
