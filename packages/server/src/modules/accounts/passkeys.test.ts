import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../../config.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { RecordedSecurityEvents } from '@till/test-support/security-events';
import { provenUser } from '@till/test-support/users';
import { SoftAuthenticator, type OptionsJson, type Tamper } from '@till/test-support/webauthn';

type Body = Record<string, unknown> & { code: number };
const optionsOf = (res: Body) => (res.data as { options: OptionsJson }).options;

describe.each(dialects)('passkeys on %s', (dialect) => {
  let t: TestApp;
  let now = Date.now();
  const events = new RecordedSecurityEvents();
  // Without a listening server PUBLIC_URL is the default, so the relying party is `localhost`.
  const origin = 'http://localhost:3000';
  beforeAll(async () => {
    t = await startTestApp({ dialect, securityEvents: events, now: () => now });
  });
  afterAll(() => t.close());

  async function addPasskey(token: string, device: SoftAuthenticator, name = 'Laptop', tamper: Tamper = {}) {
    const options = optionsOf(await t.call('/api/auth/passkeys/registrationOptions', { token }));
    return t.call('/api/auth/passkeys/register', { token, name, credential: device.create(options, tamper) });
  }

  async function signIn(device: SoftAuthenticator, tamper: Tamper = {}) {
    const options = optionsOf(await t.call('/api/passkeys/signInOptions', {}));
    return t.call('/api/passkeys/signIn', { credential: device.get(options, tamper) });
  }

  it('registers a passkey from the profile and signs in with it alone, like a login', async () => {
    const u = await provenUser(t, { name: 'Ada' });
    const device = new SoftAuthenticator(origin);
    const options = optionsOf(await t.call('/api/auth/passkeys/registrationOptions', { token: u.token }));
    expect(options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name: u.email, displayName: 'Ada' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      attestation: 'none',
    });
    expect(Buffer.from(options.challenge, 'base64url')).toHaveLength(32);
    const added = await t.call('/api/auth/passkeys/register', {
      token: u.token,
      name: 'Laptop',
      credential: device.create(options),
    });
    expect(added.code).toBe(900);
    expect((added.data as { passkey: unknown }).passkey).toMatchObject({
      name: 'Laptop',
      lastUsedAt: null,
      transports: ['internal'],
      backedUp: false,
    });

    const signInOptions = optionsOf(await t.call('/api/passkeys/signInOptions', {}));
    // Discoverable: no credentials are named, the authenticator offers its own.
    expect(signInOptions.rpId).toBe('localhost');
    expect((signInOptions as { allowCredentials?: unknown[] }).allowCredentials ?? []).toEqual([]);
    now += 1000;
    const res = await t.call('/api/passkeys/signIn', { credential: device.get(signInOptions) });
    expect(res.code).toBe(900);
    expect(Object.keys(res).sort()).toEqual(['code', 'expire', 'token', 'user']);
    expect(res.user).toMatchObject({ id: u.userId, email: u.email });
    const me = await t.call('/api/auth/getUserInfo', { token: res.token });
    expect(me.user).toMatchObject({ id: u.userId });

    const list = await t.call('/api/auth/passkeys/list', { token: u.token });
    const [passkey] = (list.data as { passkeys: { lastUsedAt: string | null }[] }).passkeys;
    expect(passkey?.lastUsedAt).toBe(new Date(now).toISOString());
    const stored = await t.ctx.db.kysely.selectFrom('passkeys').selectAll().where('user_id', '=', u.userId).execute();
    expect(stored.map((p) => Number(p.counter))).toEqual([device.counter]);
    // The challenge is kept only as a hash, and is gone once answered.
    expect(await t.ctx.db.kysely.selectFrom('webauthn_challenges').selectAll().execute()).not.toContainEqual(
      expect.objectContaining({ challenge_hash: signInOptions.challenge }),
    );

    expect(events.kinds(u.userId)).toEqual(['passkey_added', 'passkey_signin']);
    expect(events.events.filter((e) => e.userId === u.userId).every((e) => e.inTransaction)).toBe(true);
  });

  it('refuses a registration from another origin, for another relying party, or with a used challenge', async () => {
    const u = await provenUser(t);
    const device = new SoftAuthenticator(origin);
    expect(await addPasskey(u.token, device, 'x', { origin: 'http://evil.example' })).toEqual({
      code: 907,
      parameter: 'credential',
      reason: 'invalid',
    });
    expect((await addPasskey(u.token, device, 'x', { rpId: 'evil.example' })).code).toBe(907);
    expect((await addPasskey(u.token, device, 'x', { noUserVerification: true })).code).toBe(907);

    const options = optionsOf(await t.call('/api/auth/passkeys/registrationOptions', { token: u.token }));
    const credential = device.create(options);
    expect((await t.call('/api/auth/passkeys/register', { token: u.token, name: 'a', credential })).code).toBe(900);
    expect(await t.call('/api/auth/passkeys/register', { token: u.token, name: 'b', credential })).toEqual({
      code: 907,
      parameter: 'credential',
      reason: 'challenge',
    });
    // Another user cannot answer a challenge made for this one.
    const other = await provenUser(t);
    const stolen = optionsOf(await t.call('/api/auth/passkeys/registrationOptions', { token: u.token }));
    const answer = new SoftAuthenticator(origin).create(stolen);
    expect(
      (await t.call('/api/auth/passkeys/register', { token: other.token, name: 'c', credential: answer })).code,
    ).toBe(907);
    const count = await t.ctx.db.kysely.selectFrom('passkeys').select('id').where('user_id', '=', u.userId).execute();
    expect(count).toHaveLength(1);
  });

  it('refuses a sign-in from another origin, for another relying party, replayed, badly signed, unverified, expired or cloned', async () => {
    const u = await provenUser(t);
    const device = new SoftAuthenticator(origin);
    expect((await addPasskey(u.token, device)).code).toBe(900);

    expect(await signIn(device, { origin: 'http://localhost:4000' })).toEqual({ code: 902 });
    expect(await signIn(device, { rpId: 'example.com' })).toEqual({ code: 902 });
    expect(await signIn(device, { badSignature: true })).toEqual({ code: 902 });
    expect(await signIn(device, { noUserVerification: true })).toEqual({ code: 902 });

    const options = optionsOf(await t.call('/api/passkeys/signInOptions', {}));
    const credential = device.get(options);
    expect((await t.call('/api/passkeys/signIn', { credential })).code).toBe(900);
    expect(await t.call('/api/passkeys/signIn', { credential })).toEqual({ code: 902 });

    const late = optionsOf(await t.call('/api/passkeys/signInOptions', {}));
    now += 5 * 60_000 + 1;
    expect(await t.call('/api/passkeys/signIn', { credential: device.get(late) })).toEqual({ code: 902 });

    // A counter that does not move forward means a copy of the key is in use somewhere.
    const row = await t.ctx.db.kysely
      .selectFrom('passkeys')
      .select('counter')
      .where('user_id', '=', u.userId)
      .executeTakeFirstOrThrow();
    const used = Number(row.counter);
    expect(used).toBeGreaterThan(0);
    expect(await signIn(device, { counter: used })).toEqual({ code: 902 });
    expect(await signIn(device, { counter: used - 1 })).toEqual({ code: 902 });
    expect((await signIn(device, { counter: used + 1 })).code).toBe(900);

    // A credential no account has.
    expect(await signIn(new SoftAuthenticator(origin))).toEqual({ code: 902 });
    expect(events.kinds(u.userId).filter((k) => k === 'passkey_signin')).toHaveLength(2);
  });

  it('lists, renames and removes passkeys; a removed one no longer signs in; others are out of reach', async () => {
    const u = await provenUser(t);
    const phone = new SoftAuthenticator(origin);
    const laptop = new SoftAuthenticator(origin);
    const first = (await addPasskey(u.token, phone, 'Phone')).data as { passkey: { id: string } };
    now += 1000;
    await addPasskey(u.token, laptop, 'Laptop');
    const listed = async () =>
      ((await t.call('/api/auth/passkeys/list', { token: u.token })).data as { passkeys: { name: string }[] }).passkeys;
    expect((await listed()).map((p) => p.name)).toEqual(['Laptop', 'Phone']);

    // The second passkey's registration options exclude the first two.
    const again = optionsOf(await t.call('/api/auth/passkeys/registrationOptions', { token: u.token })) as unknown as {
      excludeCredentials: { id: string }[];
    };
    expect(again.excludeCredentials.map((c) => c.id).sort()).toEqual([phone.id, laptop.id].sort());

    const id = first.passkey.id;
    const renamed = await t.call('/api/auth/passkeys/rename', { token: u.token, id, name: '  Work phone ' });
    expect((renamed.data as { passkey: { name: string } }).passkey.name).toBe('Work phone');
    expect(await t.call('/api/auth/passkeys/rename', { token: u.token, id, name: '' })).toMatchObject({ code: 907 });

    const stranger = await provenUser(t);
    expect(await t.call('/api/auth/passkeys/rename', { token: stranger.token, id, name: 'Mine' })).toEqual({
      code: 904,
      parameter: 'id',
    });
    expect(await t.call('/api/auth/passkeys/remove', { token: stranger.token, id })).toEqual({
      code: 904,
      parameter: 'id',
    });

    expect((await t.call('/api/auth/passkeys/remove', { token: u.token, id })).code).toBe(900);
    expect((await listed()).map((p) => p.name)).toEqual(['Laptop']);
    expect(await signIn(phone)).toEqual({ code: 902 });
    expect((await signIn(laptop)).code).toBe(900);
    expect(events.kinds(u.userId)).toEqual([
      'passkey_added',
      'passkey_added',
      'passkey_renamed',
      'passkey_removed',
      'passkey_signin',
    ]);
    expect(events.events.find((e) => e.kind === 'passkey_removed' && e.userId === u.userId)?.detail).toEqual({
      passkeyId: id,
      name: 'Work phone',
    });
  });

  it('removes challenges nobody answered once they have expired (hourly housekeeping)', async () => {
    await t.call('/api/passkeys/signInOptions', {});
    const challenges = () => t.ctx.db.kysely.selectFrom('webauthn_challenges').select('expires_at').execute();
    expect((await challenges()).length).toBeGreaterThan(0);
    now += 5 * 60_000 + 1;
    const job = t.jobs.list.find((j) => j.name === 'accounts.expired')!;
    expect(await job.run(now)).toBeGreaterThan(0);
    expect(await challenges()).toEqual([]);
  });

  it('answers 901 to the profile calls without a session', async () => {
    for (const path of [
      '/api/auth/passkeys/registrationOptions',
      '/api/auth/passkeys/register',
      '/api/auth/passkeys/list',
      '/api/auth/passkeys/rename',
      '/api/auth/passkeys/remove',
      '/api/auth/passkeys/confirmOptions',
    ]) {
      expect(await t.call(path, { token: 'no-such-token-at-all' })).toEqual({ code: 901 });
    }
  });
});

