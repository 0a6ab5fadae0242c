import { describe, expect, it } from 'vitest';
import type { SocialProvider } from '@till/protocol';
import { appFlowSecret, connectableProviders, hasNativeSheet, offeredProviders } from './social-providers';

const google: SocialProvider = {
  id: 'google',
  kind: 'google',
  name: 'Google',
  native: true,
  web: true,
  appClientIds: ['a'],
};
const apple: SocialProvider = {
  id: 'apple',
  kind: 'apple',
  name: 'Apple',
  native: true,
  web: true,
  appClientIds: ['b'],
};
const appleAppOnly: SocialProvider = { ...apple, web: false };
const corp: SocialProvider = { id: 'corp', kind: 'oidc', name: 'Corp', native: false, web: true, appClientIds: [] };

describe('which providers a platform offers, and how', () => {
  it('uses Google’s sheet on both phones and Apple’s on iOS only', () => {
    expect(hasNativeSheet(google, 'android')).toBe(true);
    expect(hasNativeSheet(google, 'ios')).toBe(true);
    expect(hasNativeSheet(apple, 'ios')).toBe(true);
    expect(hasNativeSheet(apple, 'android')).toBe(false);
    expect(hasNativeSheet(google, 'web')).toBe(false);
    expect(hasNativeSheet(corp, 'android')).toBe(false);
  });

  it('leaves out a provider with neither a sheet nor a web flow there', () => {
    expect(offeredProviders([google, appleAppOnly, corp], 'android').map((p) => p.id)).toEqual(['google', 'corp']);
    expect(offeredProviders([google, appleAppOnly, corp], 'ios').map((p) => p.id)).toEqual(['google', 'apple', 'corp']);
    expect(offeredProviders([google, appleAppOnly, corp], 'web').map((p) => p.id)).toEqual(['google', 'corp']);
  });

  it('offers no third-party sign-in on iOS unless Apple is offered too, and leaves Android and the browser alone', () => {
    expect(offeredProviders([google, corp], 'ios')).toEqual([]);
    // Apple only with a web flow is still Apple: iOS runs it in the system browser.
    expect(offeredProviders([google, { ...apple, native: false }], 'ios').map((p) => p.id)).toEqual([
      'google',
      'apple',
    ]);
    expect(offeredProviders([google, corp], 'android').map((p) => p.id)).toEqual(['google', 'corp']);
    expect(offeredProviders([google, corp], 'web').map((p) => p.id)).toEqual(['google', 'corp']);
    expect(connectableProviders([google, corp], 'ios')).toEqual([]);
    expect(connectableProviders([google, appleAppOnly, corp], 'ios')).toEqual([]);
    expect(connectableProviders([google, apple, corp], 'ios').map((p) => p.id)).toEqual(['google', 'apple', 'corp']);
    expect(connectableProviders([google, corp], 'android').map((p) => p.id)).toEqual(['google', 'corp']);
  });

  it('makes a fresh secret whose challenge is its base64url SHA-256', async () => {
    const a = await appFlowSecret();
    const b = await appFlowSecret();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    const { createHash } = await import('node:crypto');
    expect(a.challenge).toBe(createHash('sha256').update(a.verifier).digest('base64url'));
  });
});
