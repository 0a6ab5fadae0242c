import { describe, expect, it } from 'vitest';
import type { Provider } from '@till/protocol';
import { isInAppRoute, routesForPlatform } from './payment';

const all: Provider[] = ['card', 'paywall', 'default', 'appstore', 'googleplay', 'credits'];

describe('the payment routes per platform', () => {
  it('keeps the web routes in the browser and never offers a phone store there', () => {
    expect(routesForPlatform(all, { kind: 'web', inAppStore: null })).toEqual([
      'card',
      'paywall',
      'default',
      'credits',
    ]);
  });

  it('offers Google Play in the Android app only where the store is available, beside the web routes', () => {
    expect(routesForPlatform(all, { kind: 'android', inAppStore: 'googleplay' })).toEqual([
      'card',
      'paywall',
      'default',
      'googleplay',
      'credits',
    ]);
    expect(routesForPlatform(all, { kind: 'android', inAppStore: null })).toEqual([
      'card',
      'paywall',
      'default',
      'credits',
    ]);
  });

  it('hides the web routes inside the iOS app: the App Store and credits only', () => {
    expect(routesForPlatform(all, { kind: 'ios', inAppStore: 'appstore' })).toEqual(['appstore', 'credits']);
    expect(routesForPlatform(all, { kind: 'ios', inAppStore: null })).toEqual(['credits']);
    expect(isInAppRoute('appstore')).toBe(true);
    expect(isInAppRoute('card')).toBe(false);
  });
});
