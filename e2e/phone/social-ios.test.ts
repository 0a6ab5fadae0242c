import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestOp, type TestOp } from '@till/test-support/oidc-provider';
import { screenshotIfFailed, type Env } from '../support/env.js';
import { PlayAccount } from './play-billing.js';
import { NativeSide } from './native-side.js';
import { openPhone, startPhoneEnv, type Phone } from './support.js';

const ANDROID_CLIENT = 'android-client.apps.googleusercontent.com';
const IOS_CLIENT = 'ios-client.apps.googleusercontent.com';
const BUNDLE_ID = 'app.till.mobile';
const REDIRECT = 'app.till.mobile:/oauth';
const native = { token_endpoint_auth_method: 'none' as const, application_type: 'native' as const };

const iosPhone = () => new NativeSide(new PlayAccount(BUNDLE_ID, []), 'ios');

// The iOS app (not compiled here: the bridge stand-in plays Capacitor's iOS shell) signs in with
// Apple's and Google's own sheets through @capgo/capacitor-social-login, whose iOS side the
// stand-in answers in the shapes its handleLoginResult resolves with. Real OpenID providers stand
// in for Apple and Google and make the ID tokens for the nonce the app asked the server for.
describe('social sign-in in the iOS app', () => {
  let env: Env;
  let apple: TestOp;
  let google: TestOp;
  let phone: Phone;

  beforeAll(async () => {
    apple = await startTestOp();
    google = await startTestOp();
    env = await startPhoneEnv('nobody@example.test', {
      env: {
        SOCIAL_APPLE_ISSUER: apple.issuer,
        SOCIAL_APPLE_APP_CLIENT_IDS: BUNDLE_ID,
        SOCIAL_GOOGLE_ISSUER: google.issuer,
        SOCIAL_GOOGLE_APP_CLIENT_IDS: `${ANDROID_CLIENT},${IOS_CLIENT}`,
      },
    });
    apple.setClients([{ client_id: BUNDLE_ID, redirect_uris: [REDIRECT], ...native }]);
    google.setClients([{ client_id: IOS_CLIENT, redirect_uris: [REDIRECT], ...native }]);
    phone = await openPhone(env, iosPhone());
  });
  afterEach(async (context) => screenshotIfFailed(context, { 'ios-phone': phone?.page }));
  afterAll(async () => {
    await phone?.close();
    await env?.close();
    await apple?.close();
    await google?.close();
  });

  const nonceOf = (options: Record<string, unknown>) => String((options.options as { nonce?: unknown }).nonce ?? '');

  it('signs in with Apple’s own sheet, taking the name Apple gives the app the first time', async () => {
    // Apple puts no name in the token: the app gets it once, from the sheet.
    apple.nextPerson = { sub: '001234.apple', email: 'ios.apple@privaterelay.appleid.com', email_verified: 'true' };
    phone.native.signInSheet = async (options) => {
      const idToken = await apple.nativeIdToken(BUNDLE_ID, REDIRECT, nonceOf(options));
      return {
        provider: 'apple',
        result: {
          accessToken: { token: 'apple-access-token' },
          profile: {
            user: '001234.apple',
            email: 'ios.apple@privaterelay.appleid.com',
            givenName: 'Ida',
            familyName: 'Apfel',
          },
          idToken,
        },
      };
    };
    await phone.open('/login');
    await phone.page.getByRole('button', { name: 'Continue with Apple' }).click();
    await phone.page.getByRole('button', { name: 'Account of Ida Apfel' }).waitFor();
    // iOS's own sheet: no redirect, the bundle id as client id; nothing opened in a browser.
    expect(phone.native.socialInitialized).toContainEqual({ apple: { clientId: BUNDLE_ID, redirectUrl: '' } });
    expect(phone.native.browserOpened).toEqual([]);
    const login = phone.native.calls.find((c) => c.pluginId === 'SocialLogin' && c.methodName === 'login');
    expect(login?.options).toMatchObject({ provider: 'apple', options: { scopes: ['email', 'name'] } });
  });

  it('signs in with Google’s own sheet for the iOS client id', async () => {
    const other = await openPhone(env, iosPhone());
    try {
      google.nextPerson = { sub: 'ios-google', email: 'ios.google@example.test', email_verified: true, name: 'Gus' };
      other.native.signInSheet = async (options) => {
        const idToken = await google.nativeIdToken(IOS_CLIENT, REDIRECT, nonceOf(options));
        return {
          provider: 'google',
          result: {
            accessToken: { token: 'google-access-token', refreshToken: null, userId: 'ios-google' },
            idToken,
            profile: {
              email: 'ios.google@example.test',
              familyName: '',
              givenName: 'Gus',
              id: 'ios-google',
              name: 'Gus',
              imageUrl: '',
            },
            responseType: 'online',
          },
        };
      };
      await other.open('/login');
      await other.page.getByRole('button', { name: 'Continue with Google' }).click();
      await other.page.getByRole('button', { name: 'Account of Gus' }).waitFor();
      expect(other.native.socialInitialized).toContainEqual({
        google: { webClientId: ANDROID_CLIENT, iOSClientId: IOS_CLIENT, mode: 'online' },
      });
    } finally {
      await other.close();
    }
  });
});

// Sign in with Apple wherever another sign-in is: a server whose apps sign in with Google but not
// with Apple (it starts outside production only) gets no third-party button in the iOS app, while
// the Android app still offers Google.
describe('the iOS app without Apple', () => {
  let env: Env;
  let google: TestOp;

  beforeAll(async () => {
    google = await startTestOp();
    env = await startPhoneEnv('nobody@example.test', {
      env: { SOCIAL_GOOGLE_ISSUER: google.issuer, SOCIAL_GOOGLE_APP_CLIENT_IDS: `${ANDROID_CLIENT},${IOS_CLIENT}` },
    });
  });
  afterAll(async () => {
    await env?.close();
    await google?.close();
  });

  it('offers Google on Android and no third-party sign-in on iOS', async () => {
    const android = await openPhone(env);
    const ios = await openPhone(env, iosPhone());
    try {
      await android.open('/login');
      await android.page.getByRole('button', { name: 'Continue with Google' }).waitFor();
      const listed = ios.page.waitForResponse((r) => r.url().endsWith('/api/social/providers'));
      await ios.open('/login');
      // The app has the server's list (Google in it) and has drawn the page from it.
      const providers = (await (await listed).json()) as { data: { providers: { id: string }[] } };
      expect(providers.data.providers.map((p) => p.id)).toEqual(['google']);
      await ios.page.getByRole('button', { name: 'Sign in', exact: true }).last().waitFor();
      await ios.page.getByLabel('Loading the ways to sign in').waitFor({ state: 'detached' });
      expect(await ios.page.getByRole('button', { name: 'Continue with Google' }).count()).toBe(0);
      expect(ios.native.calls.some((c) => c.pluginId === 'SocialLogin')).toBe(false);
    } finally {
      await android.close();
      await ios.close();
    }
  });
});
