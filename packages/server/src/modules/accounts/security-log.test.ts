import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SecurityEventKind, SecurityLogEntry } from '@till/protocol';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { adminUser, confirmedUser, GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const DAY = 86_400_000;

describe.each(dialects)('security log on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let now = Date.now();
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({
      dialect,
      now: () => now,
      env: { SMTP_URL: smtp.url, SECURITY_LOG_RETENTION_DAYS: '30' },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** A call from a given browser and address. */
  async function from(path: string, body: Record<string, unknown>, ua = FIREFOX, ip = '203.0.113.7') {
    const res = await t.app.inject({
      method: 'POST',
      url: path,
      payload: body,
      headers: { 'user-agent': ua },
      remoteAddress: ip,
    });
    return res.json<Record<string, unknown> & { code: number }>();
  }

  async function entries(token: string): Promise<SecurityLogEntry[]> {
    const res = await t.call('/api/auth/securityLog', { token, pageSize: 100 });
    expect(res.code).toBe(900);
    return (res.data as { entries: SecurityLogEntry[] }).entries;
  }

  async function only(token: string, kind: SecurityEventKind): Promise<SecurityLogEntry> {
    const found = (await entries(token)).filter((e) => e.kind === kind);
    expect(found).toHaveLength(1);
    return found[0]!;
  }

  it('logs a sign-in with its address and device, shown as browser and system', async () => {
    const u = await confirmedUser(t);
    const res = await from('/api/login', { email: u.email, password: GOOD_PASSWORD });
    expect(res.code).toBe(900);
    const entry = await only(u.token, 'signin');
    expect(entry).toMatchObject({
      ip: '203.0.113.7',
      device: { browser: 'Firefox', os: 'Windows' },
      actorId: null,
      detail: { method: 'password' },
    });
    expect(JSON.stringify(entry)).not.toContain('Gecko');
  });

  it('logs a failed sign-in', async () => {
    const u = await confirmedUser(t);
    expect((await from('/api/login', { email: u.email, password: 'not the password' })).code).toBe(902);
    // Written after the answer (a known address must answer in the time of an unknown one).
    await vi.waitFor(
      async () =>
        expect(await only(u.token, 'signin_failed')).toMatchObject({
          ip: '203.0.113.7',
          detail: { method: 'password' },
        }),
      { timeout: 20_000 },
    );
  });

  it('logs a password change', async () => {
    const u = await confirmedUser(t);
    const res = await t.call('/api/auth/updateInfo', {
      token: u.token,
      currentPassword: GOOD_PASSWORD,
      password: 'another long passphrase',
    });
    expect(res.code).toBe(900);
    await only(u.token, 'password_changed');
  });

  it('logs an e-mail change asked for and confirmed', async () => {
    const u = await confirmedUser(t);
    const to = uniqueEmail('moved');
    expect(
      (await t.call('/api/auth/updateInfo', { token: u.token, email: to, currentPassword: GOOD_PASSWORD })).code,
    ).toBe(900);
    expect(await only(u.token, 'email_change_requested')).toMatchObject({ detail: { to } });
    const token = linkToken(await smtp.next(to, /Confirm your new e-mail/), 'confirm');
    expect((await t.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json()).toEqual({ code: 900 });
    expect(await only(u.token, 'email_changed')).toMatchObject({ detail: { from: u.email, to } });
  });

  it('keeps kinds and times but no personal data once the account is deleted', async () => {
    const u = await confirmedUser(t, { name: 'Ada Lovelace' });
    const to = uniqueEmail('moved');
    await from('/api/login', { email: u.email, password: GOOD_PASSWORD });
    await from('/api/auth/updateInfo', { token: u.token, email: to, currentPassword: GOOD_PASSWORD });
    const token = linkToken(await smtp.next(to, /Confirm your new e-mail/), 'confirm');
    expect((await t.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json()).toEqual({ code: 900 });
    const rows = () =>
      t.ctx.db.kysely.selectFrom('security_log').selectAll().where('user_id', '=', u.userId).orderBy('at').execute();
    const before = await rows();
    expect(before.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['signin', 'email_change_requested', 'email_changed']),
    );
    expect(JSON.stringify(before)).toContain(u.email);

    expect((await from('/api/auth/deleteAccount', { token: u.token, confirm: to, password: GOOD_PASSWORD })).code).toBe(
      900,
    );
    const after = await rows();
    // Every entry is still there, with its kind and time, and the deletion is added.
    expect(after.slice(0, before.length).map((r) => [r.kind, Number(r.at)])).toEqual(
      before.map((r) => [r.kind, Number(r.at)]),
    );
    expect(after.map((r) => r.kind)).toContain('account_deleted');
    const text = JSON.stringify(after);
    for (const personal of [u.email, to, '203.0.113.7', 'Firefox', 'Ada']) expect(text).not.toContain(personal);
    for (const row of after.filter((r) => r.kind !== 'account_deleted')) expect(row.detail).toBeNull();
  });

  it('logs a reset link asked for and a reset', async () => {
    const u = await confirmedUser(t);
    expect((await from('/api/genResetLink', { email: u.email })).code).toBe(900);
    const token = linkToken(await smtp.next(u.email, /Reset/), 'reset');
    await only(u.token, 'password_reset_requested');
    // The reset ends every session; read the log with a new one.
    expect((await from(`/api/resetPassword/${token}`, { password: 'a new long passphrase' })).code).toBe(900);
    const again = await t.call('/api/login', { email: u.email, password: 'a new long passphrase' });
    expect(await only(again.token as string, 'password_reset')).toMatchObject({ ip: '203.0.113.7' });
  });

  it('logs sessions revoked with their count', async () => {
    const u = await confirmedUser(t);
    await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    expect(await t.call('/api/auth/revokeSessions', { token: u.token })).toEqual({ code: 900, data: { revoked: 2 } });
    expect(await only(u.token, 'sessions_revoked')).toMatchObject({ detail: { count: 2 } });
  });

  it('logs the second factor turned on, a recovery code used, and the factor turned off', async () => {
    const u = await confirmedUser(t);
    const { secret } = (await t.call('/api/auth/totp/setup', { token: u.token })).data as { secret: string };
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const enabled = await t.call('/api/auth/totp/enable', {
      token: u.token,
      code: totp.generate({ timestamp: now }),
      currentPassword: GOOD_PASSWORD,
    });
    await only(u.token, 'totp_enabled');
    const [recovery] = (enabled.data as { recoveryCodes: string[] }).recoveryCodes;
    const first = await from('/api/login', { email: u.email, password: GOOD_PASSWORD });
    const signed = await from('/api/login/secondFactor', { challenge: first.challenge, recoveryCode: recovery });
    expect(signed.code).toBe(900);
    await only(u.token, 'recovery_code_used');
    expect((await entries(u.token)).find((e) => e.kind === 'signin')).toMatchObject({
      detail: { method: 'recovery_code' },
    });
    now += 60_000;
    const off = await t.call('/api/auth/totp/disable', {
      token: u.token,
      currentPassword: GOOD_PASSWORD,
      code: totp.generate({ timestamp: now }),
    });
    expect(off.code).toBe(900);
    expect(await only(u.token, 'totp_disabled')).toMatchObject({ detail: { method: 'totp' } });
  });

  it('logs the second factor reset by an administrator, with the administrator as actor', async () => {
    const u = await confirmedUser(t);
    const { secret } = (await t.call('/api/auth/totp/setup', { token: u.token })).data as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: now });
    await t.call('/api/auth/totp/enable', { token: u.token, code, currentPassword: GOOD_PASSWORD });
    const admin = await adminUser(t);
    await t.call('/api/admin/users/resetSecondFactor', { token: admin.token, userId: u.userId });
    expect(await only(u.token, 'second_factor_reset_by_admin')).toMatchObject({ actorId: admin.userId });
  });

  it('logs credits adjusted by an administrator, and nothing for an adjustment refused', async () => {
    const u = await confirmedUser(t);
    const admin = await adminUser(t);
    const given = await from('/api/admin/credits/adjust', {
      token: admin.token,
      userId: u.userId,
      amount: 50,
      reason: 'Goodwill',
    });
    expect(given.code).toBe(900);
    const refused = await t.call('/api/admin/credits/adjust', {
      token: admin.token,
      userId: u.userId,
      amount: -80,
      reason: 'Too much',
    });
    expect(refused.code).toBe(909);
    expect(await only(u.token, 'admin_credits_adjusted')).toMatchObject({
      actorId: admin.userId,
      ip: '203.0.113.7',
      detail: { amount: 50, reason: 'Goodwill' },
    });
  });

  it.each([
    ['passkey_added', { name: 'Laptop' }],
    ['passkey_renamed', { name: 'Work laptop' }],
    ['passkey_removed', { name: 'Work laptop' }],
    ['passkey_signin', {}],
    ['account_deleted', {}],
    ['admin_level_changed', { level: 9 }],
  ] as const)('writes %s reported through the writer, in a transaction that can undo it', async (kind, detail) => {
    const u = await confirmedUser(t);
    const writer = (await import('./index.js')).SecurityLog;
    const log = new writer(t.ctx.db.kysely, () => now, 30);
    await log.write({ userId: u.userId, kind, ip: '198.51.100.1', userAgent: SAFARI_IPHONE, detail });
    expect(await only(u.token, kind)).toMatchObject({
      ip: '198.51.100.1',
      device: { browser: 'Safari', os: 'iOS' },
      detail,
    });
    // Written inside a transaction that rolls back, the entry goes with it.
    await t.ctx.db.kysely
      .transaction()
      .execute(async (trx) => {
        await log.write({ userId: u.userId, kind }, trx);
        throw new Error('undo');
      })
      .catch(() => undefined);
    expect((await entries(u.token)).filter((e) => e.kind === kind)).toHaveLength(1);
  });

  it('pages the log newest first; administrators read anyone’s, others only their own', async () => {
    const u = await confirmedUser(t);
    const start = now;
    for (let i = 0; i < 5; i += 1) {
      now = start + i * 1000;
      await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    }
    now = start;
    const page1 = await t.call('/api/auth/securityLog', { token: u.token, page: 1, pageSize: 2 });
    const page3 = await t.call('/api/auth/securityLog', { token: u.token, page: 3, pageSize: 2 });
    const first = page1.data as { entries: SecurityLogEntry[]; total: number };
    expect(first.total).toBe(5);
    expect(first.entries.map((e) => e.at)).toEqual([
      new Date(start + 4000).toISOString(),
      new Date(start + 3000).toISOString(),
    ]);
    expect((page3.data as { entries: SecurityLogEntry[] }).entries.map((e) => e.at)).toEqual([
      new Date(start).toISOString(),
    ]);

    const admin = await adminUser(t);
    const seen = await t.call('/api/admin/users/securityLog', { token: admin.token, userId: u.userId });
    expect((seen.data as { total: number }).total).toBe(5);
    expect(await t.call('/api/admin/users/securityLog', { token: u.token, userId: admin.userId })).toEqual({
      code: 903,
      required: 9,
    });
  });

  it('removes entries past the retention time in the housekeeping job, and keeps the rest', async () => {
    const u = await confirmedUser(t);
    const start = now;
    now = start - 31 * DAY;
    // From a phone, not used since.
    await from('/api/login', { email: u.email, password: GOOD_PASSWORD }, SAFARI_IPHONE, '198.51.100.9');
    now = start - 29 * DAY;
    await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    now = start;
    // Devices are remembered after the answer: wait for the phone's first use and the other
    // device's last one (the one the account was registered on) before the job runs.
    const lastSeen = async () =>
      (
        await t.ctx.db.kysely
          .selectFrom('known_devices')
          .select('last_seen_at')
          .where('user_id', '=', u.userId)
          .execute()
      )
        .map((d) => Number(d.last_seen_at))
        .sort((a, b) => a - b);
    await vi.waitFor(async () => expect(await lastSeen()).toEqual([start - 31 * DAY, start - 29 * DAY]), {
      timeout: 20_000,
    });
    const job = t.jobs.list.find((j) => j.name === 'accounts.security-log');
    expect(job).toBeDefined();
    const removed = await t.jobs.runner.turn(job!);
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = await entries(u.token);
    expect(left.map((e) => e.at)).toEqual([new Date(start - 29 * DAY).toISOString()]);
    // The device last used 29 days ago is still known; one unused for longer is forgotten.
    expect(await lastSeen()).toEqual([start - 29 * DAY]);
  });
});
