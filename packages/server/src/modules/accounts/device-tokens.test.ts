import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../../config.js';
import { hashToken } from '../../security/tokens.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { confirmedUser, GOOD_PASSWORD } from '@till/test-support/users';
import { accountLimiters } from './limiters.js';

type Answer = Record<string, unknown> & { code: number };

describe.each(dialects)('device tokens on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    // The production budgets, except the per-address login count, which the strangers below would spend.
    t = await startTestApp({
      dialect,
      env: { SMTP_URL: smtp.url },
      config: { rateLimits: { ...defaultRateLimits, loginPerIp: 100_000 } },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const login = async (from: string, body: Record<string, unknown>): Promise<Answer> =>
    (await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: from, payload: body })).json();

  it('answers a device token with a sign-in, keeps only its hash, and gives the same one back to that device', async () => {
    const u = await confirmedUser(t);
    const first = await login('198.51.100.7', { email: u.email, password: GOOD_PASSWORD });
    expect(first.code).toBe(900);
    const deviceToken = first.deviceToken as string;
    expect(deviceToken).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    const rows = await t.ctx.db.kysely
      .selectFrom('device_tokens')
      .selectAll()
      .where('user_id', '=', u.userId)
      .execute();
    expect(rows.map((r) => r.token_hash)).toEqual([hashToken(deviceToken)]);
    const again = await login('198.51.100.7', { email: u.email, password: GOOD_PASSWORD, deviceToken });
    expect(again).toMatchObject({ code: 900, deviceToken });
    // Another device, or a token of another account, gets a token of its own.
    const other = await confirmedUser(t);
    const theirs = (await login('198.51.100.8', { email: other.email, password: GOOD_PASSWORD })).deviceToken;
    const fresh = await login('198.51.100.7', { email: u.email, password: GOOD_PASSWORD, deviceToken: theirs });
    expect(fresh.code).toBe(900);
    expect([deviceToken, theirs]).not.toContain(fresh.deviceToken);
  });

  it("lets the owner in on a known device while strangers from 10 addresses spend the account's budget", async () => {
    const owner = await confirmedUser(t);
    const home = '198.51.100.20';
    const { deviceToken } = await login(home, { email: owner.email, password: GOOD_PASSWORD });
    const strangers = Array.from({ length: 10 }, (_, i) => `203.0.113.${i + 1}`);
    // Twelve wrong guesses from each address, all at once: ten per address pass to the check, and
    // together they spend the account's hundred an hour.
    const guesses = await Promise.all(
      strangers.flatMap((ip) =>
        Array.from({ length: 12 }, (_, n) => login(ip, { email: owner.email, password: `wrong guess ${n}` })),
      ),
    );
    expect(guesses.filter((g) => g.code === 902)).toHaveLength(defaultRateLimits.loginFailuresPerAccount);
    expect(guesses.filter((g) => g.code === 906)).toHaveLength(120 - defaultRateLimits.loginFailuresPerAccount);
    // Spent for the hour: the right password from a new address, or without the device's token, is refused.
    const stranger = await login('203.0.113.99', { email: owner.email, password: GOOD_PASSWORD });
    expect(stranger.code).toBe(906);
    expect(stranger.retryAfter as number).toBeGreaterThan(900);
    expect((await login(home, { email: owner.email, password: GOOD_PASSWORD })).code).toBe(906);
    // The owner's device still gets in, from home or from anywhere.
    expect(await login(home, { email: owner.email, password: GOOD_PASSWORD, deviceToken })).toMatchObject({
      code: 900,
      deviceToken,
    });
    expect((await login('192.0.2.50', { email: owner.email, password: GOOD_PASSWORD, deviceToken })).code).toBe(900);
    // A stolen device token buys a guesser the budget of one address, no more.
    const thief = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        login(`192.0.2.${100 + n}`, { email: owner.email, password: `stolen token ${n}`, deviceToken }),
      ),
    );
    expect(thief.filter((g) => g.code === 902)).toHaveLength(defaultRateLimits.loginFailuresPerAccountAndIp);
    expect(thief.filter((g) => g.code === 906)).toHaveLength(12 - defaultRateLimits.loginFailuresPerAccountAndIp);
  });

  it("forgets the account's device tokens when its password is reset", async () => {
    const u = await confirmedUser(t);
    await login('198.51.100.30', { email: u.email, password: GOOD_PASSWORD });
    const count = async () =>
      (await t.ctx.db.kysely.selectFrom('device_tokens').select('token_hash').where('user_id', '=', u.userId).execute())
        .length;
    expect(await count()).toBe(1);
    expect((await t.call('/api/genResetLink', { email: u.email })).code).toBe(900);
    const token = linkToken(await smtp.next(u.email, /Reset/), 'reset');
    expect((await t.call(`/api/resetPassword/${token}`, { password: 'brand new passphrase' })).code).toBe(900);
    expect(await count()).toBe(0);
  });
});

describe('the account-wide failure budget', () => {
  it('holds 100 failures for an hour', async () => {
    const { loginFailures } = accountLimiters(defaultRateLimits, undefined);
    for (let i = 0; i < defaultRateLimits.loginFailuresPerAccount; i++)
      expect(await loginFailures.hit('a@b.test')).toBe(0);
    expect(await loginFailures.hit('a@b.test')).toBeGreaterThan(3_500);
  });
});
