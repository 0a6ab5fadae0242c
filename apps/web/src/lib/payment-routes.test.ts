import { describe, expect, it } from 'vitest';
import type { AppPayments, Provider } from '@till/protocol';
import { isInAppRoute, payableWithoutStore, routesForPlatform } from './payment';

const all: Provider[] = ['card', 'paywall', 'default', 'credits'];
const hidden: AppPayments = { webPayments: 'hidden', stores: ['appstore', 'googleplay'] };
const shown: AppPayments = { webPayments: 'shown', stores: ['appstore', 'googleplay'] };

describe('the payment routes per platform', () => {
  it('keeps the web routes in the browser and never offers a phone store there', () => {
    for (const app of [hidden, shown])
      expect(routesForPlatform(all, app, { kind: 'web', inAppStore: null })).toEqual([
        'card',
        'paywall',
        'default',
        'credits',
      ]);
    // A store route the server lists is not the browser's either.
    expect(routesForPlatform([...all, 'googleplay'], hidden, { kind: 'web', inAppStore: null })).toEqual(all);
  });

  it('offers only the store and credits inside the apps while web payments are hidden (the default)', () => {
    expect(routesForPlatform(all, hidden, { kind: 'android', inAppStore: 'googleplay' })).toEqual([
      'googleplay',
      'credits',
    ]);
    expect(routesForPlatform(all, hidden, { kind: 'ios', inAppStore: 'appstore' })).toEqual(['appstore', 'credits']);
    // Without the store plugin, or a server that does not verify that store: credits alone.
    expect(routesForPlatform(all, hidden, { kind: 'ios', inAppStore: null })).toEqual(['credits']);
    expect(
      routesForPlatform(all, { ...hidden, stores: ['appstore'] }, { kind: 'android', inAppStore: 'googleplay' }),
    ).toEqual(['credits']);
  });

  it('offers the store first and the web routes beside it when the server shows them in the apps', () => {
    expect(routesForPlatform(all, shown, { kind: 'android', inAppStore: 'googleplay' })).toEqual([
      'googleplay',
      'card',
      'paywall',
      'default',
      'credits',
    ]);
    expect(routesForPlatform(all, shown, { kind: 'ios', inAppStore: 'appstore' })).toEqual([
      'appstore',
      'card',
      'paywall',
      'default',
      'credits',
    ]);
    expect(isInAppRoute('appstore')).toBe(true);
    expect(isInAppRoute('card')).toBe(false);
  });

  it('says whether a phone app can sell a product its store does not', () => {
    const webOnly = { creditPrice: null };
    expect(payableWithoutStore(webOnly, hidden)).toBe(false);
    expect(payableWithoutStore(webOnly, undefined)).toBe(false);
    expect(payableWithoutStore(webOnly, shown)).toBe(true);
    expect(payableWithoutStore({ creditPrice: 50 }, hidden)).toBe(true);
  });
});
