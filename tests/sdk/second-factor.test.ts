import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTill } from '@till/client';
import { patientTimeouts, startTestApp, type TestApp } from '@till/test-support/app';
import { GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';

// The SDK's second-factor calls against the real server over HTTP.
describe('SDK second factor against the server', () => {
  let t: TestApp;
  let now = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ listen: true, now: () => now });
  });
  afterAll(() => t.close());

  const newTill = () => createTill({ apiHost: t.url, storeHost: t.url, timeouts: patientTimeouts });

  it('turns TOTP on, answers 913 at login, starts the session with a code and reads the log', async () => {
    const email = uniqueEmail('sdk2fa');
    const till = newTill();
    expect((await till.api.register({ email, password: GOOD_PASSWORD, name: 'Ada', lang: 'en' })).code).toBe(900);
    const setup = await till.api.totpSetup();
    if (setup.code !== 900) throw new Error(`setup answered ${setup.code}`);
    const totp = new TOTP({ secret: Secret.fromBase32(setup.data.secret) });
    const enabled = await till.api.totpEnable({
      code: totp.generate({ timestamp: now }),
      currentPassword: GOOD_PASSWORD,
    });
    expect(enabled.code === 900 && enabled.data.recoveryCodes).toHaveLength(10);
    const status = await till.api.secondFactorStatus();
    expect(status.code === 900 && status.data.totp.enabled).toBe(true);

    const other = newTill();
    const first = await other.api.login({ email, password: GOOD_PASSWORD });
    if (first.code !== 913) throw new Error(`login answered ${first.code}`);
    expect(other.session.isValid()).toBe(false);
    now += 30_000;
    const right = totp.generate({ timestamp: now });
    const wrong = right === '000000' ? '111111' : '000000';
    expect(await other.api.loginSecondFactor({ challenge: first.challenge, code: wrong })).toEqual({ code: 902 });
    expect(other.session.isValid()).toBe(false);
    const signed = await other.api.loginSecondFactor({ challenge: first.challenge, code: right });
    expect(signed.code).toBe(900);
    expect(other.session.isValid()).toBe(true);
    expect(other.session.user?.email).toBe(email);

    const log = await other.api.securityLog({ pageSize: 5 });
    if (log.code !== 900) throw new Error(`securityLog answered ${log.code}`);
    expect(log.data.entries[0]).toMatchObject({ kind: 'signin', detail: { method: 'totp' } });
    expect(
      await other.api.loginSecondFactor({ challenge: first.challenge, code: totp.generate({ timestamp: now }) }),
    ).toEqual({
      code: 911,
    });

    now += 30_000;
    const off = await other.api.totpDisable({
      currentPassword: GOOD_PASSWORD,
      code: totp.generate({ timestamp: now }),
    });
    expect(off).toEqual({ code: 900, data: {} });
  });
});
