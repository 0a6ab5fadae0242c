import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { startTestOp, type TestOp } from '@till/test-support/oidc-provider';
import { uniqueEmail } from '@till/test-support/users';

const BUNDLE_ID = 'app.till.mobile';
const REDIRECT = 'app.till.mobile:/oauth';

/** A key pair and the JWKS that publishes its public half, as Apple's keys URL does. */
function signingKey(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    kid,
    privateKey,
    jwk: async (): Promise<JWK> => ({ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }),
  };
}

/**
 * Apple's server-to-server notifications against the real server: signed with keys this test
 * publishes at the URL the server is given, about identities linked through a real sign-in.
 */
describe.each(dialects)('Apple’s sign-in notifications on %s', (dialect) => {
  let t: TestApp;
  let apple: TestOp;
  let keysServer: Server;
  const key = signingKey('apple-test-1');
  const stranger = signingKey('apple-test-1');

  beforeAll(async () => {
    const jwks = { keys: [await key.jwk()] };
    keysServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => keysServer.listen(0, '127.0.0.1', resolve));
    apple = await startTestOp();
    t = await startTestApp({
      dialect,
      listen: true,
      poolSize: 10,
      env: {
        SOCIAL_APPLE_ISSUER: apple.issuer,
        SOCIAL_APPLE_APP_CLIENT_IDS: BUNDLE_ID,
        SOCIAL_APPLE_NOTIFICATION_KEYS_URL: `http://127.0.0.1:${(keysServer.address() as AddressInfo).port}/auth/keys`,
      },
    });
    apple.setClients([
      {
        client_id: BUNDLE_ID,
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      },
    ]);
  });
  afterAll(async () => {
    await t.close();
    await apple.close();
    await new Promise<void>((resolve) => keysServer.close(() => resolve()));
  });

  /** A person signed in with Apple in the iOS app: their account and Apple's subject for them. */
  async function appleAccount(relay = true) {
    const sub = `000${randomUUID()}`;
    const email = relay ? `${sub.slice(0, 12)}@privaterelay.appleid.com` : uniqueEmail('apple');
    const nonce = ((await t.call('/api/social/nonce', { provider: 'apple' })).data as { nonce: string }).nonce;
    apple.nextPerson = { sub, email, email_verified: 'true', is_private_email: relay ? 'true' : 'false' };
    const idToken = await apple.nativeIdToken(BUNDLE_ID, REDIRECT, nonce);
    const res = await t.call('/api/social/idToken', { provider: 'apple', idToken, name: 'Ida Apfel' });
    expect(res.code).toBe(900);
    return { sub, token: res.token as string, userId: (res.user as { id: string }).id };
  }

  /** Apple's notification: `events` as the JSON string Apple sends. */
  async function notification(
    event: { type: string; sub: string },
    fields: { signer?: typeof key; iss?: string; aud?: string; exp?: number; jti?: string } = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      events: JSON.stringify({
        ...event,
        email: 'x@privaterelay.appleid.com',
        is_private_email: 'true',
        event_time: now,
      }),
    })
      .setProtectedHeader({ alg: 'RS256', kid: (fields.signer ?? key).kid })
      .setIssuer(fields.iss ?? apple.issuer)
      .setAudience(fields.aud ?? BUNDLE_ID)
      .setIssuedAt(now)
      .setExpirationTime(fields.exp ?? now + 300)
      .setJti(fields.jti ?? randomUUID())
      .sign((fields.signer ?? key).privateKey);
  }

  async function post(payload: string) {
    const res = await fetch(`${t.url}/api/social/apple/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payload }),
    });
    return { status: res.status, body: (await res.json()) as { outcome: string } };
  }

  const linked = async (token: string) =>
    ((await t.call('/api/auth/social/list', { token })).data as { identities: { provider: string }[] }).identities;
  const unlinkEntries = async (token: string) =>
    (
      (await t.call('/api/auth/securityLog', { token })).data as {
        entries: { kind: string; detail: Record<string, unknown> }[];
      }
    ).entries.filter((e) => e.kind === 'social_unlinked');

  it('unlinks Apple when the account is deleted at Apple, logs it, and applies a repeat once', async () => {
    const who = await appleAccount();
    const payload = await notification({ type: 'account-delete', sub: who.sub });
    expect(await post(payload)).toEqual({ status: 200, body: { outcome: 'applied' } });
    expect(await linked(who.token)).toEqual([]);
    expect(await post(payload)).toEqual({ status: 200, body: { outcome: 'repeated' } });
    const entries = await unlinkEntries(who.token);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.detail).toMatchObject({ provider: 'apple', reason: 'account-delete' });
  });

  it('unlinks Apple when the person stops using Apple ID with the app', async () => {
    const who = await appleAccount();
    expect((await post(await notification({ type: 'consent-revoked', sub: who.sub }))).body.outcome).toBe('applied');
    expect(await linked(who.token)).toEqual([]);
    expect((await unlinkEntries(who.token))[0]?.detail).toMatchObject({ reason: 'consent-revoked' });
  });

  it('marks the relay address as not delivering, and as delivering again', async () => {
    const who = await appleAccount();
    const disabledAt = async () =>
      (
        await t.ctx.db.kysely
          .selectFrom('social_identities')
          .select('email_disabled_at')
          .where('user_id', '=', who.userId)
          .executeTakeFirstOrThrow()
      ).email_disabled_at;
    expect(await disabledAt()).toBeNull();
    expect((await post(await notification({ type: 'email-disabled', sub: who.sub }))).body.outcome).toBe('applied');
    expect(Number(await disabledAt())).toBeGreaterThan(0);
    expect((await post(await notification({ type: 'email-enabled', sub: who.sub }))).body.outcome).toBe('applied');
    expect(await disabledAt()).toBeNull();
    // The identity stays linked through both.
    expect((await linked(who.token)).map((i) => i.provider)).toEqual(['apple']);
  });

  it('refuses what Apple did not sign for this server, and changes nothing', async () => {
    const who = await appleAccount();
    const event = { type: 'account-delete', sub: who.sub };
    const past = Math.floor(Date.now() / 1000) - 60;
    for (const payload of [
      // The same key id, another key: only the signature check can refuse it.
      await notification(event, { signer: stranger }),
      await notification(event, { iss: 'https://appleid.example' }),
      await notification(event, { aud: 'com.someone.else' }),
      await notification(event, { exp: past }),
      'not.a.jwt',
    ])
      expect(await post(payload)).toEqual({ status: 400, body: { outcome: 'refused' } });
    expect((await linked(who.token)).map((i) => i.provider)).toEqual(['apple']);
  });

  it('takes a notification about no linked identity without changing anything', async () => {
    expect(await post(await notification({ type: 'account-delete', sub: 'never-signed-in' }))).toEqual({
      status: 200,
      body: { outcome: 'unknown' },
    });
  });

  it('applies one of two deliveries of a notification arriving at once', async () => {
    const who = await appleAccount();
    const payload = await notification({ type: 'account-delete', sub: who.sub });
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(payload)));
    expect(answers.map((a) => a.body.outcome).sort()).toEqual([
      'applied',
      'repeated',
      'repeated',
      'repeated',
      'repeated',
      'repeated',
    ]);
    expect(await unlinkEntries(who.token)).toHaveLength(1);
  });
});
