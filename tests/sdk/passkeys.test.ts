import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTill } from '@till/client';
import { patientTimeouts, startTestApp, type TestApp } from '@till/test-support/app';
import { GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';
import { SoftAuthenticator, type OptionsJson } from '@till/test-support/webauthn';

// The SDK's passkey and deletion calls against the real server over HTTP.
describe('SDK passkeys and account deletion against the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ listen: true });
  });
  afterAll(() => t.close());

  it('adds a passkey, signs in with it alone into a fresh session, then deletes the account', async () => {
    const email = uniqueEmail('sdk-passkey');
    // Adding a passkey needs the password proven again: the SDK asks through its hook and proves it.
    const asked: unknown[] = [];
    const stepUp = async (refused: unknown) => {
      asked.push(refused);
      return { password: GOOD_PASSWORD };
    };
    const till = createTill({ apiHost: t.url, storeHost: t.url, stepUp, timeouts: patientTimeouts });
    expect((await till.api.register({ email, password: GOOD_PASSWORD, name: 'Ada', lang: 'en' })).code).toBe(900);
    const device = new SoftAuthenticator(new URL(t.url).origin);

    const options = await till.api.passkeys.registrationOptions();
    if (options.code !== 900) throw new Error(JSON.stringify(options));
    const added = await till.api.passkeys.register('Phone', device.create(options.data.options as OptionsJson));
    expect(added.code === 900 && added.data.passkey.name).toBe('Phone');
    expect(asked).toEqual([undefined]);
    await till.api.logout();
    expect(till.session.level).toBe(0);

    const signInOptions = await till.api.passkeys.signInOptions();
    if (signInOptions.code !== 900) throw new Error(JSON.stringify(signInOptions));
    const res = await till.api.passkeys.signIn(device.get(signInOptions.data.options as OptionsJson));
    expect(res.code).toBe(900);
    expect(till.session.isValid()).toBe(true);
    expect(till.session.user?.email).toBe(email);

    const list = await till.api.passkeys.list();
    expect(list.code === 900 && list.data.passkeys.map((p) => p.name)).toEqual(['Phone']);
    const renamed = await till.api.passkeys.rename(added.code === 900 ? added.data.passkey.id : '', 'My phone');
    expect(renamed.code === 900 && renamed.data.passkey.name).toBe('My phone');

    expect(await till.api.deleteAccount({ confirm: email, password: 'not it at all' })).toEqual({ code: 902 });
    expect(till.session.isValid()).toBe(true);
    expect(await till.api.deleteAccount({ confirm: email, password: GOOD_PASSWORD })).toEqual({ code: 900 });
    expect(till.session.level).toBe(0);
    expect(await till.api.login({ email, password: GOOD_PASSWORD })).toEqual({ code: 902 });
  });
});
