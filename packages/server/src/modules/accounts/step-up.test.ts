import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../../config.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { adminUser, confirmedUser, GOOD_PASSWORD, stepUp } from '@till/test-support/users';
import { SoftAuthenticator, type OptionsJson } from '@till/test-support/webauthn';

// The start of a 30-second step, so that codes computed here match the server's clock exactly.
const T0 = Math.floor(Date.UTC(2026, 10, 27, 9, 0, 0) / 30_000) * 30_000;
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
const STEP_UP_REQUIRED = { code: 914, within: 300 };

describe.each(dialects)('step-up for credential changes on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let now = T0;
  // Without a listening server PUBLIC_URL is the default, so the relying party is `localhost`.
  const origin = 'http://localhost:3000';
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ dialect, now: () => now, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const optionsOf = (res: Record<string, unknown>) => (res.data as { options: OptionsJson }).options;
  async function addPasskey(token: string, device: SoftAuthenticator) {
    const options = optionsOf(await t.call('/api/auth/passkeys/registrationOptions', { token }));
    return t.call('/api/auth/passkeys/register', { token, name: 'Laptop', credential: device.create(options) });
  }

  it('adds or removes a passkey only within five minutes of proving the password on that session', async () => {
    now = T0;
    const u = await confirmedUser(t);
    expect(await t.call('/api/auth/passkeys/registrationOptions', { token: u.token })).toEqual(STEP_UP_REQUIRED);
    expect(await t.call('/api/auth/stepUp', { token: u.token, password: 'not my password' })).toEqual({ code: 902 });
    expect(await t.call('/api/auth/stepUp', { token: u.token, password: GOOD_PASSWORD })).toEqual({
      code: 900,
      data: { validFor: 300 },
    });
    const device = new SoftAuthenticator(origin);
    const added = await addPasskey(u.token, device);
    expect(added.code).toBe(900);
    const id = (added.data as { passkey: { id: string } }).passkey.id;
    // Another session of the same user has proven nothing.
    const other = await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    expect(await t.call('/api/auth/passkeys/remove', { token: other.token, id })).toEqual(STEP_UP_REQUIRED);
    now += 301_000;
    expect(await t.call('/api/auth/passkeys/remove', { token: u.token, id })).toEqual(STEP_UP_REQUIRED);
    await stepUp(t, u.token);
    expect((await t.call('/api/auth/passkeys/remove', { token: u.token, id })).code).toBe(900);
  });

  it("asks an administrator for a recent proof before a level change, a second factor's reset or a refund", async () => {
    now = T0;
    const admin = await adminUser(t);
    const member = await confirmedUser(t);
    now += 301_000;
    expect(await t.call('/api/admin/users/setLevel', { token: admin.token, userId: member.userId, level: 9 })).toEqual(
      STEP_UP_REQUIRED,
    );
    expect(await t.call('/api/admin/users/resetSecondFactor', { token: admin.token, userId: member.userId })).toEqual(
      STEP_UP_REQUIRED,
    );
    expect(await t.call('/api/admin/orders/refund', { token: admin.token, iden: 'no-such-order' })).toEqual(
      STEP_UP_REQUIRED,
    );
    await stepUp(t, admin.token);
    expect(
      (await t.call('/api/admin/users/setLevel', { token: admin.token, userId: member.userId, level: 9 })).code,
    ).toBe(900);
    expect(
      (await t.call('/api/admin/users/resetSecondFactor', { token: admin.token, userId: member.userId })).code,
    ).toBe(900);
    expect((await t.call('/api/admin/orders/refund', { token: admin.token, iden: 'no-such-order' })).code).toBe(904);
  });

  it('with a second factor on, needs a code to step up, and a step-up to change the e-mail or password', async () => {
    now = T0;
    const u = await confirmedUser(t);
    const { secret } = (await t.call('/api/auth/totp/setup', { token: u.token })).data as { secret: string };
    const on = await t.call('/api/auth/totp/enable', {
      token: u.token,
      code: codeAt(secret, now),
      currentPassword: GOOD_PASSWORD,
    });
    expect(on.code).toBe(900);
    now += 301_000;
    const change = { token: u.token, currentPassword: GOOD_PASSWORD, password: 'a different long passphrase' };
    // The password alone no longer proves the owner.
    expect(await t.call('/api/auth/updateInfo', change)).toEqual(STEP_UP_REQUIRED);
    expect(await t.call('/api/auth/stepUp', { token: u.token, password: GOOD_PASSWORD })).toEqual({
      code: 907,
      parameter: 'code',
      reason: 'required',
    });
    const wrong = codeAt(secret, now) === '000000' ? '111111' : '000000';
    expect(await t.call('/api/auth/stepUp', { token: u.token, password: GOOD_PASSWORD, code: wrong })).toEqual({
      code: 907,
      parameter: 'code',
      reason: 'invalid',
    });
    await stepUp(t, u.token, { code: codeAt(secret, now) });
    expect((await t.call('/api/auth/updateInfo', change)).code).toBe(900);
  });

  it('removes the passkeys with a password reset, and says how many in the security log', async () => {
    now = T0;
    const u = await confirmedUser(t);
    await stepUp(t, u.token);
    const device = new SoftAuthenticator(origin);
    expect((await addPasskey(u.token, device)).code).toBe(900);
    expect((await t.call('/api/genResetLink', { email: u.email })).code).toBe(900);
    const token = linkToken(await smtp.next(u.email, /Reset/), 'reset');
    expect((await t.call(`/api/resetPassword/${token}`, { password: 'brand new passphrase' })).code).toBe(900);
    const options = optionsOf(await t.call('/api/passkeys/signInOptions', {}));
    expect(await t.call('/api/passkeys/signIn', { credential: device.get(options) })).toEqual({ code: 902 });
    const entry = await t.ctx.db.kysely
      .selectFrom('security_log')
      .select('detail')
      .where('user_id', '=', u.userId)
      .where('kind', '=', 'password_reset')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.detail ?? '{}')).toEqual({ passkeysRemoved: 1 });
  });

  it('checks at most the failure budget of wrong passwords sent at once', async () => {
    now = T0;
    const u = await confirmedUser(t);
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => t.call('/api/auth/stepUp', { token: u.token, password: `wrong ${i}` })),
    );
    const codes = answers.map((a) => a.code);
    expect(codes.filter((c) => c === 902)).toHaveLength(defaultRateLimits.loginFailuresPerAccountAndIp);
    expect(codes.filter((c) => c === 906)).toHaveLength(15 - defaultRateLimits.loginFailuresPerAccountAndIp);
    expect(await t.call('/api/auth/passkeys/registrationOptions', { token: u.token })).toEqual(STEP_UP_REQUIRED);
  });
});
