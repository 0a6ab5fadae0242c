// @peculiar/x509 builds on tsyringe, which needs the Reflect metadata API in place first.
import 'reflect-metadata';
import {
  generateKeyPairSync,
  KeyObject,
  randomUUID,
  sign,
  verify,
  webcrypto,
  type KeyObject as Key,
} from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppStoreConfig } from '../../../../config.js';
import { startTestApp, type TestApp } from '../../../../test-support/app.js';
import { dialects } from '../../../../test-support/db.js';
import { anAdmin, expectLedgerMatchesBalances, ok, post } from '../../../../test-support/store.js';
import { registerUser } from '../../../../test-support/users.js';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const BUNDLE_ID = 'com.example.till';
const APP_APPLE_ID = 1_234_567_890;
const ISSUER_ID = '57246542-96fe-1a63-e053-0824d011072a';
const KEY_ID = 'ABCDEFGHIJ';
const DAY = 86_400_000;

/** Apple's marker extensions, which the library requires of the leaf and the intermediate. */
const LEAF_MARKER = '1.2.840.113635.100.6.11.1';
const INTERMEDIATE_MARKER = '1.2.840.113635.100.6.2.1';
const ASN1_NULL = new Uint8Array([0x05, 0x00]);

const ec = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A root, an intermediate and a leaf shaped like Apple's, and the leaf's key to sign with. */
interface Pki {
  root: Buffer;
  /** The `x5c` header: leaf, intermediate, root (base64 DER). */
  x5c: string[];
  leafKey: Key;
}

async function makePki(name: string): Promise<Pki> {
  const notBefore = new Date(Date.now() - DAY);
  const notAfter = new Date(Date.now() + 365 * DAY);
  const keys = () => webcrypto.subtle.generateKey(ec, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
  const [rootKeys, intermediateKeys, leafKeys] = await Promise.all([keys(), keys(), keys()]);
  const ca = (pathLength?: number) => [
    new x509.BasicConstraintsExtension(true, pathLength, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
  ];
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name} Root CA, O=Till Test`,
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: ec,
    extensions: ca(),
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name} Intermediate, O=Till Test`,
    issuer: root.subject,
    notBefore,
    notAfter,
    signingKey: rootKeys.privateKey,
    publicKey: intermediateKeys.publicKey,
    signingAlgorithm: ec,
    extensions: [...ca(0), new x509.Extension(INTERMEDIATE_MARKER, false, ASN1_NULL)],
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '03',
    subject: `CN=${name} Signing, O=Till Test`,
    issuer: intermediate.subject,
    notBefore,
    notAfter,
    signingKey: intermediateKeys.privateKey,
    publicKey: leafKeys.publicKey,
    signingAlgorithm: ec,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.Extension(LEAF_MARKER, false, ASN1_NULL),
    ],
  });
  return {
    root: Buffer.from(root.rawData),
    x5c: [leaf, intermediate, root].map((c) => Buffer.from(c.rawData).toString('base64')),
    leafKey: KeyObject.from(leafKeys.privateKey),
  };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS as Apple signs them: ES256, the certificate chain in `x5c`. */
