import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { startTestOp, testSigningKeys, type TestOp, type TestPerson } from '@till/test-support/oidc-provider';
import { startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { confirmedUser, GOOD_PASSWORD, stepUp, uniqueEmail } from '@till/test-support/users';

const APP_REDIRECT = 'com.example.till:/oauth';
const TEAM_ID = 'TEAMID1234';
const KEY_ID = 'KEYID12345';
const APPLE_CLIENT = 'com.example.till.web';

let people = 0;
const person = (fields: Partial<TestPerson> = {}): TestPerson => ({
  sub: `person-${++people}-${Date.now()}`,
  email: uniqueEmail('social'),
  email_verified: true,
  name: 'Sam Social',
  ...fields,
});

/**
 * Social sign-in against real OpenID providers (`oidc-provider`) started here: the web flow through
 * the server's callback, Apple's form post and client secret, and a phone's ID-token path.
 */
describe.each(dialects)('social sign-in on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let corp: TestOp;
  let rogue: TestOp;
  let apple: TestOp;
  let shift = 0;
  const appleKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  beforeAll(async () => {
    const keys = testSigningKeys();
    smtp = await startSmtp();
    corp = await startTestOp({ jwks: keys });
    // Same keys, another issuer: only the issuer check can refuse its tokens.
    rogue = await startTestOp({ jwks: keys });
    apple = await startTestOp({
      appleSecret: {
        teamId: TEAM_ID,
        keyId: KEY_ID,
        clientId: APPLE_CLIENT,
        publicKey: appleKey.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        staticSecret: 'apple-static',
      },
    });
    t = await startTestApp({
      dialect,
      listen: true,
      now: () => Date.now() + shift,
      env: {
        SMTP_URL: smtp.url,
        SOCIAL_OIDC_PROVIDERS: 'corp',
        SOCIAL_OIDC_CORP_ISSUER: corp.issuer,
        SOCIAL_OIDC_CORP_CLIENT_ID: 'till-web',
        SOCIAL_OIDC_CORP_CLIENT_SECRET: 'web-secret',
        SOCIAL_OIDC_CORP_APP_CLIENT_IDS: 'till-app',
        SOCIAL_OIDC_CORP_NAME: 'Corp ID',
        SOCIAL_APPLE_ISSUER: apple.issuer,
        SOCIAL_APPLE_CLIENT_ID: APPLE_CLIENT,
        SOCIAL_APPLE_TEAM_ID: TEAM_ID,
        SOCIAL_APPLE_KEY_ID: KEY_ID,
        SOCIAL_APPLE_PRIVATE_KEY: appleKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    });
    const callback = `${t.url}/api/social/callback`;
    const native = { token_endpoint_auth_method: 'none' as const, application_type: 'native' as const };
    corp.setClients([
      { client_id: 'till-web', client_secret: 'web-secret', redirect_uris: [callback] },
      { client_id: 'till-app', redirect_uris: [APP_REDIRECT], ...native },
      { client_id: 'other-app', redirect_uris: [APP_REDIRECT], ...native },
    ]);
    rogue.setClients([{ client_id: 'till-app', redirect_uris: [APP_REDIRECT], ...native }]);
    apple.setClients([{ client_id: APPLE_CLIENT, client_secret: 'apple-static', redirect_uris: [callback] }]);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await Promise.all([corp.close(), rogue.close(), apple.close()]);
  });

  /** Where the server's callback sends the browser, and what the fragment holds. */
  async function followCallback(res: Response): Promise<URLSearchParams> {
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location.startsWith(`${t.url}/social/finish#`)).toBe(true);
    return new URLSearchParams(new URL(location).hash.slice(1));
  }

  /** Through the provider and back: the callback URL the provider sent the browser to. */
  async function toCallback(who: TestPerson, change?: (url: URL) => void): Promise<string> {
    corp.nextPerson = who;
    const started = await t.call('/api/social/start', { provider: 'corp' });
    expect(started.code).toBe(900);
    const url = new URL((started.data as { url: string }).url);
    expect(url.origin).toBe(corp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    change?.(url);
    const stop = await corp.browse(url.href, `${t.url}/api/social/callback`);
    if (!('location' in stop)) throw new Error('expected a redirect');
    return stop.location;
  }

  async function webSignIn(who: TestPerson) {
    const fragment = await followCallback(await fetch(await toCallback(who), { redirect: 'manual' }));
    const ticket = fragment.get('ticket');
    expect(ticket).toBeTruthy();
    return t.call('/api/social/finish', { ticket });
  }

  async function phoneToken(who: TestPerson, op = corp, clientId = 'till-app', nonce?: string) {
    const n = nonce ?? ((await t.call('/api/social/nonce', { provider: 'corp' })).data as { nonce: string }).nonce;
    op.nextPerson = who;
    return op.nativeIdToken(clientId, APP_REDIRECT, n);
  }

  const userOf = (res: Record<string, unknown>) =>
    res.user as { id: string; email: string; name: string; level: number; emailConfirmed: boolean };
  const logKinds = async (token: string) =>
    (
      (await t.call('/api/auth/securityLog', { token })).data as {
        entries: { kind: string; detail: Record<string, unknown> }[];
      }
    ).entries;

  it('lists the providers that are on', async () => {
    const res = await t.call('/api/social/providers', {});
    expect(res).toEqual({
      code: 900,
      data: {
        providers: [
          { id: 'apple', kind: 'apple', name: 'Apple', native: false, web: true, appClientIds: [] },
          { id: 'corp', kind: 'oidc', name: 'Corp ID', native: true, web: true, appClientIds: ['till-app'] },
        ],
      },
    });
  });

  it('makes a confirmed account on a first web sign-in with a verified address, and signs it in again', async () => {
    const who = person({ name: 'Ada Provider' });
    const first = await webSignIn(who);
    expect(first.code).toBe(900);
    const user = userOf(first);
    expect(user).toMatchObject({ email: who.email, name: 'Ada Provider', level: 2, emailConfirmed: true });
    // The store opened its balance with the account, as at registration: credits can be granted to it.
    const balance = await t.ctx.db.kysely
      .selectFrom('credit_balances')
      .select('credits')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    expect(balance).toEqual({ credits: 0 });
    const again = await webSignIn(who);
    expect(again.code).toBe(900);
    expect(userOf(again).id).toBe(user.id);
    const kinds = (await logKinds(again.token as string)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'social_signin')).toHaveLength(2);
    expect(kinds).toContain('social_linked');
    // No password was ever set: a password login fails.
    expect((await t.call('/api/login', { email: who.email, password: GOOD_PASSWORD })).code).toBe(902);
  });

  it('refuses an address the provider does not vouch for, and makes no account', async () => {
    const who = person({ email_verified: false });
    expect(await webSignIn(who)).toEqual({ code: 907, parameter: 'email', reason: 'unverified' });
    const row = await t.ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', who.email ?? '')
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('links an address that has an account only once its password is given', async () => {
    const owner = await confirmedUser(t);
    const who = person({ email: owner.email });
    const asked = await webSignIn(who);
    expect(asked).toMatchObject({ code: 915, email: owner.email, provider: 'corp', expire: 900 });
    const link = asked.link as string;
    expect((await t.call('/api/auth/social/list', { token: owner.token })).data).toEqual({
      identities: [],
      hasPassword: true,
    });
    expect((await t.call('/api/social/linkWithPassword', { link, password: 'not the password at all' })).code).toBe(
      902,
    );
    const linked = await t.call('/api/social/linkWithPassword', { link, password: GOOD_PASSWORD });
    expect(linked.code).toBe(900);
    expect(userOf(linked).id).toBe(owner.userId);
    expect((await t.call('/api/social/linkWithPassword', { link, password: GOOD_PASSWORD })).code).toBe(911);
    const mail = await smtp.next(owner.email, /A change to your Till account/);
    expect(mail.text).toContain('sign-in with Corp ID was linked');
    const next = await webSignIn(who);
    expect(next.code).toBe(900);
    expect(userOf(next).id).toBe(owner.userId);
    const list = (await t.call('/api/auth/social/list', { token: owner.token })).data as {
      identities: { provider: string }[];
    };
    expect(list.identities.map((i) => i.provider)).toEqual(['corp']);
  });

  it('links an address that has an account through a mailed link, used once', async () => {
    const owner = await confirmedUser(t);
    const who = person({ email: owner.email });
    const asked = await webSignIn(who);
    expect(asked.code).toBe(915);
    expect(await t.call('/api/social/linkByMail', { link: asked.link })).toEqual({ code: 900 });
    const mail = await smtp.next(owner.email, /Link Corp ID/);
    const token = /\/social\/link\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();
    // Until the link is followed, the provider still does not sign in.
    expect((await webSignIn(who)).code).toBe(915);
    expect(await t.call('/api/social/confirmLink', { token })).toEqual({ code: 900, data: { provider: 'corp' } });
    expect(await t.call('/api/social/confirmLink', { token })).toEqual({ code: 911 });
    const signedIn = await webSignIn(who);
    expect(userOf(signedIn).id).toBe(owner.userId);
  });

  it('asks for the second factor after a provider sign-in when it is on', async () => {
    const owner = await confirmedUser(t);
    const setup = (await t.call('/api/auth/totp/setup', { token: owner.token })).data as { secret: string };
    const code = () =>
      new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate({ timestamp: Date.now() + shift });
    expect(
      (await t.call('/api/auth/totp/enable', { token: owner.token, code: code(), currentPassword: GOOD_PASSWORD }))
        .code,
    ).toBe(900);
    const who = person({ email: owner.email });
    const asked = await webSignIn(who);
    const linked = await t.call('/api/social/linkWithPassword', { link: asked.link, password: GOOD_PASSWORD });
    expect(linked).toMatchObject({ code: 913 });
    expect(linked.token).toBeUndefined();
    const again = await webSignIn(who);
    expect(again).toMatchObject({ code: 913 });
    // A code is good once: the next time step's, as a person would type it half a minute later.
    shift = 35_000;
    let done: Awaited<ReturnType<TestApp['call']>>;
    try {
      done = await t.call('/api/login/secondFactor', { challenge: again.challenge, code: code() });
    } finally {
      shift = 0;
    }
    expect(done.code).toBe(900);
    expect(userOf(done).id).toBe(owner.userId);
  });

  it('refuses a replayed callback and a replayed ticket', async () => {
    const callback = await toCallback(person());
    const fragment = await followCallback(await fetch(callback, { redirect: 'manual' }));
    expect((await followCallback(await fetch(callback, { redirect: 'manual' }))).get('error')).toBe('expired');
    const ticket = fragment.get('ticket');
    expect((await t.call('/api/social/finish', { ticket })).code).toBe(900);
    expect(await t.call('/api/social/finish', { ticket })).toEqual({ code: 911 });
  });

  it('refuses an ID token whose nonce is not the one the flow sent', async () => {
    const callback = await toCallback(person(), (url) =>
      url.searchParams.set('nonce', 'a-nonce-the-server-never-made'),
    );
    expect((await followCallback(await fetch(callback, { redirect: 'manual' }))).get('error')).toBe('failed');
  });

  it('takes Apple’s form post with a short-lived ES256 client secret, the name of the first sign-in and a relay address', async () => {
    const relay = `x${Date.now()}@privaterelay.appleid.com`;
    apple.nextPerson = { sub: `apple-${Date.now()}`, email: relay, email_verified: 'true', is_private_email: 'true' };
    const started = await t.call('/api/social/start', { provider: 'apple' });
    const url = new URL((started.data as { url: string }).url);
    expect(url.searchParams.get('response_mode')).toBe('form_post');
    expect(url.searchParams.get('scope')).toBe('openid email name');
    const stop = await apple.browse(url.href, `${t.url}/api/social/callback`);
    if (!('form' in stop)) throw new Error('expected a form post');
    expect(stop.form.action).toBe(`${t.url}/api/social/callback`);
    // Apple adds the name, on the first sign-in only, as `user`.
    const body = new URLSearchParams({
      ...stop.form.fields,
      user: JSON.stringify({ name: { firstName: 'Ida', lastName: 'Apfel' }, email: relay }),
    });
    const res = await fetch(stop.form.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    const ticket = (await followCallback(res)).get('ticket');
    const signedIn = await t.call('/api/social/finish', { ticket });
    expect(signedIn.code).toBe(900);
    expect(userOf(signedIn)).toMatchObject({ email: relay, name: 'Ida Apfel', emailConfirmed: true });
    const secret = apple.appleSecrets.at(-1);
    expect(secret?.header).toMatchObject({ alg: 'ES256', kid: KEY_ID });
    expect(secret?.payload).toMatchObject({ iss: TEAM_ID, sub: APPLE_CLIENT, aud: apple.issuer });
    expect((secret?.payload.exp ?? 0) - (secret?.payload.iat ?? 0)).toBeLessThanOrEqual(300);
  });

  describe('a phone app’s flow in the system browser', () => {
    it('comes back to the app’s URL scheme, and its ticket signs in only with the app’s secret', async () => {
      const secret = randomBytes(32).toString('base64url');
      const appChallenge = createHash('sha256').update(secret).digest('base64url');
      const through = async (who: TestPerson) => {
        corp.nextPerson = who;
        const started = await t.call('/api/social/start', { provider: 'corp', appChallenge });
        expect(started.code).toBe(900);
        const stop = await corp.browse((started.data as { url: string }).url, `${t.url}/api/social/callback`);
        if (!('location' in stop)) throw new Error('expected a redirect');
        const res = await fetch(stop.location, { redirect: 'manual' });
        const location = res.headers.get('location') ?? '';
        expect(location.startsWith('app.till.mobile:/social/finish#ticket=')).toBe(true);
        return new URLSearchParams(location.split('#')[1]).get('ticket');
      };
      const who = person();
      // Whoever gets the ticket without the secret (another app claiming the scheme) gets nothing.
      const stolen = await through(who);
      expect(await t.call('/api/social/finish', { ticket: stolen })).toEqual({ code: 911 });
      const guessed = await through(who);
      expect(
        await t.call('/api/social/finish', { ticket: guessed, appVerifier: randomBytes(32).toString('base64url') }),
      ).toEqual({ code: 911 });
      const ticket = await through(who);
      const signedIn = await t.call('/api/social/finish', { ticket, appVerifier: secret });
      expect(signedIn.code).toBe(900);
      expect(userOf(signedIn).email).toBe(who.email);
    });

    it('sends a cancelled flow and a connect flow back to the app too', async () => {
      const appChallenge = createHash('sha256').update('x'.repeat(43)).digest('base64url');
      const started = await t.call('/api/social/start', { provider: 'corp', appChallenge });
      const state = new URL((started.data as { url: string }).url).searchParams.get('state') ?? '';
      const denied = await fetch(`${t.url}/api/social/callback?error=access_denied&state=${state}`, {
        redirect: 'manual',
      });
      expect(denied.headers.get('location')).toBe('app.till.mobile:/social/finish#error=denied');
      const owner = await confirmedUser(t);
      await stepUp(t, owner.token);
      const connect = await t.call('/api/auth/social/connect', { token: owner.token, provider: 'corp', app: true });
      corp.nextPerson = person();
      const stop = await corp.browse((connect.data as { url: string }).url, `${t.url}/api/social/callback`);
      if (!('location' in stop)) throw new Error('expected a redirect');
      const location = (await fetch(stop.location, { redirect: 'manual' })).headers.get('location') ?? '';
      expect(location.startsWith('app.till.mobile:/profile#connectTicket=')).toBe(true);
      const ticket = new URLSearchParams(location.split('#')[1]).get('connectTicket');
      expect(await t.call('/api/auth/social/connectFinish', { token: owner.token, ticket })).toMatchObject({
        code: 900,
        data: { identity: { provider: 'corp' } },
      });
    });
  });

  describe('the phone’s ID token', () => {
    it('makes an account from a token for the app’s client id with a nonce from the server, once', async () => {
      const who = person();
      const idToken = await phoneToken(who);
      const res = await t.call('/api/social/idToken', { provider: 'corp', idToken, name: 'Ignored' });
      expect(res.code).toBe(900);
      expect(userOf(res)).toMatchObject({ email: who.email, name: 'Sam Social' });
      // The nonce is spent: the same token again is refused.
      expect(await t.call('/api/social/idToken', { provider: 'corp', idToken })).toEqual({ code: 902 });
    });

    it('refuses an unverified address, a nonce the server never gave, another audience, another issuer and an expired token', async () => {
      const unverified = await phoneToken(person({ email_verified: false }));
      expect(await t.call('/api/social/idToken', { provider: 'corp', idToken: unverified })).toMatchObject({
        code: 907,
        reason: 'unverified',
      });
      const madeUp = await phoneToken(person(), corp, 'till-app', 'made-up-nonce-made-up-nonce');
      expect(await t.call('/api/social/idToken', { provider: 'corp', idToken: madeUp })).toEqual({ code: 902 });
      const otherAudience = await phoneToken(person(), corp, 'other-app');
      expect(await t.call('/api/social/idToken', { provider: 'corp', idToken: otherAudience })).toEqual({ code: 902 });
      const otherIssuer = await phoneToken(person(), rogue);
      expect(await t.call('/api/social/idToken', { provider: 'corp', idToken: otherIssuer })).toEqual({ code: 902 });
      const later = await phoneToken(person());
      shift = 2 * 3_600_000;
      try {
        expect(await t.call('/api/social/idToken', { provider: 'corp', idToken: later })).toEqual({ code: 902 });
      } finally {
        shift = 0;
      }
    });
  });

  describe('connecting a provider from the profile', () => {
    /** The connect flow through the provider and back: where the server sends the browser. */
    async function connectFlow(token: string, op: TestOp, provider: string, who: TestPerson): Promise<URL> {
      const started = await t.call('/api/auth/social/connect', { token, provider });
      expect(started.code).toBe(900);
      op.nextPerson = who;
      const stop = await op.browse((started.data as { url: string }).url, `${t.url}/api/social/callback`);
      const res =
        'location' in stop
          ? await fetch(stop.location, { redirect: 'manual' })
          : await fetch(stop.form.action, {
              method: 'POST',
              redirect: 'manual',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams(stop.form.fields).toString(),
            });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(`${t.url}/profile`);
      return location;
    }
    const ticketOf = (url: URL) => new URLSearchParams(url.hash.slice(1)).get('connectTicket');

    it('links a provider to a password account after a step-up, logs it, mails the owner and signs in with it', async () => {
      const owner = await confirmedUser(t);
      expect(await t.call('/api/auth/social/connect', { token: owner.token, provider: 'corp' })).toMatchObject({
        code: 914,
      });
      await stepUp(t, owner.token);
      const who = person({ email: uniqueEmail('elsewhere') });
      const back = await connectFlow(owner.token, corp, 'corp', who);
      const done = await t.call('/api/auth/social/connectFinish', { token: owner.token, ticket: ticketOf(back) });
      expect(done).toMatchObject({ code: 900, data: { identity: { provider: 'corp', email: who.email } } });
      // The ticket is single use.
      expect(await t.call('/api/auth/social/connectFinish', { token: owner.token, ticket: ticketOf(back) })).toEqual({
        code: 911,
      });
      const list = (await t.call('/api/auth/social/list', { token: owner.token })).data as {
        identities: { provider: string; email: string }[];
      };
      expect(list.identities).toEqual([expect.objectContaining({ provider: 'corp', email: who.email })]);
      const linked = (await logKinds(owner.token)).filter((e) => e.kind === 'social_linked');
      expect(linked).toHaveLength(1);
      expect(linked[0]?.detail).toMatchObject({ provider: 'corp' });
      const mail = await smtp.next(owner.email, /A change to your Till account/);
      expect(mail.text).toContain('sign-in with Corp ID was linked');
      // The provider account, whose address is another one, now signs in to the owner's account.
      const signedIn = await webSignIn(who);
      expect(signedIn.code).toBe(900);
      expect(userOf(signedIn).id).toBe(owner.userId);
    });

    it('refuses a provider account linked to another account, and links nothing', async () => {
      const who = person();
      const other = await webSignIn(who);
      expect(other.code).toBe(900);
      const owner = await confirmedUser(t);
      await stepUp(t, owner.token);
      const back = await connectFlow(owner.token, corp, 'corp', who);
      expect(await t.call('/api/auth/social/connectFinish', { token: owner.token, ticket: ticketOf(back) })).toEqual({
        code: 907,
        parameter: 'provider',
        reason: 'taken',
      });
      expect((await t.call('/api/auth/social/list', { token: owner.token })).data).toEqual({
        identities: [],
        hasPassword: true,
      });
      expect(userOf(await webSignIn(who)).id).toBe(userOf(other).id);
    });

    it('lets an account without a password connect on its session alone, with Apple’s form post', async () => {
      const who = person();
      const made = await webSignIn(who);
      const token = made.token as string;
      const back = await connectFlow(token, apple, 'apple', {
        sub: `apple-connect-${who.sub}`,
        email: `r${Date.now()}@privaterelay.appleid.com`,
        email_verified: 'true',
        is_private_email: 'true',
      });
      const done = await t.call('/api/auth/social/connectFinish', { token, ticket: ticketOf(back) });
      expect(done).toMatchObject({ code: 900, data: { identity: { provider: 'apple' } } });
      const list = (await t.call('/api/auth/social/list', { token })).data as { identities: { provider: string }[] };
      expect(list.identities.map((i) => i.provider).sort()).toEqual(['apple', 'corp']);
    });

    it('takes the ticket only from the session that started the flow', async () => {
      const owner = await confirmedUser(t);
      await stepUp(t, owner.token);
      const second = await t.call('/api/login', { email: owner.email, password: GOOD_PASSWORD });
      expect(second.code).toBe(900);
      const stranger = await confirmedUser(t);
      const back = await connectFlow(owner.token, corp, 'corp', person());
      expect(await t.call('/api/auth/social/connectFinish', { token: stranger.token, ticket: ticketOf(back) })).toEqual(
        { code: 911 },
      );
      const again = await connectFlow(owner.token, corp, 'corp', person());
      expect(await t.call('/api/auth/social/connectFinish', { token: second.token, ticket: ticketOf(again) })).toEqual({
        code: 911,
      });
      expect(
        (await t.call('/api/auth/social/list', { token: owner.token })).data as { identities: unknown[] },
      ).toMatchObject({ identities: [] });
      // A plain sign-in's ticket is not a connect ticket either.
      const signIn = await followCallback(await fetch(await toCallback(person()), { redirect: 'manual' }));
      expect(
        await t.call('/api/auth/social/connectFinish', { token: owner.token, ticket: signIn.get('ticket') }),
      ).toEqual({ code: 911 });
    });

    it('comes back to the profile with the reason when the person cancels at the provider', async () => {
      const owner = await confirmedUser(t);
      await stepUp(t, owner.token);
      const started = await t.call('/api/auth/social/connect', { token: owner.token, provider: 'corp' });
      const state = new URL((started.data as { url: string }).url).searchParams.get('state') ?? '';
      const res = await fetch(`${t.url}/api/social/callback?error=access_denied&state=${state}`, {
        redirect: 'manual',
      });
      expect(res.headers.get('location')).toBe(`${t.url}/profile#connectError=denied`);
    });
  });

  describe('unlinking', () => {
    /** A provider-made account with a second provider linked by mail. */
    async function twoWays() {
      const who = person();
      const made = await webSignIn(who);
      const token = made.token as string;
      apple.nextPerson = { sub: `apple-${who.sub}`, email: who.email, email_verified: true };
      const started = await t.call('/api/social/start', { provider: 'apple' });
      const stop = await apple.browse((started.data as { url: string }).url, `${t.url}/api/social/callback`);
      if (!('form' in stop)) throw new Error('expected a form post');
      const res = await fetch(stop.form.action, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(stop.form.fields).toString(),
      });
      const asked = await t.call('/api/social/finish', { ticket: (await followCallback(res)).get('ticket') });
      expect(asked.code).toBe(915);
      await t.call('/api/social/linkByMail', { link: asked.link });
      const mail = await smtp.next(who.email ?? '', /Link Apple/);
      const mailed = /\/social\/link\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
      expect((await t.call('/api/social/confirmLink', { token: mailed })).code).toBe(900);
      const list = (await t.call('/api/auth/social/list', { token })).data as {
        identities: { id: string; provider: string }[];
      };
      expect(list.identities.map((i) => i.provider).sort()).toEqual(['apple', 'corp']);
      return { token, ids: list.identities.map((i) => i.id) };
    }

    it('removes a provider while another way in remains, and refuses the last one', async () => {
      const { token, ids } = await twoWays();
      expect(await t.call('/api/auth/social/unlink', { token, id: ids[0] })).toEqual({ code: 900, data: {} });
      expect(await t.call('/api/auth/social/unlink', { token, id: ids[1] })).toEqual({
        code: 912,
        status: 'linked',
        reason: 'last_way_in',
      });
      expect(await t.call('/api/auth/social/unlink', { token, id: ids[0] })).toEqual({ code: 904, parameter: 'id' });
      const kinds = (await logKinds(token)).map((e) => e.kind);
      expect(kinds).toContain('social_unlinked');
    });

    it('lets only one of two unlinks racing for the last two ways in through', async () => {
      const { token, ids } = await twoWays();
      const answers = await Promise.all(
        ids.map((id) =>
          fetch(`${t.url}/api/auth/social/unlink`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token, id }),
          }).then((r) => r.json() as Promise<{ code: number }>),
        ),
      );
      expect(answers.map((a) => a.code).sort()).toEqual([900, 912]);
      const left = (await t.call('/api/auth/social/list', { token })).data as { identities: unknown[] };
      expect(left.identities).toHaveLength(1);
    });
  });
});
