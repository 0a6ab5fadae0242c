import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../../config.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { confirmedUser, GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';

const BUDGET = 3;
const WRONG = 'not the password at all';

// A signed-in user's password, asked again by a profile change, the second factor or deletion, spends
// the login's failure budgets: a session token alone is no way past them.
describe.each(dialects)('password checks of signed-in calls on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      config: { rateLimits: { ...defaultRateLimits, loginPerIp: 1_000, loginFailuresPerAccountAndIp: BUDGET } },
    });
  });
  afterAll(() => t.close());

  const changePassword = (token: string, currentPassword: string) =>
    t.call('/api/auth/updateInfo', { token, password: 'another fine passphrase', currentPassword });

  async function failedChecks(token: string): Promise<Record<string, unknown>[]> {
    const log = await t.call('/api/auth/securityLog', { token, pageSize: 100 });
    const entries = (log.data as { entries: { kind: string; detail: Record<string, unknown> }[] }).entries;
    return entries.filter((e) => e.kind === 'password_check_failed').map((e) => e.detail);
  }

  it('answers 906 once wrong current passwords in updateInfo spend the budget, and logs each', async () => {
    const u = await confirmedUser(t);
    const codes = [];
    for (let i = 0; i < BUDGET + 2; i += 1) codes.push((await changePassword(u.token, WRONG)).code);
    expect(codes).toEqual([902, 902, 902, 906, 906]);
    // The right password is held too while the budget is spent, and so is the login from that address.
    expect(await changePassword(u.token, GOOD_PASSWORD)).toMatchObject({ code: 906, retryAfter: expect.any(Number) });
    expect((await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).code).toBe(906);
    expect(await failedChecks(u.token)).toEqual(Array.from({ length: BUDGET }, () => ({ purpose: 'profile' })));
  });

  it('checks at most the budget of wrong current passwords sent at once', async () => {
    const u = await confirmedUser(t);
    const codes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t
          .call('/api/auth/updateInfo', { token: u.token, email: uniqueEmail(`race${i}`), currentPassword: WRONG })
          .then((r) => r.code),
      ),
    );
    expect(codes.filter((c) => c === 902)).toHaveLength(BUDGET);
    expect(codes.filter((c) => c === 906)).toHaveLength(30 - BUDGET);
    expect(await failedChecks(u.token)).toHaveLength(BUDGET);
  });

  it('gives a right current password its point back', async () => {
    const u = await confirmedUser(t);
    expect((await changePassword(u.token, WRONG)).code).toBe(902);
    for (let i = 0; i < BUDGET + 1; i += 1) {
      const next = i % 2 ? 'another fine passphrase' : GOOD_PASSWORD;
      const res = await t.call('/api/auth/updateInfo', {
        token: u.token,
        password: i % 2 ? GOOD_PASSWORD : 'another fine passphrase',
        currentPassword: next,
      });
      expect(res.code).toBe(900);
    }
  });

  it('spends the same budget on the passwords of the second factor and of deletion', async () => {
    const u = await confirmedUser(t);
    const setup = await t.call('/api/auth/totp/setup', { token: u.token });
    expect(setup.code).toBe(900);
    expect(
      (await t.call('/api/auth/totp/enable', { token: u.token, code: '123456', currentPassword: WRONG })).code,
    ).toBe(902);
    expect((await t.call('/api/auth/deleteAccount', { token: u.token, confirm: u.email, password: WRONG })).code).toBe(
      902,
    );
    expect((await changePassword(u.token, WRONG)).code).toBe(902);
    expect((await t.call('/api/auth/deleteAccount', { token: u.token, confirm: u.email, password: WRONG })).code).toBe(
      906,
    );
    expect(await failedChecks(u.token)).toEqual([
      { purpose: 'profile' },
      { purpose: 'delete' },
      { purpose: 'totp_enable' },
    ]);
  });
});