describe.each(dialects)('passkey sign-in limits on %s', (dialect) => {
  it('spends the login budgets: per address, and failures per account', async () => {
    const t = await startTestApp({
      dialect,
      config: { rateLimits: { ...defaultRateLimits, loginPerIp: 100, loginFailuresPerAccountAndIp: 3 } },
    });
    try {
      const origin = 'http://localhost:3000';
      const u = await provenUser(t);
      const device = new SoftAuthenticator(origin);
      const options = (await t.call('/api/auth/passkeys/registrationOptions', { token: u.token })).data as {
        options: OptionsJson;
      };
      await t.call('/api/auth/passkeys/register', {
        token: u.token,
        name: 'Key',
        credential: device.create(options.options),
      });
      const attempt = async (tamper: Tamper = {}) => {
        const o = optionsOf(await t.call('/api/passkeys/signInOptions', {}));
        return t.call('/api/passkeys/signIn', { credential: device.get(o, tamper) });
      };
      // A good assertion gives its failure point back.
      for (let i = 0; i < 4; i += 1) expect((await attempt()).code).toBe(900);
      for (let i = 0; i < 3; i += 1) expect(await attempt({ badSignature: true })).toEqual({ code: 902 });
      // The account's failure budget from this address is spent: even a good assertion waits.
      expect(await attempt()).toMatchObject({ code: 906 });
      // And a password login to the same account from here waits as well: one budget.
      expect(await t.call('/api/login', { email: u.email, password: 'whatever it is' })).toMatchObject({ code: 906 });
    } finally {
      await t.close();
    }
  });

  it('refuses options once the address has spent its login attempts', async () => {
    const t = await startTestApp({ dialect, config: { rateLimits: { ...defaultRateLimits, loginPerIp: 2 } } });
    try {
      expect((await t.call('/api/passkeys/signInOptions', {})).code).toBe(900);
      expect((await t.call('/api/passkeys/signInOptions', {})).code).toBe(900);
      expect(await t.call('/api/passkeys/signInOptions', {})).toMatchObject({ code: 906 });
    } finally {
      await t.close();
    }
  });
});
