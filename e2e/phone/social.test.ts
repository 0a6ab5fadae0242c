import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestOp, type TestOp } from '@till/test-support/oidc-provider';
import { screenshotIfFailed, type Env } from '../support/env.js';
import { NativeSide } from './native-side.js';
import { openPhone, startPhoneEnv, type Phone } from './support.js';

const ANDROID_CLIENT = 'android-client.apps.googleusercontent.com';
const REDIRECT = 'app.till.mobile:/oauth';

// The phone build signs in with Google's own sheet: the plugin's Android side is the stand-in, which
// gets its ID token from a real OpenID provider standing in for Google, for the nonce the app asked
// the server for; the server verifies it for the app's own client id.
describe('social sign-in in the phone app', () => {
  let env: Env;
  let google: TestOp;
  let phone: Phone;

  beforeAll(async () => {
    google = await startTestOp();
    env = await startPhoneEnv('nobody@example.test', {
      env: { SOCIAL_GOOGLE_ISSUER: google.issuer, SOCIAL_GOOGLE_APP_CLIENT_IDS: ANDROID_CLIENT },
    });
    google.setClients([
      {
        client_id: ANDROID_CLIENT,
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      },
      {
        client_id: 'someone-elses-app',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      },
    ]);
    phone = await openPhone(env);
  });
  afterEach(async (context) => screenshotIfFailed(context, { phone: phone?.page }));
  afterAll(async () => {
    await phone?.close();
    await env?.close();
    await google?.close();
  });

  /** Google's sheet as the plugin's Android side answers it: an online login with the ID token. */
  const sheet = (clientId: string) => async (options: Record<string, unknown>) => {
    const nonce = String((options.options as { nonce?: unknown }).nonce ?? '');
    const idToken = await google.nativeIdToken(clientId, REDIRECT, nonce);
    return {
      provider: 'google',
      result: { responseType: 'online', accessToken: null, idToken, profile: { email: null, name: null } },
    };
  };

  it('signs in through Google’s own sheet with the server’s nonce, for the app’s client id', async () => {
    google.nextPerson = { sub: 'phone-person', email: 'phone.social@example.test', email_verified: true, name: 'Rai' };
    phone.native.signInSheet = sheet(ANDROID_CLIENT);
    await phone.open('/login');
    await phone.page.getByRole('button', { name: 'Continue with Google' }).click();
    await phone.page.getByRole('button', { name: 'Account of Rai' }).waitFor();
    expect(phone.native.socialInitialized.at(-1)).toMatchObject({
      google: { webClientId: ANDROID_CLIENT, mode: 'online' },
    });
    const login = phone.native.calls.find((c) => c.pluginId === 'SocialLogin' && c.methodName === 'login');
    expect(login?.options).toMatchObject({ provider: 'google' });
    expect(String((login?.options.options as { nonce?: unknown }).nonce).length).toBeGreaterThanOrEqual(43);
  });

  it('refuses a token Google made for another app', async () => {
    // Another phone: nobody is signed in there.
    const signedOut = await openPhone(env, new NativeSide());
    try {
      google.nextPerson = { sub: 'phone-other', email: 'phone.other@example.test', email_verified: true };
      signedOut.native.signInSheet = sheet('someone-elses-app');
      await signedOut.open('/login');
      await signedOut.page.getByRole('button', { name: 'Continue with Google' }).click();
      await signedOut.page.getByRole('alert').filter({ hasText: 'could not be verified' }).waitFor();
      expect(signedOut.native.calls.some((c) => c.pluginId === 'SocialLogin' && c.methodName === 'login')).toBe(true);
      expect(await signedOut.page.getByRole('button', { name: /^Account of/ }).count()).toBe(0);
    } finally {
      await signedOut.close();
    }
  });
});