function signJws(pki: Pki, payload: Record<string, unknown>): string {
  const input = `${b64url({ alg: 'ES256', x5c: pki.x5c })}.${b64url(payload)}`;
  const signature = sign('sha256', Buffer.from(input), { key: pki.leafKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

let nextId = 2_000_000_000_000_000;
const newTransactionId = () => String((nextId += 1));

type Tx = Record<string, unknown> & { transactionId: string; originalTransactionId: string };

/** A transaction's payload as Apple signs it (JWSTransaction), sandbox, for the test app. */
function appleTransaction(productId: string, extra: Record<string, unknown> = {}): Tx {
  const id = newTransactionId();
  const now = Date.now();
  return {
    transactionId: id,
    originalTransactionId: id,
    bundleId: BUNDLE_ID,
    productId,
    purchaseDate: now,
    originalPurchaseDate: now,
    quantity: 1,
    type: 'Consumable',
    inAppOwnershipType: 'PURCHASED',
    signedDate: now,
    environment: 'Sandbox',
    transactionReason: 'PURCHASE',
    storefront: 'USA',
    storefrontId: '143441',
    price: 1990,
    currency: 'USD',
    ...extra,
  };
}

function monthlyTransaction(extra: Record<string, unknown> = {}): Tx {
  return appleTransaction('till.monthly', {
    type: 'Auto-Renewable Subscription',
    subscriptionGroupIdentifier: '20000001',
    expiresDate: Date.now() + 30 * DAY,
    webOrderLineItemId: newTransactionId(),
    ...extra,
  });
}

/** A notification's payload (responseBodyV2DecodedPayload), its transaction signed inside. */
function notification(pki: Pki, type: string, tx: Tx, extra: Record<string, unknown> = {}) {
  return signJws(pki, {
    notificationType: type,
    notificationUUID: randomUUID(),
    version: '2.0',
    signedDate: Date.now(),
    data: {
      appAppleId: APP_APPLE_ID,
      bundleId: BUNDLE_ID,
      bundleVersion: '1',
      environment: 'Sandbox',
      signedTransactionInfo: signJws(pki, tx),
      status: 1,
    },
    ...extra,
  });
}

/** What the SDK sends for an `ios-appstore` transaction (its fields, the app receipt beside them). */
function pluginTransaction(fields: Record<string, unknown>): string {
  return JSON.stringify({
    platform: 'ios-appstore',
    state: 'approved',
    products: [{ id: 'till.credits100' }],
    ...fields,
  });
}

/** DER: a tag, its length, its content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
const int = (n: number) => der(0x02, n < 0x80 ? Buffer.from([n]) : Buffer.from([n >> 8, n & 0xff]));
const oid = (hex: string) => der(0x06, Buffer.from(hex, 'hex'));
const attribute = (type: number, value: Buffer) => der(0x30, int(type), int(1), der(0x04, value));

/** An app receipt (PKCS #7 around the receipt's attributes) holding one in-app purchase. */
function appReceipt(transactionId: string): string {
  const inApp = der(0x31, attribute(1703, der(0x0c, Buffer.from(transactionId))));
  const payload = der(0x31, attribute(2, der(0x0c, Buffer.from(BUNDLE_ID))), attribute(17, inApp));
  const signedData = der(0x30, int(1), der(0x31), der(0x30, oid('2a864886f70d010701'), der(0xa0, der(0x04, payload))));
  return der(0x30, oid('2a864886f70d010702'), der(0xa0, signedData)).toString('base64');
}

/**
 * A local App Store Server API: `GET /inApps/v1/transactions/{id}` answers `{signedTransactionInfo}`
 * as Apple's does, only for a bearer token signed (ES256) with the configured key, for the issuer,
 * key id, audience and bundle id.
 */
class FakeAppStoreApi {
  readonly signed = new Map<string, string>();
  readonly requests: { path: string; authorized: boolean }[] = [];
  private server: Server | undefined;
  url = '';

  constructor(private readonly publicKey: Key) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = req.url?.split('?')[0] ?? '';
      const authorized = this.authorized(req.headers.authorization);
      this.requests.push({ path, authorized });
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (!authorized) return answer(401, {});
      const id = /^\/inApps\/v1\/transactions\/(\d+)$/.exec(path)?.[1];
      const signed = id && req.method === 'GET' ? this.signed.get(id) : undefined;
      if (!signed) return answer(404, { errorCode: 4040010, errorMessage: 'Transaction id not found.' });
      return answer(200, { signedTransactionInfo: signed });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private authorized(header: string | undefined): boolean {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    const [head, body, signature] = token?.split('.') ?? [];
    if (!head || !body || !signature) return false;
    const signedOk = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key: this.publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    const h = JSON.parse(Buffer.from(head, 'base64url').toString()) as Record<string, unknown>;
    const p = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const now = Date.now() / 1000;
    return (
      signedOk &&
      h.alg === 'ES256' &&
      h.kid === KEY_ID &&
      p.iss === ISSUER_ID &&
      p.aud === 'appstoreconnect-v1' &&
      p.bid === BUNDLE_ID &&
      typeof p.exp === 'number' &&
      p.exp > now &&
      p.exp - now <= 3600
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe.each(dialects)('App Store platform on %s', (dialect) => {
  let t: TestApp;
  let apple: Pki;
  let stranger: Pki;
  let api: FakeAppStoreApi;
  let wrongKeyApi: FakeAppStoreApi;

  beforeAll(async () => {
    [apple, stranger] = await Promise.all([makePki('Apple Test'), makePki('Stranger')]);
    const apiKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    api = new FakeAppStoreApi(apiKey.publicKey);
    wrongKeyApi = new FakeAppStoreApi(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
    await Promise.all([api.start(), wrongKeyApi.start()]);
    const appstore: AppStoreConfig = {
      bundleId: BUNDLE_ID,
      appAppleId: APP_APPLE_ID,
      environment: 'Sandbox',
      issuerId: ISSUER_ID,
      keyId: KEY_ID,
      privateKey: apiKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      rootCertificates: [apple.root],
      apiUrl: api.url,
      // The test chain has no revocation responder; the signatures and the chain are checked all the same.
      onlineChecks: false,
    };
    t = await startTestApp({
      dialect,
      listen: true,
      config: { payments: { card: undefined, paywall: undefined, appstore } },
    });
  });
  afterAll(async () => {
    await Promise.all([api.close(), wrongKeyApi.close()]);
    await t.close();
  });

  const validate = (token: string, transactionData: string) =>
    t.call('/api/store/validatePurchase', { token, transactionData });
  const signedPurchase = (tx: Tx) =>
    pluginTransaction({ transactionId: tx.transactionId, jwsRepresentation: signJws(apple, tx) });
  const balance = async (token: string) =>
    (await ok<{ balance: number }>(t, '/api/store/credits', { token, page: 1, pageSize: 5 })).balance;
  const notify = async (signedPayload: string) => {
    const res = await fetch(`${t.url}/api/payments/webhook/apple`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signedPayload }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const ordersOf = async (token: string) =>
    (await ok<{ orders: { iden: string; status: string; provider: string }[] }>(t, '/api/store/orders', { token }))
      .orders;
  const subscriptionEnd = async (token: string) => {
    const { entitlements } = await ok<{ entitlements: { productId: string; expiresAt: string | null }[] }>(
      t,
      '/api/store/entitlements',
      { token },
    );
    const monthly = entitlements.find((e) => e.productId === 'monthly');
    return monthly?.expiresAt ? Date.parse(monthly.expiresAt) : undefined;
  };

  it('accepts a purchase Apple signed, names our products, and records a paid order', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100', { quantity: 2 });
    expect(await validate(b.token, signedPurchase(tx))).toEqual({
      code: 900,
      data: { result: 1, products: 'credits-100' },
    });
    expect(await balance(b.token)).toBe(200);
    expect(await ordersOf(b.token)).toEqual([expect.objectContaining({ provider: 'appstore', status: 'paid' })]);
    // The plugin's own validator body (StoreKit 2) is read too, and the same transaction is not granted twice.
    const sk2 = JSON.stringify({
      platform: 'ios-appstore',
      transaction: { type: 'apple-sk2', jwsRepresentation: signJws(apple, tx) },
    });
    expect(await validate(b.token, sk2)).toEqual({ code: 900, data: { result: 1, products: 'credits-100' } });
    expect(await balance(b.token)).toBe(200);
  });

  it('names several products joined with ;', async () => {
    const b = await registerUser(t);
    const credits = await validate(b.token, signedPurchase(appleTransaction('till.credits100')));
    const monthly = await validate(b.token, signedPurchase(monthlyTransaction()));
    const pro = await validate(
      b.token,
      signedPurchase(appleTransaction('till.pro_unlock', { type: 'Non-Consumable' })),
    );
    expect([credits, monthly, pro].map((r) => (r.data as { products: string }).products).join(';')).toBe(
      'credits-100;monthly;pro-unlock',
    );
  });

  it('refuses a tampered payload, a chain from another root, another app and an expired subscription (result 0)', async () => {
    const b = await registerUser(t);
    const jws = signJws(apple, appleTransaction('till.credits100'));
    const [head, , signature] = jws.split('.');
    const forged = `${head}.${b64url(appleTransaction('till.credits100', { quantity: 10 }))}.${signature}`;
    expect(await validate(b.token, pluginTransaction({ jwsRepresentation: forged }))).toEqual({
      code: 900,
      data: { result: 0, reason: 'signature' },
    });
    const foreign = signJws(stranger, appleTransaction('till.credits100'));
    expect(await validate(b.token, pluginTransaction({ jwsRepresentation: foreign }))).toEqual({
      code: 900,
      data: { result: 0, reason: 'signature' },
    });
    const otherApp = signJws(apple, appleTransaction('till.credits100', { bundleId: 'com.example.other' }));
    expect(await validate(b.token, pluginTransaction({ jwsRepresentation: otherApp }))).toEqual({
      code: 900,
      data: { result: 0, reason: 'bundle_id' },
    });
    const production = signJws(apple, appleTransaction('till.credits100', { environment: 'Production' }));
    expect(await validate(b.token, pluginTransaction({ jwsRepresentation: production }))).toEqual({
      code: 900,
      data: { result: 0, reason: 'environment' },
    });
    const expired = monthlyTransaction({ purchaseDate: Date.now() - 40 * DAY, expiresDate: Date.now() - 10 * DAY });
    expect(await validate(b.token, signedPurchase(expired))).toEqual({
      code: 900,
      data: { result: 0, reason: 'expired' },
    });
    const revoked = appleTransaction('till.credits100', { revocationDate: Date.now(), revocationReason: 0 });
    expect(await validate(b.token, signedPurchase(revoked))).toEqual({
      code: 900,
      data: { result: 0, reason: 'revoked' },
    });
    expect(await balance(b.token)).toBe(0);
    expect(await ordersOf(b.token)).toEqual([]);
  });

  it('refuses a transaction already granted to another user (already_used)', async () => {
    const first = await registerUser(t);
    const second = await registerUser(t);
    const data = signedPurchase(appleTransaction('till.credits100'));
    expect((await validate(first.token, data)).data).toEqual({ result: 1, products: 'credits-100' });
    expect(await validate(second.token, data)).toEqual({ code: 900, data: { result: 0, reason: 'already_used' } });
    expect(await balance(second.token)).toBe(0);
  });

  it('answers 907 for a transaction that is not shaped as the plugin sends it', async () => {
    const b = await registerUser(t);
    const malformed = [
      JSON.stringify({ platform: 'ios-appstore' }),
      JSON.stringify({ platform: 'ios-appstore', jwsRepresentation: 'not a jws' }),
      JSON.stringify({ platform: 'ios-appstore', transactionId: 42 }),
    ];
    for (const data of malformed)
      expect(await validate(b.token, data)).toEqual({ code: 907, parameter: 'transactionData', reason: 'invalid' });
  });

  it('fetches the transaction from the App Store Server API when only its id or the app receipt is sent', async () => {
    const b = await registerUser(t);
    const byId = appleTransaction('till.credits100');
    api.signed.set(byId.transactionId, signJws(apple, byId));
    const before = api.requests.length;
    expect(
      await validate(b.token, pluginTransaction({ transactionId: byId.transactionId, appStoreReceipt: '' })),
    ).toEqual({
      code: 900,
      data: { result: 1, products: 'credits-100' },
    });
    expect(api.requests.slice(before)).toEqual([
      { path: `/inApps/v1/transactions/${byId.transactionId}`, authorized: true },
    ]);

    const byReceipt = appleTransaction('till.credits100');
    api.signed.set(byReceipt.transactionId, signJws(apple, byReceipt));
    expect(
      await validate(b.token, pluginTransaction({ appStoreReceipt: appReceipt(byReceipt.transactionId) })),
    ).toEqual({
      code: 900,
      data: { result: 1, products: 'credits-100' },
    });
    expect(await balance(b.token)).toBe(200);

    // What the API answers is verified like the rest: a transaction signed under another root is refused.
    const foreign = appleTransaction('till.credits100');
    api.signed.set(foreign.transactionId, signJws(stranger, foreign));
    expect((await validate(b.token, pluginTransaction({ transactionId: foreign.transactionId }))).data).toEqual({
      result: 0,
      reason: 'signature',
    });
    // An id Apple does not know.
    expect((await validate(b.token, pluginTransaction({ transactionId: newTransactionId() }))).data).toEqual({
      result: 0,
      reason: 'unknown_transaction',
    });
    expect(await balance(b.token)).toBe(200);
  });

  it('sends the API a bearer token the fake checks (a key it does not know is refused)', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100');
    wrongKeyApi.signed.set(tx.transactionId, signJws(apple, tx));
    const config = t.ctx.config.payments.appstore;
    if (!config) throw new Error('no appstore config');
    const other = await startTestApp({
      dialect,
      config: { payments: { card: undefined, paywall: undefined, appstore: { ...config, apiUrl: wrongKeyApi.url } } },
    });
    try {
      const u = await registerUser(other);
      const res = await other.call('/api/store/validatePurchase', {
        token: u.token,
        transactionData: pluginTransaction({ transactionId: tx.transactionId }),
      });
      expect(res).toEqual({ code: 900, data: { result: 0, reason: 'store_unavailable' } });
      expect(wrongKeyApi.requests.at(-1)).toEqual({
        path: `/inApps/v1/transactions/${tx.transactionId}`,
        authorized: false,
      });
    } finally {
      await other.close();
    }
    expect(b.token).toBeTruthy();
  });

  it('reverses the grants on a refund notification, never below zero, recording the shortfall and flagging the buyer', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100', { quantity: 5 });
    expect((await validate(b.token, signedPurchase(tx))).data).toEqual({ result: 1, products: 'credits-100' });
    expect(await balance(b.token)).toBe(500);
    await ok(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['pro-unlock']),
      dataObj: '{}',
    });
    expect(await balance(b.token)).toBe(0);

    // Apple's one-time charge notification for the same purchase changes nothing.
    expect((await notify(notification(apple, 'ONE_TIME_CHARGE', tx))).status).toBe(200);
    expect(await balance(b.token)).toBe(0);

    const refund = await notify(
      notification(apple, 'REFUND', { ...tx, revocationDate: Date.now(), revocationReason: 0 }),
    );
    expect(refund).toEqual({ status: 200, body: { received: true, applied: true } });
    const [paid] = (await ordersOf(b.token)).filter((o) => o.provider === 'appstore');
    expect(paid?.status).toBe('refunded');
    expect(await balance(b.token)).toBe(0);
    const { token } = await anAdmin(t);
    const { orders } = await ok<{ orders: { iden: string; payment: { shortfallCredits: number } }[] }>(
      t,
      '/api/admin/orders/list',
      { token, provider: 'appstore', page: 1, pageSize: 100 },
    );
    expect(orders.find((o) => o.iden === paid?.iden)?.payment.shortfallCredits).toBe(500);
    const { users } = await ok<{ users: { flaggedAt: string | null }[] }>(t, '/api/admin/users/list', {
      token,
      query: b.email,
      page: 1,
      pageSize: 5,
    });
    expect(users[0]?.flaggedAt).not.toBeNull();
    await expectLedgerMatchesBalances(t);
  });

  it("moves the subscription's end to Apple's date on DID_RENEW, and ends it on EXPIRED", async () => {
    const b = await registerUser(t);
    const first = monthlyTransaction();
    expect((await validate(b.token, signedPurchase(first))).data).toEqual({ result: 1, products: 'monthly' });
    expect(await subscriptionEnd(b.token)).toBe(first.expiresDate);

    const renewedUntil = (first.expiresDate as number) + 31 * DAY;
    const renewal = monthlyTransaction({
      originalTransactionId: first.transactionId,
      purchaseDate: first.expiresDate,
      expiresDate: renewedUntil,
      transactionReason: 'RENEWAL',
    });
    expect(await notify(notification(apple, 'DID_RENEW', renewal))).toEqual({
      status: 200,
      body: { received: true, applied: true },
    });
    expect(await subscriptionEnd(b.token)).toBe(renewedUntil);

    // In a grace period nothing ends; an expiry ends the renewals and leaves the time paid.
    const grace = await notify(notification(apple, 'DID_FAIL_TO_RENEW', renewal, { subtype: 'GRACE_PERIOD' }));
    expect(grace).toEqual({ status: 200, body: { received: true, ignored: 'DID_FAIL_TO_RENEW' } });
    expect((await notify(notification(apple, 'EXPIRED', renewal, { subtype: 'VOLUNTARY' }))).status).toBe(200);
    expect(await subscriptionEnd(b.token)).toBe(renewedUntil);
  });

  it('applies the same notification once, even when it arrives 10 times at once', async () => {
    const b = await registerUser(t);
    const first = monthlyTransaction();
    expect((await validate(b.token, signedPurchase(first))).data).toEqual({ result: 1, products: 'monthly' });
    const renewal = monthlyTransaction({
      originalTransactionId: first.transactionId,
      expiresDate: (first.expiresDate as number) + 30 * DAY,
    });
    const payload = notification(apple, 'DID_RENEW', renewal);
    const answers = await Promise.all(Array.from({ length: 10 }, () => notify(payload)));
    for (const a of answers) expect(a.status).toBe(200);
    expect(answers.filter((a) => a.body.applied === true)).toHaveLength(1);
    const [order] = await ordersOf(b.token);
    const rows = await t.db.kysely
      .selectFrom('entitlements')
      .select('id')
      .where('order_id', '=', order?.iden ?? '')
      .execute();
    // The purchase's period and one renewal.
    expect(rows).toHaveLength(2);
  });

  it('answers 400 for a notification that does not verify, and 200 for TEST and for purchases it does not hold', async () => {
    const tx = appleTransaction('till.credits100');
    expect((await notify(notification(stranger, 'REFUND', tx))).status).toBe(400);
    const good = notification(apple, 'REFUND', tx);
    const [head, body] = good.split('.');
    expect((await notify(`${head}.${body}.${Buffer.from('forged').toString('base64url')}`)).status).toBe(400);
    const res = await fetch(`${t.url}/api/payments/webhook/apple`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nothing: true }),
    });
    expect(res.status).toBe(400);
    expect(
      await notify(
        signJws(apple, {
          notificationType: 'TEST',
          notificationUUID: randomUUID(),
          version: '2.0',
          signedDate: Date.now(),
          data: { appAppleId: APP_APPLE_ID, bundleId: BUNDLE_ID, environment: 'Sandbox' },
        }),
      ),
    ).toEqual({ status: 200, body: { received: true, ignored: 'TEST' } });
    expect(await notify(good)).toEqual({ status: 200, body: { received: true, ignored: 'REFUND' } });
  });

  it('is not offered at checkout: App Store purchases go through the app', async () => {
    const form = await ok<{ providers: { provider: string }[] }>(t, '/api/store/getCheckoutForm', {
      products: 'credits-100',
    });
    expect(form.providers.map((p) => p.provider)).not.toContain('appstore');
    expect(await post(t, '/api/store/validatePurchase', { transactionData: pluginTransaction({}) })).toEqual({
      code: 901,
    });
  });
});
