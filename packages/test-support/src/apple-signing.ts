// Apple's side of App Store purchases for tests: a certificate chain shaped like Apple's (root,
// intermediate and leaf with Apple's marker extensions), transactions and notifications signed with it
// as Apple signs them (ES256 compact JWS, the chain in `x5c`), app receipts, and a local App Store
// Server API. The server verifies all of it with Apple's own library, exactly as in production: only
// the configured root differs.
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
import type { AppStoreConfig } from '@till/server/testing';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export const BUNDLE_ID = 'com.example.till';
export const APP_APPLE_ID = 1_234_567_890;
export const ISSUER_ID = '57246542-96fe-1a63-e053-0824d011072a';
export const KEY_ID = 'ABCDEFGHIJ';
export const DAY = 86_400_000;

/** Apple's marker extensions, which the library requires of the leaf and the intermediate. */
const LEAF_MARKER = '1.2.840.113635.100.6.11.1';
const INTERMEDIATE_MARKER = '1.2.840.113635.100.6.2.1';
const ASN1_NULL = new Uint8Array([0x05, 0x00]);

const ec = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A root, an intermediate and a leaf shaped like Apple's, and the leaf's key to sign with. */
export interface Pki {
  root: Buffer;
  /** The `x5c` header: leaf, intermediate, root (base64 DER). */
  x5c: string[];
  leafKey: Key;
}

export async function makePki(name: string): Promise<Pki> {
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

export const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS as Apple signs them: ES256, the certificate chain in `x5c`. */
export function signJws(pki: Pki, payload: Record<string, unknown>): string {
  const input = `${b64url({ alg: 'ES256', x5c: pki.x5c })}.${b64url(payload)}`;
  const signature = sign('sha256', Buffer.from(input), { key: pki.leafKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

let nextId = 2_000_000_000_000_000;
export const newTransactionId = () => String((nextId += 1));

export type Tx = Record<string, unknown> & { transactionId: string; originalTransactionId: string };

/** A transaction's payload as Apple signs it (JWSTransaction), sandbox, for the test app. */
export function appleTransaction(productId: string, extra: Record<string, unknown> = {}): Tx {
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

export function monthlyTransaction(extra: Record<string, unknown> = {}): Tx {
  return appleTransaction('till.monthly', {
    type: 'Auto-Renewable Subscription',
    subscriptionGroupIdentifier: '20000001',
    expiresDate: Date.now() + 30 * DAY,
    webOrderLineItemId: newTransactionId(),
    ...extra,
  });
}

/**
 * A notification's payload (responseBodyV2DecodedPayload), its transaction signed inside, for the
 * transaction's environment (Apple's production notifications also carry the app's Apple id).
 */
export function notification(pki: Pki, type: string, tx: Tx, extra: Record<string, unknown> = {}) {
  const environment = tx.environment === 'Production' ? 'Production' : 'Sandbox';
  return signJws(pki, {
    notificationType: type,
    notificationUUID: randomUUID(),
    version: '2.0',
    signedDate: Date.now(),
    data: {
      appAppleId: APP_APPLE_ID,
      bundleId: BUNDLE_ID,
      bundleVersion: '1',
      environment,
      signedTransactionInfo: signJws(pki, tx),
      status: 1,
    },
    ...extra,
  });
}

/** What the SDK sends for an `ios-appstore` transaction (its fields, the app receipt beside them). */
export function pluginTransaction(fields: Record<string, unknown>): string {
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
export function appReceipt(transactionId: string): string {
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
export class FakeAppStoreApi {
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

/** Apple's test chain, a local App Store Server API and a server config that trusts exactly that chain. */
export interface AppleTestStore {
  /** The chain the server trusts. */
  apple: Pki;
  /** A chain of the same shape under another root, which the server must refuse. */
  stranger: Pki;
  api: FakeAppStoreApi;
  /** The sandbox's API, which a `Production` config asks for transactions the production API does not know. */
  sandboxApi: FakeAppStoreApi;
  config: AppStoreConfig;
  close(): Promise<void>;
}

/**
 * Starts a local App Store Server API and makes the App Store config of a test app: sandbox, the
 * test bundle, a fresh In-App Purchase key the fake API checks, and only the test root trusted.
 */
export async function startAppleTestStore(): Promise<AppleTestStore> {
  const [apple, stranger] = await Promise.all([makePki('Apple Test'), makePki('Stranger')]);
  const apiKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const api = new FakeAppStoreApi(apiKey.publicKey);
  const sandboxApi = new FakeAppStoreApi(apiKey.publicKey);
  await Promise.all([api.start(), sandboxApi.start()]);
  const config: AppStoreConfig = {
    bundleId: BUNDLE_ID,
    appAppleId: APP_APPLE_ID,
    environment: 'Sandbox',
    issuerId: ISSUER_ID,
    keyId: KEY_ID,
    privateKey: apiKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    rootCertificates: [apple.root],
    apiUrl: api.url,
    acceptSandbox: true,
    sandboxApiUrl: sandboxApi.url,
    // The test chain has no revocation responder; the signatures and the chain are checked all the same.
    onlineChecks: false,
  };
  return {
    apple,
    stranger,
    api,
    sandboxApi,
    config,
    close: async () => {
      await Promise.all([api.close(), sandboxApi.close()]);
    },
  };
}
