import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../../config.js';
import { hashToken } from '../../security/tokens.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { adminUser, confirmedUser, GOOD_PASSWORD } from '@till/test-support/users';

// A moment at the start of a 30-second step, so that "one step later" is exact.
const T0 = Math.floor(Date.UTC(2026, 10, 23, 12, 0, 0) / 30_000) * 30_000;
const STEP = 30_000;

/** The code an authenticator app shows for `secret` at `at` (the library, not the server, computes it). */
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

describe.each(dialects)('TOTP second factor on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let now = T0;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ dialect, now: () => now, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const login = (email: string) => t.call('/api/login', { email, password: GOOD_PASSWORD });
  const second = (challenge: string, proof: { code?: string; recoveryCode?: string }) =>
    t.call('/api/login/secondFactor', { challenge, ...proof });

  /** A confirmed user with TOTP on at `now`: their secret, recovery codes and token. */
  async function withTotp() {
    const u = await confirmedUser(t);
    const setup = await t.call('/api/auth/totp/setup', { token: u.token });
    expect(setup.code).toBe(900);
    const { secret, uri } = setup.data as { secret: string; uri: string };
    const enabled = await t.call('/api/auth/totp/enable', {
      token: u.token,
      code: codeAt(secret, now),
      currentPassword: GOOD_PASSWORD,
    });
    expect(enabled.code).toBe(900);
    return { ...u, secret, uri, recoveryCodes: (enabled.data as { recoveryCodes: string[] }).recoveryCodes };
  }

  async function challengeFor(email: string): Promise<string> {
    const first = await login(email);
    expect(first).toMatchObject({ code: 913, expire: 300 });
    return first.challenge as string;
  }

  it("ends the user's other sessions when the second factor is turned on, and keeps the one that did it", async () => {
    now = T0;
    const u = await confirmedUser(t);
    const others = await Promise.all([login(u.email), login(u.email)]);
    for (const o of others) expect(o.code).toBe(900);
    const setup = await t.call('/api/auth/totp/setup', { token: u.token });
    const { secret } = setup.data as { secret: string };
    const enabled = await t.call('/api/auth/totp/enable', {
      token: u.token,
      code: codeAt(secret, now),
      currentPassword: GOOD_PASSWORD,
    });
    expect(enabled.code).toBe(900);
    for (const o of others) expect(await t.call('/api/auth/getUserInfo', { token: o.token })).toEqual({ code: 901 });
    expect((await t.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(900);
  });

  it('sets up, enables with code and password, then asks every login for a code', async () => {
    now = T0;
    const u = await confirmedUser(t);
    const setup = await t.call('/api/auth/totp/setup', { token: u.token });
    const { secret, uri } = setup.data as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Till:/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    // Not on until confirmed: the login still answers a session.
    expect((await login(u.email)).code).toBe(900);

    const code = codeAt(secret, now);
    expect(
      await t.call('/api/auth/totp/enable', { token: u.token, code, currentPassword: 'a wrong password!' }),
    ).toEqual({ code: 902 });
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect(
      await t.call('/api/auth/totp/enable', { token: u.token, code: wrongCode, currentPassword: GOOD_PASSWORD }),
    ).toEqual({ code: 907, parameter: 'code', reason: 'invalid' });
    const enabled = await t.call('/api/auth/totp/enable', { token: u.token, code, currentPassword: GOOD_PASSWORD });
    expect(enabled.code).toBe(900);
    const codes = (enabled.data as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);

    const status = await t.call('/api/auth/secondFactor/status', { token: u.token });
    expect(status.data).toEqual({
      totp: { enabled: true, enabledAt: new Date(now).toISOString(), recoveryCodesLeft: 10 },
    });
    expect(JSON.stringify(status)).not.toContain(secret);
    expect((await t.call('/api/auth/totp/setup', { token: u.token })).code).toBe(912);

    // Kept sealed and hashed: neither the secret nor a recovery code is in the database as such.
    const stored = await t.ctx.db.kysely.selectFrom('user_totp').selectAll().where('user_id', '=', u.userId).execute();
    expect(stored[0]?.secret_enc).not.toContain(secret);
    const hashes = await t.ctx.db.kysely
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', u.userId)
      .execute();
    expect(hashes.map((h) => h.code_hash).join()).not.toContain(codes[0]!.replace(/-/g, ''));

    now = T0 + STEP;
    const challenge = await challengeFor(u.email);
    const row = await t.ctx.db.kysely
      .selectFrom('login_challenges')
      .selectAll()
      .where('user_id', '=', u.userId)
      .execute();
    expect(row.map((r) => r.token_hash)).toEqual([hashToken(challenge)]);
    const signed = await second(challenge, { code: codeAt(secret, now) });
    expect(signed).toMatchObject({ code: 900, expire: expect.any(Number), user: { id: u.userId } });
    expect((await t.call('/api/auth/getUserInfo', { token: signed.token })).code).toBe(900);
  });

  it('takes each code once: a replayed code is refused, also on a new challenge', async () => {
    now = T0;
    const u = await withTotp();
    now = T0 + 2 * STEP;
    const code = codeAt(u.secret, now);
    expect((await second(await challengeFor(u.email), { code })).code).toBe(900);
    expect(await second(await challengeFor(u.email), { code })).toEqual({ code: 902 });
    // The code of the step the setup used is older still: refused too.
    expect(await second(await challengeFor(u.email), { code: codeAt(u.secret, T0) })).toEqual({ code: 902 });
  });

  it("accepts the previous window's code and refuses one from two windows back", async () => {
    now = T0;
    const u = await withTotp();
    now = T0 + 4 * STEP;
    expect((await second(await challengeFor(u.email), { code: codeAt(u.secret, now - STEP) })).code).toBe(900);
    now = T0 + 8 * STEP;
    expect(await second(await challengeFor(u.email), { code: codeAt(u.secret, now - 2 * STEP) })).toEqual({
      code: 902,
    });
    // The next window's code (a phone a little ahead) is within the window too.
    expect((await second(await challengeFor(u.email), { code: codeAt(u.secret, now + STEP) })).code).toBe(900);
  });

  it('takes a recovery code once, whatever its case and dashes', async () => {
    now = T0;
    const u = await withTotp();
    const recovery = u.recoveryCodes[3]!;
    const typed = recovery.toUpperCase().replace(/-/g, ' ');
    const signed = await second(await challengeFor(u.email), { recoveryCode: typed });
    expect(signed.code).toBe(900);
    expect(await second(await challengeFor(u.email), { recoveryCode: recovery })).toEqual({ code: 902 });
    const status = await t.call('/api/auth/secondFactor/status', { token: signed.token });
    expect((status.data as { totp: { recoveryCodesLeft: number } }).totp.recoveryCodesLeft).toBe(9);
    // Another user's code is no good here.
    const other = await withTotp();
    expect(await second(await challengeFor(u.email), { recoveryCode: other.recoveryCodes[0]! })).toEqual({
      code: 902,
    });
  });

  it('lets one of many requests racing with one code, or one challenge, through', async () => {
    now = T0;
    const u = await withTotp();
    now = T0 + 2 * STEP;
    const code = codeAt(u.secret, now);
    const challenges = await Promise.all(Array.from({ length: 6 }, () => challengeFor(u.email)));
    const sameCode = await Promise.all(challenges.map((c) => second(c, { code })));
    expect(sameCode.map((r) => r.code).sort()).toEqual([900, 902, 902, 902, 902, 902]);

    now = T0 + 4 * STEP;
    const one = await challengeFor(u.email);
    const sameChallenge = await Promise.all(
      [-1, 0, 1].map((d) => second(one, { code: codeAt(u.secret, now + d * STEP) })),
    );
    expect(sameChallenge.filter((r) => r.code === 900)).toHaveLength(1);

    const recovery = u.recoveryCodes[0]!;
    const more = await Promise.all(Array.from({ length: 4 }, () => challengeFor(u.email)));
    const sameRecovery = await Promise.all(more.map((c) => second(c, { recoveryCode: recovery })));
    expect(sameRecovery.map((r) => r.code).sort()).toEqual([900, 902, 902, 902]);
  });

  it('answers 911 for a challenge used twice, expired, or unknown', async () => {
    now = T0;
    const u = await withTotp();
    now = T0 + 2 * STEP;
    const challenge = await challengeFor(u.email);
    expect((await second(challenge, { code: codeAt(u.secret, now) })).code).toBe(900);
    now = T0 + 3 * STEP;
    expect(await second(challenge, { code: codeAt(u.secret, now) })).toEqual({ code: 911 });

    const late = await challengeFor(u.email);
    now += 5 * 60_000 + 1_000;
    expect(await second(late, { code: codeAt(u.secret, now) })).toEqual({ code: 911 });
    expect(await second('x'.repeat(43), { code: codeAt(u.secret, now) })).toEqual({ code: 911 });
  });

  it('keeps a challenge for another try after a wrong code, and spends it after five', async () => {
    now = T0;
    const u = await withTotp();
    now = T0 + 2 * STEP;
    const right = codeAt(u.secret, now);
    const wrong = right === '123456' ? '654321' : '123456';
    const challenge = await challengeFor(u.email);
    expect(await second(challenge, { code: wrong })).toEqual({ code: 902 });
    expect((await second(challenge, { code: right })).code).toBe(900);

    const spent = await challengeFor(u.email);
    for (let i = 0; i < 5; i += 1) expect(await second(spent, { code: wrong })).toEqual({ code: 902 });
    now += STEP;
    expect(await second(spent, { code: codeAt(u.secret, now) })).toEqual({ code: 911 });
  });

  it('refuses wrong codes past the failure limit of passwords, even with a right one after', async () => {
    now = T0;
    const limited = await startTestApp({
      dialect,
      now: () => now,
      config: { rateLimits: { ...defaultRateLimits, loginPerIp: 1_000, loginFailuresPerAccountAndIp: 3 } },
    });
    try {
      const u = await confirmedUser(limited);
      const setup = (await limited.call('/api/auth/totp/setup', { token: u.token })).data as { secret: string };
      const enable = await limited.call('/api/auth/totp/enable', {
        token: u.token,
        code: codeAt(setup.secret, now),
        currentPassword: GOOD_PASSWORD,
      });
      expect(enable.code).toBe(900);
      now = T0 + 2 * STEP;
      const right = codeAt(setup.secret, now);
      const wrong = right === '123456' ? '654321' : '123456';
      const first = await limited.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
      expect(first.code).toBe(913);
      const challenge = first.challenge as string;
      const answers = [];
      for (let i = 0; i < 3; i += 1)
        answers.push((await limited.call('/api/login/secondFactor', { challenge, code: wrong })).code);
      expect(answers).toEqual([902, 902, 902]);
      const blocked = await limited.call('/api/login/secondFactor', { challenge, code: right });
      expect(blocked).toMatchObject({ code: 906, retryAfter: expect.any(Number) });
      // The password step is held by the same budget.
      expect((await limited.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).code).toBe(906);
    } finally {
      await limited.close();
    }
  });

  it('disables with the password and a code, or a recovery code', async () => {
    now = T0;
    const u = await withTotp();
    now = T0 + 2 * STEP;
    const code = codeAt(u.secret, now);
    expect(
      await t.call('/api/auth/totp/disable', { token: u.token, currentPassword: 'not the password', code }),
    ).toEqual({ code: 902 });
    expect(
      await t.call('/api/auth/totp/disable', {
        token: u.token,
        currentPassword: GOOD_PASSWORD,
        code: '000000' === code ? '111111' : '000000',
      }),
    ).toEqual({ code: 907, parameter: 'code', reason: 'invalid' });
    expect(await t.call('/api/auth/totp/disable', { token: u.token, currentPassword: GOOD_PASSWORD })).toEqual({
      code: 907,
      parameter: 'code',
      reason: 'invalid',
    });
    expect(await t.call('/api/auth/totp/disable', { token: u.token, currentPassword: GOOD_PASSWORD, code })).toEqual({
      code: 900,
      data: {},
    });
    expect((await login(u.email)).code).toBe(900);
    expect(await t.call('/api/auth/totp/disable', { token: u.token, currentPassword: GOOD_PASSWORD, code })).toEqual({
      code: 912,
      status: 'not_enabled',
    });

    const v = await withTotp();
    expect(
      await t.call('/api/auth/totp/disable', {
        token: v.token,
        currentPassword: GOOD_PASSWORD,
        recoveryCode: v.recoveryCodes[0],
      }),
    ).toEqual({ code: 900, data: {} });
    const left = await t.ctx.db.kysely
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', v.userId)
      .execute();
    expect(left).toEqual([]);
  });

  it('lets an administrator reset a second factor: logged and mailed to the user', async () => {
    now = T0;
    const u = await withTotp();
    const admin = await adminUser(t);
    expect(await t.call('/api/admin/users/resetSecondFactor', { token: u.token, userId: u.userId })).toEqual({
      code: 903,
      required: 9,
    });
    expect(await t.call('/api/admin/users/resetSecondFactor', { token: admin.token, userId: 'no-such-user' })).toEqual({
      code: 904,
      parameter: 'userId',
    });
    expect(await t.call('/api/admin/users/resetSecondFactor', { token: admin.token, userId: u.userId })).toEqual({
      code: 900,
      data: { reset: true },
    });
    expect((await login(u.email)).code).toBe(900);
    const mail = await smtp.next(u.email, /second factor/);
    expect(mail.text).toContain('administrator');
    const log = await t.call('/api/auth/securityLog', { token: u.token });
    const entries = (log.data as { entries: { kind: string; actorId: string | null }[] }).entries;
    expect(entries.find((e) => e.kind === 'second_factor_reset_by_admin')).toMatchObject({ actorId: admin.userId });
    expect(await t.call('/api/admin/users/resetSecondFactor', { token: admin.token, userId: u.userId })).toEqual({
      code: 900,
      data: { reset: false },
    });
  });
  it('asks for a code or a recovery code, spent once, to delete an account whose second factor is on', async () => {
    now = T0 + 100 * STEP;
    const u = await withTotp();
    now += 2 * STEP;
    const del = (proof: Record<string, string>) =>
      t.call('/api/auth/deleteAccount', { token: u.token, confirm: u.email, password: GOOD_PASSWORD, ...proof });
    expect(await del({})).toEqual({ code: 907, parameter: 'code', reason: 'required' });
    const code = codeAt(u.secret, now);
    expect(await del({ code: code === '000000' ? '111111' : '000000' })).toEqual({
      code: 907,
      parameter: 'code',
      reason: 'invalid',
    });
    expect(await del({ recoveryCode: 'not-a-code-at-all' })).toMatchObject({ code: 907 });
    // Nothing was deleted by the refusals: the session still works.
    expect((await t.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(900);
    expect(await del({ recoveryCode: u.recoveryCodes[0]! })).toEqual({ code: 900 });
    expect((await t.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(901);
    const kinds = await t.ctx.db.kysely
      .selectFrom('security_log')
      .select('kind')
      .where('user_id', '=', u.userId)
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['recovery_code_used', 'account_deleted']));
    // The second factor is gone with the account, and the log no longer says where it was used from.
    const db = t.ctx.db.kysely;
    for (const table of ['user_totp', 'recovery_codes', 'known_devices'] as const) {
      expect(await db.selectFrom(table).select('user_id').where('user_id', '=', u.userId).execute()).toEqual([]);
    }
    const seen = await db
      .selectFrom('security_log')
      .select(['ip', 'user_agent'])
      .where('user_id', '=', u.userId)
      .where((eb) => eb.or([eb('ip', 'is not', null), eb('user_agent', 'is not', null)]))
      .execute();
    expect(seen).toEqual([]);
  });
});
