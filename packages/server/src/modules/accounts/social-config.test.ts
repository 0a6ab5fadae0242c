import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.js';
import { loadSocialConfig } from './social-config.js';

const p8 = (curve: string) =>
  generateKeyPairSync('ec', { namedCurve: curve }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

function refused(env: Record<string, string>, production = false): string {
  try {
    loadSocialConfig(env, production);
  } catch (error) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  throw new Error('accepted');
}

describe('social sign-in variables', () => {
  it('turns nothing on by default', () => {
    expect(loadSocialConfig({}, true).providers).toEqual([]);
  });

  it('refuses, in production, phone apps that sign in with another provider but not with Apple', () => {
    const google = { SOCIAL_GOOGLE_APP_CLIENT_IDS: 'android.apps.googleusercontent.com' };
    expect(refused(google, true)).toBe('SOCIAL_APPLE_APP_CLIENT_IDS');
    // Apple's web flow alone is not Apple's sheet in the iOS app.
    const appleWeb = {
      SOCIAL_APPLE_CLIENT_ID: 'com.example.till.web',
      SOCIAL_APPLE_TEAM_ID: 'ABCDE12345',
      SOCIAL_APPLE_KEY_ID: 'KEY1234567',
      SOCIAL_APPLE_PRIVATE_KEY: p8('P-256'),
    };
    expect(refused({ ...google, ...appleWeb }, true)).toBe('SOCIAL_APPLE_APP_CLIENT_IDS');
    const withApple = { ...google, SOCIAL_APPLE_APP_CLIENT_IDS: 'com.example.till' };
    expect(loadSocialConfig(withApple, true).providers.map((p) => p.id)).toEqual(['google', 'apple']);
    // The browser's sign-in alone, and any set-up outside production, start.
    const webOnly = { SOCIAL_GOOGLE_CLIENT_ID: 'web.apps.googleusercontent.com', SOCIAL_GOOGLE_CLIENT_SECRET: 's' };
    expect(loadSocialConfig(webOnly, true).providers.map((p) => p.id)).toEqual(['google']);
    expect(loadSocialConfig(google, false).providers.map((p) => p.id)).toEqual(['google']);
  });

  it('reads Apple’s notification keys from Apple, or from an https address given', () => {
    expect(loadSocialConfig({}, true).appleNotificationKeys).toBe('https://appleid.apple.com/auth/keys');
    const given = { SOCIAL_APPLE_NOTIFICATION_KEYS_URL: 'https://keys.example.com/auth/keys' };
    expect(loadSocialConfig(given, true).appleNotificationKeys).toBe('https://keys.example.com/auth/keys');
    const local = { SOCIAL_APPLE_NOTIFICATION_KEYS_URL: 'http://127.0.0.1:9000/auth/keys' };
    expect(refused(local, true)).toBe('SOCIAL_APPLE_NOTIFICATION_KEYS_URL');
    expect(loadSocialConfig(local, false).appleNotificationKeys).toBe('http://127.0.0.1:9000/auth/keys');
  });

  it('returns the apps’ flows to the app id’s scheme, or to another reverse domain name', () => {
    expect(loadSocialConfig({}, true).appScheme).toBe('app.till.mobile');
    expect(loadSocialConfig({ SOCIAL_APP_SCHEME: 'com.example.shop' }, true).appScheme).toBe('com.example.shop');
    expect(refused({ SOCIAL_APP_SCHEME: 'till' })).toBe('SOCIAL_APP_SCHEME');
    expect(refused({ SOCIAL_APP_SCHEME: 'https' })).toBe('SOCIAL_APP_SCHEME');
    expect(refused({ SOCIAL_APP_SCHEME: 'app.till.mobile:/x' })).toBe('SOCIAL_APP_SCHEME');
  });

  it('reads Google, Apple and named OpenID Connect providers', () => {
    const key = p8('P-256');
    const { providers } = loadSocialConfig(
      {
        SOCIAL_GOOGLE_CLIENT_ID: 'web.apps.googleusercontent.com',
        SOCIAL_GOOGLE_CLIENT_SECRET: 'secret',
        SOCIAL_GOOGLE_APP_CLIENT_IDS: 'android.apps.googleusercontent.com, ios.apps.googleusercontent.com',
        SOCIAL_APPLE_CLIENT_ID: 'com.example.till.web',
        SOCIAL_APPLE_TEAM_ID: 'ABCDE12345',
        SOCIAL_APPLE_KEY_ID: 'KEY1234567',
        SOCIAL_APPLE_PRIVATE_KEY: key.replace(/\n/g, '\\n'),
        SOCIAL_APPLE_APP_CLIENT_IDS: 'com.example.till',
        SOCIAL_OIDC_PROVIDERS: 'work-sso',
        SOCIAL_OIDC_WORK_SSO_ISSUER: 'https://sso.example.com/',
        SOCIAL_OIDC_WORK_SSO_CLIENT_ID: 'till',
        SOCIAL_OIDC_WORK_SSO_NAME: 'Work',
      },
      true,
    );
    expect(providers.map((p) => [p.id, p.kind, p.name, p.issuer, p.appClientIds])).toEqual([
      [
        'google',
        'google',
        'Google',
        'https://accounts.google.com',
        ['android.apps.googleusercontent.com', 'ios.apps.googleusercontent.com'],
      ],
      ['apple', 'apple', 'Apple', 'https://appleid.apple.com', ['com.example.till']],
      ['work-sso', 'oidc', 'Work', 'https://sso.example.com', []],
    ]);
    expect(providers[1]?.apple).toEqual({ teamId: 'ABCDE12345', keyId: 'KEY1234567', privateKey: key });
  });

  it('names the variable that is wrong or missing', () => {
    expect(refused({ SOCIAL_GOOGLE_CLIENT_ID: 'x' })).toBe('SOCIAL_GOOGLE_CLIENT_SECRET');
    expect(refused({ SOCIAL_APPLE_CLIENT_ID: 'x', SOCIAL_APPLE_TEAM_ID: 'ABCDE12345', SOCIAL_APPLE_KEY_ID: 'K' })).toBe(
      'SOCIAL_APPLE_PRIVATE_KEY',
    );
    expect(
      refused({
        SOCIAL_APPLE_CLIENT_ID: 'x',
        SOCIAL_APPLE_TEAM_ID: 'ABCDE12345',
        SOCIAL_APPLE_KEY_ID: 'KEY1234567',
        SOCIAL_APPLE_PRIVATE_KEY: p8('P-384'),
      }),
    ).toBe('SOCIAL_APPLE_PRIVATE_KEY');
    expect(refused({ SOCIAL_OIDC_PROVIDERS: 'corp' })).toBe('SOCIAL_OIDC_CORP_ISSUER');
    expect(refused({ SOCIAL_OIDC_PROVIDERS: 'Corp' })).toBe('SOCIAL_OIDC_PROVIDERS');
    expect(
      refused(
        {
          SOCIAL_OIDC_PROVIDERS: 'corp',
          SOCIAL_OIDC_CORP_ISSUER: 'http://127.0.0.1:9',
          SOCIAL_OIDC_CORP_CLIENT_ID: 'x',
        },
        true,
      ),
    ).toBe('SOCIAL_OIDC_CORP_ISSUER');
  });
});
