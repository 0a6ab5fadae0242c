import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@till/protocol';
import type { StoreMessage } from '@till/client';
// The plugin's native platforms scripted with the structures cordova-plugin-purchase 13 reports
// (the SDK's own test support): App Store transactions and Google Play purchases.
import { playNativePurchase, ScriptedCdvStore } from '../../../../../packages/client/src/test-support/cdv-native-store';
import { buyInApp, cdvStore, resetInAppFlow, restoreInApp, startInAppStore } from './purchase';

const product = (over: Partial<Product> = {}): Product => ({
  id: 'p1',
  alias: 'credits100',
  title: '100 credits',
  description: '',
  type: 0,
  price: null,
  creditPrice: null,
  grants: { credits: 100 },
  imageUrl: null,
  storeIds: { appstore: 'app.till.credits100', googleplay: 'till.credits100' },
  active: true,
  ...over,
});

const validator = (result: 0 | 1) => ({
  validatePurchase: vi.fn(async () =>
    result
      ? { code: 900 as const, data: { result: 1 as const, products: 'credits100' } }
      : { code: 900 as const, data: { result: 0 as const, reason: 'invalid' } },
  ),
});

afterEach(() => resetInAppFlow());

describe('in-app purchases in the shell', () => {
  it('refreshes the store on every resume from the start, before any purchase', async () => {
    const store = new ScriptedCdvStore({ platform: 'android-playstore', purchase: () => ({ code: 1, message: '' }) });
    const update = vi.spyOn(store, 'update');
    let resume: (() => void) | undefined;
    await startInAppStore({
      store: 'googleplay',
      cdv: store,
      products: [product(), product({ id: 'p2', alias: 'web-only', storeIds: {} })],
      validator: validator(1),
      onResume: (l) => {
        resume = l;
        return () => undefined;
      },
    });
    // Registered with the catalog's products that this store sells.
    expect(store.products.map((p) => p.id)).toEqual(['till.credits100']);
    expect(resume).toBeDefined();
    const before = update.mock.calls.length;
    resume?.();
    await vi.waitFor(() => expect(update.mock.calls.length).toBe(before + 1), { timeout: 30_000 });
  });

  it('finds the plugin store the shell puts on the window', () => {
    const store = new ScriptedCdvStore({ platform: 'android-playstore', purchase: () => ({ code: 1, message: '' }) });
    expect(cdvStore({ CdvPurchase: { store } })).toBe(store);
    expect(cdvStore({})).toBeNull();
  });

  it('buys on Google Play by the product store id, has the server verify the purchase, then finishes it', async () => {
    const store = new ScriptedCdvStore({
      platform: 'android-playstore',
      purchase: (id) => playNativePurchase({ purchaseToken: 'tok-1', productId: id, packageName: 'app.till.mobile' }),
    });
    const check = validator(1);
    const seen: StoreMessage[] = [];
    const { message: last } = await buyInApp({
      store: 'googleplay',
      cdv: store,
      products: [product()],
      validator: check,
      onResume: () => () => undefined,
      onMessage: (m) => seen.push(m),
    });
    expect(store.products.map((p) => [p.id, p.platform, p.type])).toEqual([
      ['till.credits100', 'android-playstore', 'consumable'],
    ]);
    expect(seen.map((m) => m.type)).toEqual(['ordered', 'approved', 'finished']);
    expect(last).toMatchObject({ type: 'finished', code: 800, data: { productId: 'till.credits100' } });
    const sent = (check.validatePurchase.mock.calls[0] as unknown[])[0];
    expect(sent).toMatchObject({ platform: 'android-playstore' });
    expect(store.finished).toHaveLength(1);
  });

  it('buys on the App Store, and leaves a purchase the server refuses unfinished', async () => {
    const store = new ScriptedCdvStore({
      platform: 'ios-appstore',
      appReceipt: {
        appStoreReceipt: '',
        bundleIdentifier: 'app.till.mobile',
        bundleShortVersion: '1.0',
        bundleNumericVersion: 1,
        bundleSignature: '',
      },
      purchase: (id) => ({ transactionId: '2000000001', productId: id, jwsRepresentation: 'a.b.c' }),
    });
    const { message: last } = await buyInApp({
      store: 'appstore',
      cdv: store,
      products: [product()],
      validator: validator(0),
      onResume: () => () => undefined,
    });
    expect(store.products.map((p) => [p.id, p.platform])).toEqual([['app.till.credits100', 'ios-appstore']]);
    expect(last.type).not.toBe('finished');
    expect(store.finished).toHaveLength(0);
  });

  it('reports a purchase the user cancels, and refuses a product the store does not sell', async () => {
    const store = new ScriptedCdvStore({
      platform: 'android-playstore',
      // The plugin names the product in the error it reports for the order.
      purchase: (id) => ({ code: 6777006, message: 'USER_CANCELED', productId: id }),
    });
    const options = {
      store: 'googleplay' as const,
      cdv: store,
      validator: validator(1),
      onResume: () => () => undefined,
    };
    expect((await buyInApp({ ...options, products: [product()] })).message.type).toBe('cancelled');
    await expect(buyInApp({ ...options, products: [product({ title: 'Web only', storeIds: {} })] })).rejects.toThrow(
      /Web only is not sold in the googleplay store/,
    );
  });

  it('buys a consumable once per unit asked, each verified, and says how many were bought', async () => {
    let serial = 0;
    const store = new ScriptedCdvStore({
      platform: 'android-playstore',
      purchase: (id) => {
        serial += 1;
        return playNativePurchase({ purchaseToken: `tok-${serial}`, productId: id, packageName: 'app.till.mobile' });
      },
    });
    const check = validator(1);
    const result = await buyInApp({
      store: 'googleplay',
      cdv: store,
      products: [product()],
      quantities: { p1: 3 },
      validator: check,
      onResume: () => () => undefined,
    });
    expect(result).toMatchObject({ message: { type: 'finished' }, bought: { p1: 3 } });
    expect(check.validatePurchase).toHaveBeenCalledTimes(3);
    expect(store.finished).toHaveLength(3);
  });

  it('refuses more than one unit of a non-consumable before ordering anything', async () => {
    const store = new ScriptedCdvStore({
      platform: 'android-playstore',
      purchase: (id) => playNativePurchase({ purchaseToken: 'tok-1', productId: id, packageName: 'app.till.mobile' }),
    });
    const order = vi.spyOn(store, 'order');
    await expect(
      buyInApp({
        store: 'googleplay',
        cdv: store,
        products: [product({ type: 1 })],
        quantities: { p1: 2 },
        validator: validator(1),
        onResume: () => () => undefined,
      }),
    ).rejects.toThrow('can be bought only once');
    expect(order).not.toHaveBeenCalled();
  });

  it('restores a finished purchase from the device and has the server verify it again', async () => {
    const store = new ScriptedCdvStore({
      platform: 'android-playstore',
      purchase: (id) => playNativePurchase({ purchaseToken: 'tok-1', productId: id, packageName: 'app.till.mobile' }),
    });
    const check = validator(1);
    const options = { store: 'googleplay' as const, cdv: store, validator: check, onResume: () => () => undefined };
    await buyInApp({ ...options, products: [product({ type: 1 })] });
    const sent = (check.validatePurchase.mock.calls[0] as unknown[])[0];
    const { restored } = await restoreInApp(options);
    expect(check.validatePurchase).toHaveBeenCalledTimes(2);
    // The same purchase (now finished on the device), so the server knows it and grants nothing twice.
    expect((check.validatePurchase.mock.calls[1] as unknown[])[0]).toEqual({ ...(sent as object), state: 'finished' });
    expect(restored).toMatchObject([{ productId: 'till.credits100', verified: true, products: ['credits100'] }]);
  });
});
