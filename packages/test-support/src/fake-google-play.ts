// Google's side of Google Play purchases for tests, on 127.0.0.1 and in Google's wire formats: the
// OAuth token endpoint (a JWT bearer grant that must verify with the service account's key), the
// certificates Pub/Sub's OIDC tokens are checked with, and the Play Developer API's purchase calls
// (get, acknowledge, consume, voided purchases). The server reaches it through Google's own client.
import { generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GooglePlayConfig } from '@till/server/testing';

export const PACKAGE = 'com.example.till';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const AUDIENCE = 'https://till.example/api/payments/webhook/google';
export const PUSHER = 'pubsub-push@till-test.iam.gserviceaccount.com';
export const SECRET = 'a-shared-push-secret-of-at-least-32-chars';

export const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');
export const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

/** A JWT signed with RS256 by `key`. */
function jwt(header: object, claims: object, key: KeyObject): string {
  const signed = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  return `${signed}.${b64url(sign('RSA-SHA256', Buffer.from(signed), key))}`;
}

/** Google's error body: `{error: {code, message, status, errors}}`. */
function googleError(res: ServerResponse, code: number, status: string, message: string, reason: string) {
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code, message, status, errors: [{ message, domain: 'global', reason }] } }));
}

function json(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Google's OAuth token endpoint (a JWT bearer grant whose assertion must verify with the service
 * account's public key), its certificates, and the Play Developer API's purchase calls, on 127.0.0.1,
 * speaking their wire formats.
 */
export class FakeGoogle {
  readonly serviceKeys = rsa();
  readonly signerKeys = rsa();
  readonly serviceAccount = {
    type: 'service_account',
    client_email: 'till-play@till-test.iam.gserviceaccount.com',
    private_key: this.serviceKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  readonly products = new Map<string, Record<string, unknown>>();
  readonly subscriptions = new Map<string, Record<string, unknown>>();
  readonly voided: Record<string, unknown>[] = [];
  readonly calls: string[] = [];
  private readonly accessTokens = new Set<string>();
  private server: Server | undefined;
  url = '';

  count(what: string): number {
    return this.calls.filter((c) => c === what).length;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => googleError(res, 500, 'INTERNAL', String(e), 'backendError'));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }

  /** An OIDC token as Pub/Sub puts in its pushes, signed by `key` (Google's own unless told). */
  oidc(claims: Record<string, unknown> = {}, key: KeyObject = this.signerKeys.privateKey): string {
    const now = Math.floor(Date.now() / 1000);
    return jwt(
      { alg: 'RS256', kid: 'k1', typ: 'JWT' },
      {
        iss: 'https://accounts.google.com',
        aud: AUDIENCE,
        email: PUSHER,
        email_verified: true,
        sub: '1',
        iat: now,
        exp: now + 3600,
        ...claims,
      },
      key,
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await bodyOf(req);
    if (req.method === 'POST' && url.pathname === '/token') return this.token(body, res);
    if (req.method === 'GET' && url.pathname === '/certs') {
      return json(res, { k1: this.signerKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !this.accessTokens.has(bearer)) {
      return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', 'authError');
    }
    const path = decodeURIComponent(url.pathname);
    const base = `/androidpublisher/v3/applications/${PACKAGE}/purchases`;
    let m = new RegExp(`^${base}/products/([^/]+)/tokens/([^/:]+)(:acknowledge|:consume)?$`).exec(path);
    if (m) {
      const p = this.products.get(m[2] ?? '');
      if (!p || p.productId !== m[1]) return this.invalid(res);
      if (!m[3] && req.method === 'GET') return json(res, { kind: 'androidpublisher#productPurchase', ...p });
      if (m[3] === ':acknowledge' && req.method === 'POST') {
        this.calls.push('products.acknowledge');
        if (p.acknowledgementState === 1)
          return googleError(res, 400, 'FAILED_PRECONDITION', 'The purchase is already acknowledged.', 'invalid');
        p.acknowledgementState = 1;
        return json(res, {});
      }
      if (m[3] === ':consume' && req.method === 'POST') {
        this.calls.push('products.consume');
        p.consumptionState = 1;
        return json(res, {});
      }
    }
    m = new RegExp(`^${base}/subscriptionsv2/tokens/([^/:]+)$`).exec(path);
    if (m && req.method === 'GET') {
      const s = this.subscriptions.get(m[1] ?? '');
      if (!s) return this.invalid(res);
      return json(res, { kind: 'androidpublisher#subscriptionPurchaseV2', ...s });
    }
    m = new RegExp(`^${base}/subscriptions/([^/]+)/tokens/([^/:]+):acknowledge$`).exec(path);
    if (m && req.method === 'POST') {
      const s = this.subscriptions.get(m[2] ?? '');
      if (!s) return this.invalid(res);
      this.calls.push('subscriptions.acknowledge');
      s.acknowledgementState = 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED';
      return json(res, {});
    }
    if (path === `${base}/voidedpurchases` && req.method === 'GET') {
      const since = Number(url.searchParams.get('startTime') ?? 0);
      const listed = this.voided.filter((v) => Number(v.voidedTimeMillis) >= since);
      return json(res, { voidedPurchases: listed, tokenPagination: {} });
    }
    return googleError(res, 404, 'NOT_FOUND', 'Not Found', 'notFound');
  }

  private invalid(res: ServerResponse) {
    googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid Value', 'invalid');
  }

  /** The JWT bearer grant: the assertion must be the service account's, signed with its key, for Google's token URL. */
  private token(body: string, res: ServerResponse) {
    const form = new URLSearchParams(body);
    const refuse = (why: string) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_grant', error_description: why }));
    };
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse('grant_type');
    const [h, c, s] = (form.get('assertion') ?? '').split('.');
    if (!h || !c || !s) return refuse('Invalid JWT');
    if (!verify('RSA-SHA256', Buffer.from(`${h}.${c}`), this.serviceKeys.publicKey, Buffer.from(s, 'base64url')))
      return refuse('Invalid JWT Signature.');
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString()) as Record<string, unknown>;
    const now = Date.now() / 1000;
    if (claims.iss !== this.serviceAccount.client_email) return refuse('Invalid issuer');
    if (claims.aud !== GOOGLE_TOKEN_URL) return refuse('Invalid audience');
    if (!String(claims.scope).split(' ').includes('https://www.googleapis.com/auth/androidpublisher'))
      return refuse('Invalid scope');
    if (typeof claims.exp !== 'number' || claims.exp < now) return refuse('Token expired');
    const accessToken = `ya29.${randomBytes(16).toString('hex')}`;
    this.accessTokens.add(accessToken);
    this.calls.push('token');
    json(res, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
  }
}

/** A transaction as cordova-plugin-purchase 13 reports an android-playstore purchase, through the SDK. */
export function playTransaction(
  token: string,
  productId: string,
  options: { packageName?: string; orderId?: string } = {},
) {
  const packageName = options.packageName ?? PACKAGE;
  const original = {
    orderId: options.orderId,
    packageName,
    productId,
    purchaseTime: Date.now(),
    purchaseState: 0,
    purchaseToken: token,
    quantity: 1,
    acknowledged: false,
  };
  return JSON.stringify({
    platform: 'android-playstore',
    transactionId: options.orderId ?? token,
    state: 'approved',
    products: [{ id: productId }],
    nativePurchase: {
      ...original,
      productIds: [productId],
      getPurchaseState: 1,
      autoRenewing: false,
      signature: b64url(randomBytes(256)),
      receipt: JSON.stringify(original),
    },
  });
}

/** The Google Play config of a test app that talks to `google` (and takes pushes by OIDC or the shared secret). */
export function googlePlayTestConfig(google: FakeGoogle): GooglePlayConfig {
  return {
    packageName: PACKAGE,
    serviceAccount: {
      clientEmail: google.serviceAccount.client_email,
      privateKey: google.serviceAccount.private_key,
    },
    pushOidc: { audience: AUDIENCE, serviceAccount: PUSHER },
    pushSecret: SECRET,
    apiUrl: google.url,
    tokenUrl: `${google.url}/token`,
    certsUrl: `${google.url}/certs`,
  };
}
