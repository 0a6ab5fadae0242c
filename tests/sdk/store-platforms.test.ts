import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CdvPlatform, CdvPurchaseAdapter, createTill, type StoreMessage, type Till } from '@till/client';
import { ProductType, type ProductTypeValue } from '@till/protocol';
import {
  playNativePurchase,
  ScriptedCdvStore,
  type AppleNativePurchase,
  type ScriptedCdvStoreOptions,
} from '../../packages/client/src/test-support/cdv-native-store.js';
import { patientTimeouts, startTestApp, type TestApp } from '@till/test-support/app';
import {
  appleTransaction,
  BUNDLE_ID,
  signJws,
  startAppleTestStore,
  type AppleTestStore,
} from '@till/test-support/apple-signing';
import { FakeGoogle, googlePlayTestConfig, PACKAGE } from '@till/test-support/fake-google-play';
import { registerUser } from '@till/test-support/users';

const NOT_VERIFIED = "We couldn't verify the purchase";

// The SDK's purchase flow over the cordova-plugin-purchase adapter, on the App Store and Google Play
// platforms, against the real server whose validators check Apple's signatures (a test chain the
// server is configured to trust) and ask a local Play Developer API. Demo catalog: credits-100
// (consumable, till.credits100), pro-unlock (non-consumable, till.pro_unlock).
describe('SDK in-app purchases on the App Store and Google Play, against the server', () => {
  let t: TestApp;
  let apple: AppleTestStore;
  let google: FakeGoogle;
  let seq = 0;

  beforeAll(async () => {
    apple = await startAppleTestStore();
    google = new FakeGoogle();
    await google.start();
    t = await startTestApp({
      listen: true,
      config: {
        payments: {
          card: undefined,
          paywall: undefined,
          appstore: apple.config,
          googleplay: googlePlayTestConfig(google),
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([apple.close(), google.close()]);
  });

  async function buyer(): Promise<Till> {
    const user = await registerUser(t);
    const till = createTill({ apiHost: t.url, storeHost: t.url, timeouts: patientTimeouts });
    till.session.start({ token: user.token, expire: 3600 });
    return till;
  }

  /** A flow selling one product through the scripted plugin store on `platform`. */
  async function flowOn(
    till: Till,
    platform: string,
    product: { id: string; alias: string; type: ProductTypeValue },
    store: ScriptedCdvStore,
  ) {
    const messages: StoreMessage[] = [];
    const delivered = vi.fn();
    const flow = till.createPurchaseFlow({
      adapter: new CdvPurchaseAdapter(store, { platform }),
      products: [{ ...product, callback: delivered }],
      onMessage: (m) => messages.push(m),
    });
    await flow.start();
    expect(flow.products[0]).toMatchObject({ loaded: true, valid: true, canPurchase: true });
    await flow.order([product.alias]);
    return { flow, messages, delivered };
  }

  const codes = (messages: StoreMessage[]) => messages.map((m) => m.code ?? m.type);
  const until = (check: () => void) => vi.waitFor(check, { timeout: 30_000, interval: 25 });

  async function owned(till: Till): Promise<string[]> {
    const res = await till.serviceCall<{ entitlements: { productId: string; active: boolean }[] }>(
      'api/store/entitlements',
      {},
    );
    if (res.code !== 900) throw new Error(JSON.stringify(res));
    return res.data.entitlements.filter((e) => e.active).map((e) => e.productId);
  }

  async function balance(till: Till): Promise<number> {
    const res = await till.serviceCall<{ balance: number }>('api/store/credits', {});
    if (res.code !== 900) throw new Error(JSON.stringify(res));
    return res.data.balance;
  }

  function appleStore(purchase: (productId: string) => AppleNativePurchase): ScriptedCdvStore {
    const options: ScriptedCdvStoreOptions = {
      platform: 'ios-appstore',
      // StoreKit 2 keeps no monolithic receipt: the plugin's receipt is empty and each transaction
      // carries Apple's signed JWS.
      appReceipt: {
        appStoreReceipt: '',
        bundleIdentifier: BUNDLE_ID,
        bundleShortVersion: '1.0',
        bundleNumericVersion: 1,
        bundleSignature: '',
      },
      purchase,
    };
    return new ScriptedCdvStore(options);
  }

  describe('App Store (ios-appstore, StoreKit 2)', () => {
    it('sends the transaction Apple signed: 799, 801, validated, finished (800), the callback fires and the buyer owns it', async () => {
      const till = await buyer();
      const signed = appleTransaction('till.pro_unlock', { type: 'Non-Consumable' });
      const store = appleStore((productId) => ({
        transactionId: signed.transactionId,
        originalTransactionId: signed.originalTransactionId,
        productId,
        jwsRepresentation: signJws(apple.apple, signed),
        quantity: 1,
      }));
      const { flow, messages, delivered } = await flowOn(
        till,
        CdvPlatform.AppStore,
        { id: 'till.pro_unlock', alias: 'pro-unlock', type: ProductType.NonConsumable },
        store,
      );
      await until(() => expect(codes(messages)).toEqual([799, 801, 800]));
      expect(messages[1]?.data).toEqual({ productId: 'till.pro_unlock', transactionId: signed.transactionId });
      expect(delivered).toHaveBeenCalledTimes(1);
      expect(store.finished.map((x) => x.transactionId)).toEqual([signed.transactionId]);
      expect(flow.transactionState(signed.transactionId)).toBe('finished');
      expect(await owned(till)).toEqual(['pro-unlock']);
      await until(() => expect(flow.products[0]).toMatchObject({ owned: true, canPurchase: false }));
      // Apple's API was never needed: the signed transaction was proof enough.
      expect(apple.api.requests).toHaveLength(0);
    });

    it('ignores the app receipt the plugin lists as a transaction of its own (StoreKit 1)', async () => {
      const till = await buyer();
      const signed = appleTransaction('till.credits100');
      const store = new ScriptedCdvStore({
        platform: 'ios-appstore',
        needAppReceipt: true,
        appReceipt: {
          appStoreReceipt: 'TUlJVGVzdFJlY2VpcHQ=',
          bundleIdentifier: BUNDLE_ID,
          bundleShortVersion: '1.0',
          bundleNumericVersion: 1,
          bundleSignature: '',
        },
        purchase: (productId) => ({
          transactionId: signed.transactionId,
          productId,
          jwsRepresentation: signJws(apple.apple, signed),
        }),
      });
      const { messages } = await flowOn(
        till,
        CdvPlatform.AppStore,
        { id: 'till.credits100', alias: 'credits-100', type: ProductType.Consumable },
        store,
      );
      await until(() => expect(codes(messages)).toEqual([799, 801, 800]));
      expect(store.transactions.map((x) => x.transactionId)).toEqual(['appstore.application', signed.transactionId]);
      expect(store.finished.map((x) => x.transactionId)).toEqual([signed.transactionId]);
      expect(await balance(till)).toBe(100);
    });

    it('refuses a transaction whose signature was tampered with: not verified, not finished, nothing owned', async () => {
      const till = await buyer();
      const signed = appleTransaction('till.pro_unlock', { type: 'Non-Consumable' });
      const [head, payload, signature = ''] = signJws(apple.apple, signed).split('.');
      // One bit of the signature flipped: the header, the chain and the payload are Apple's own.
      const bytes = Buffer.from(signature, 'base64url');
      bytes[10] = (bytes[10] ?? 0) ^ 0x01;
      const tampered = `${head}.${payload}.${bytes.toString('base64url')}`;
      const store = appleStore((productId) => ({
        transactionId: signed.transactionId,
        productId,
        jwsRepresentation: tampered,
      }));
      const { flow, messages, delivered } = await flowOn(
        till,
        CdvPlatform.AppStore,
        { id: 'till.pro_unlock', alias: 'pro-unlock', type: ProductType.NonConsumable },
        store,
      );
      await until(() => expect(codes(messages)).toEqual([799, 801, 'error']));
      expect(messages[2]?.data).toEqual({ message: NOT_VERIFIED, productId: 'till.pro_unlock' });
      expect(delivered).not.toHaveBeenCalled();
      expect(store.finished).toHaveLength(0);
      expect(flow.transactionState(signed.transactionId)).toBe('rejected');
      expect(await owned(till)).toEqual([]);
    });
  });

  describe('Google Play (android-playstore)', () => {
    /** Google's record of a purchase, as the Play Developer API answers `purchases.products.get`. */
    function sold(token: string, productId: string, purchaseState = 0): string {
      seq += 1;
      const orderId = `GPA.3300-1111-2222-${String(seq).padStart(5, '0')}`;
      google.products.set(token, {
        productId,
        purchaseTimeMillis: String(Date.now()),
        purchaseState,
        consumptionState: 0,
        orderId,
        purchaseType: 0,
        acknowledgementState: 0,
        quantity: 1,
        regionCode: 'US',
      });
      return orderId;
    }

    function playStore(token: string, orderId: string): ScriptedCdvStore {
      return new ScriptedCdvStore({
        platform: 'android-playstore',
        purchase: (productId) => playNativePurchase({ purchaseToken: token, productId, packageName: PACKAGE, orderId }),
      });
    }

    it('validates a purchase with the Play API, finishes it, the buyer owns it, and Google saw one acknowledge', async () => {
      const till = await buyer();
      const token = `sdk-tok-pro-${Date.now()}`;
      const orderId = sold(token, 'till.pro_unlock');
      const store = playStore(token, orderId);
      const acks = google.count('products.acknowledge');
      const consumes = google.count('products.consume');
      const { flow, messages, delivered } = await flowOn(
        till,
        CdvPlatform.GooglePlay,
        { id: 'till.pro_unlock', alias: 'pro-unlock', type: ProductType.NonConsumable },
        store,
      );
      await until(() => expect(codes(messages)).toEqual([799, 801, 800]));
      // The plugin's transaction id on Google Play is the order id.
      expect(messages[1]?.data).toEqual({ productId: 'till.pro_unlock', transactionId: orderId });
      expect(delivered).toHaveBeenCalledTimes(1);
      expect(store.finished.map((x) => x.transactionId)).toEqual([orderId]);
      expect(flow.transactionState(orderId)).toBe('finished');
      expect(await owned(till)).toEqual(['pro-unlock']);
      expect(google.count('products.acknowledge')).toBe(acks + 1);
      expect(google.count('products.consume')).toBe(consumes);
    });

    it('acknowledges and consumes a consumable once, and credits the buyer', async () => {
      const till = await buyer();
      const token = `sdk-tok-credits-${Date.now()}`;
      const orderId = sold(token, 'till.credits100');
      const store = playStore(token, orderId);
      const acks = google.count('products.acknowledge');
      const consumes = google.count('products.consume');
      const { messages, delivered } = await flowOn(
        till,
        CdvPlatform.GooglePlay,
        { id: 'till.credits100', alias: 'credits-100', type: ProductType.Consumable },
        store,
      );
      await until(() => expect(codes(messages)).toEqual([799, 801, 800]));
      expect(delivered).toHaveBeenCalledTimes(1);
      expect(await balance(till)).toBe(100);
      expect(google.count('products.acknowledge')).toBe(acks + 1);
      expect(google.count('products.consume')).toBe(consumes + 1);
      expect(google.products.get(token)).toMatchObject({ acknowledgementState: 1, consumptionState: 1 });
    });

    it('refuses a purchase Google still holds as pending: not verified, not finished, nothing granted or acknowledged', async () => {
      const till = await buyer();
      const token = `sdk-tok-pending-${Date.now()}`;
      const orderId = sold(token, 'till.credits100', 2);
      const store = playStore(token, orderId);
      const acks = google.count('products.acknowledge');
      const { flow, messages, delivered } = await flowOn(
        till,
        CdvPlatform.GooglePlay,
        { id: 'till.credits100', alias: 'credits-100', type: ProductType.Consumable },
        store,
      );
      await until(() => expect(codes(messages)).toEqual([799, 801, 'error']));
      expect(messages[2]?.data).toEqual({ message: NOT_VERIFIED, productId: 'till.credits100' });
      expect(delivered).not.toHaveBeenCalled();
      expect(store.finished).toHaveLength(0);
      expect(flow.transactionState(orderId)).toBe('rejected');
      expect(await balance(till)).toBe(0);
      expect(google.count('products.acknowledge')).toBe(acks);
    });
  });
});
