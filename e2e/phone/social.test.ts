import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestOp, type TestOp } from '@till/test-support/oidc-provider';
import { screenshotIfFailed, type Env } from '../support/env.js';
import { NativeSide, PHONE_ORIGIN } from './native-side.js';
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

// Providers without a native sheet on Android (Apple, another OpenID provider) run their web flow
// in the system browser, never in the app's WebView: the stand-in's Browser plugin records what it
// opened, the test walks that page through the provider and the server as the browser would, and
// the redirect to the app's scheme comes back as App's appUrlOpen, as AppPlugin's handleOnNewIntent
// sends it.
describe('sign-in and connecting in the system browser in the phone app', () => {
  let env: Env;
  let apple: TestOp;
  let corp: TestOp;
  let phone: Phone;
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  beforeAll(async () => {
    apple = await startTestOp({
      appleSecret: {
        teamId: 'TEAMID1234',
        keyId: 'KEYID12345',
        clientId: 'app.till.web',
        publicKey: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        staticSecret: 'apple-static',
      },
    });
    corp = await startTestOp();
    env = await startPhoneEnv('nobody@example.test', {
      env: {
        SOCIAL_APPLE_ISSUER: apple.issuer,
        SOCIAL_APPLE_CLIENT_ID: 'app.till.web',
        SOCIAL_APPLE_TEAM_ID: 'TEAMID1234',
        SOCIAL_APPLE_KEY_ID: 'KEYID12345',
        SOCIAL_APPLE_PRIVATE_KEY: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        // The iOS app's bundle id: Apple's sheet on iOS; Android has none.
        SOCIAL_APPLE_APP_CLIENT_IDS: 'app.till.mobile',
        SOCIAL_OIDC_PROVIDERS: 'corp',
        SOCIAL_OIDC_CORP_ISSUER: corp.issuer,
        SOCIAL_OIDC_CORP_CLIENT_ID: 'till-web',
        SOCIAL_OIDC_CORP_CLIENT_SECRET: 'web-secret',
        SOCIAL_OIDC_CORP_NAME: 'Corp ID',
      },
    });
    const callback = `${env.url}/api/social/callback`;
    apple.setClients([{ client_id: 'app.till.web', client_secret: 'apple-static', redirect_uris: [callback] }]);
    corp.setClients([{ client_id: 'till-web', client_secret: 'web-secret', redirect_uris: [callback] }]);
    phone = await openPhone(env);
  });
  afterEach(async (context) => screenshotIfFailed(context, { phone: phone?.page }));
  afterAll(async () => {
    await phone?.close();
    await env?.close();
    await apple?.close();
    await corp?.close();
  });

  /** The system browser: the page Browser.open showed, through the provider and the server, to where it sends the browser. */
  async function browse(op: TestOp, opened: string): Promise<string> {
    const stop = await op.browse(opened, `${env.url}/api/social/callback`);
    const res =
      'location' in stop
        ? await fetch(stop.location, { redirect: 'manual' })
        : await fetch(stop.form.action, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(stop.form.fields).toString(),
          });
    expect(res.status).toBe(303);
    return res.headers.get('location') ?? '';
  }

  const closes = () => phone.native.calls.filter((c) => c.pluginId === 'Browser' && c.methodName === 'close').length;

  it('signs in with Apple in the system browser on Android and comes back through the app’s scheme', async () => {
    apple.nextPerson = {
      sub: 'phone-apple',
      email: 'phone.apple@privaterelay.appleid.com',
      email_verified: 'true',
      is_private_email: 'true',
    };
    await phone.open('/login');
    await phone.page.getByRole('button', { name: 'Continue with Apple' }).click();
    await expect.poll(() => phone.native.browserOpened.length, { timeout: 60_000 }).toBe(1);
    const opened = phone.native.browserOpened[0] ?? '';
    expect(new URL(opened).origin).toBe(apple.issuer);
    // Never the plugin's own Apple page inside the app.
    expect(phone.native.calls.some((c) => c.pluginId === 'SocialLogin' && c.methodName === 'login')).toBe(false);
    // The app keeps its page: the provider's page is not loaded in the WebView.
    expect(new URL(phone.page.url()).origin).toBe(PHONE_ORIGIN);
    const back = await browse(apple, opened);
    expect(back.startsWith('app.till.mobile:/social/finish#ticket=')).toBe(true);
    const before = closes();
    await phone.native.openUrl(back);
    await phone.page.getByRole('button', { name: /^Account of / }).waitFor();
    expect(closes()).toBe(before + 1);
  });

  it('connects another provider from the profile through the system browser', async () => {
    corp.nextPerson = { sub: 'phone-corp', email: 'phone.corp@example.test', email_verified: true };
    await phone.open('/profile');
    await phone.page.getByRole('button', { name: 'Connect Corp ID' }).click();
    await expect.poll(() => phone.native.browserOpened.length, { timeout: 60_000 }).toBe(2);
    const back = await browse(corp, phone.native.browserOpened[1] ?? '');
    expect(back.startsWith('app.till.mobile:/profile#connectTicket=')).toBe(true);
    await phone.native.openUrl(back);
    await phone.page.getByText('Done: you can now sign in with Corp ID.').waitFor();
    await phone.page.getByRole('button', { name: 'Remove sign-in with Corp ID' }).waitFor();
    await phone.page.getByRole('button', { name: 'Remove sign-in with Apple' }).waitFor();
  });

  it('leaves the finish page with nothing when another app hands over a ticket without the flow’s secret', async () => {
    const stranger = await openPhone(env, new NativeSide());
    try {
      apple.nextPerson = { sub: 'phone-apple-2', email: 'phone.apple2@example.test', email_verified: true };
      // A flow someone else started (their own secret): its return reaches this app.
      const started = await fetch(`${env.url}/api/social/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'apple', appChallenge: 'A'.repeat(43) }),
      });
      const url = ((await started.json()) as { data: { url: string } }).data.url;
      const back = await browse(apple, url);
      await stranger.open('/login');
      await stranger.page.getByRole('button', { name: 'Continue with Apple' }).waitFor();
      await stranger.native.openUrl(back);
      await stranger.page
        .getByRole('alert')
        .filter({ hasText: 'This link is unknown, expired or already used.' })
        .waitFor();
      expect(await stranger.page.getByRole('button', { name: /^Account of/ }).count()).toBe(0);
    } finally {
      await stranger.close();
    }
  });
});
