import { describe, expect, it, vi } from 'vitest';
import { ProductType } from '@till/protocol';
import { PurchaseFlow } from '../purchase-flow.js';
import type { StoreMessage } from '../purchase-types.js';
import { PURCHASE_NOT_VERIFIED } from '../purchase-verification.js';
import { playNativePurchase, ScriptedCdvStore } from '../test-support/cdv-native-store.js';
import { loadCdvPurchase as loadPlugin, type LoadedPlugin as Plugin } from '../test-support/cdv-plugin.js';
import { CDV_PRODUCT_TYPES, CdvPlatform, CdvPurchaseAdapter, toTransaction } from './cdv-purchase.js';
import type { CdvStoreLike } from './cdv-store.js';

function flowOn(
  plugin: Plugin,
  validatePurchase = vi.fn(async () => ({ code: 900 as const, data: { result: 1 as const, products: 'pro-unlock' } })),
) {
  const messages: StoreMessage[] = [];
  const unlocked = vi.fn();
  const flow = new PurchaseFlow({
    adapter: new CdvPurchaseAdapter(plugin.store),
    store: { validatePurchase },
    onMessage: (m) => messages.push(m),
    products: [
      { id: 'com.till.pro', alias: 'pro-unlock', type: ProductType.NonConsumable, callback: unlocked },
      { id: 'com.till.coins', alias: 'credits-100', type: ProductType.Consumable },
      { id: 'com.till.monthly', alias: 'monthly', type: ProductType.Subscription },
    ],
  });
  return { flow, messages, unlocked, validatePurchase };
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 30_000, interval: 20 });

describe('CdvPurchaseAdapter over cordova-plugin-purchase (TEST platform)', () => {
  it("maps the protocol's product types to the plugin's strings", () => {
    const plugin = loadPlugin(() => null);
    expect(CDV_PRODUCT_TYPES).toEqual({
      [ProductType.Consumable]: plugin.ProductType.CONSUMABLE,
      [ProductType.NonConsumable]: plugin.ProductType.NON_CONSUMABLE,
      [ProductType.Subscription]: plugin.ProductType.PAID_SUBSCRIPTION,
    });
  });

  it('registers the products with their plugin types and loads them as valid and purchasable', async () => {
    const plugin = loadPlugin(() => null);
    const { flow } = flowOn(plugin);
    await flow.start();
    expect(plugin.store.products.map((p) => [p.id, p.type])).toEqual([
      ['com.till.pro', 'non consumable'],
      ['com.till.coins', 'consumable'],
      ['com.till.monthly', 'paid subscription'],
    ]);
    expect(flow.products.map((p) => [p.id, p.loaded, p.valid, p.canPurchase])).toEqual([
      ['com.till.pro', true, true, true],
      ['com.till.coins', true, true, true],
      ['com.till.monthly', true, true, true],
    ]);
    expect(flow.products[0]?.price).toMatch(/\$/);
    // The price in numbers too, to add up a cart in the buyer's currency.
    expect(flow.products[0]).toMatchObject({ priceMicros: expect.any(Number), currency: 'USD' });
  });

  it('buys, verifies on the server with the transaction as JSON, finishes and ends owned: 799, 801, 800', async () => {
    const plugin = loadPlugin(() => 'Y');
    const { flow, messages, unlocked, validatePurchase } = flowOn(plugin);
    await flow.start();
    await flow.order(['com.till.pro']);
    await until(() => expect(messages.map((m) => m.code ?? m.type)).toEqual([799, 801, 800]));
    const [transactionData, path] = validatePurchase.mock.calls[0] as unknown as [Record<string, unknown>, string];
    expect(path).toBe('api/store/validatePurchase');
    expect(transactionData).toMatchObject({ platform: 'test', state: 'approved', products: [{ id: 'com.till.pro' }] });
    expect(JSON.parse(JSON.stringify(transactionData))).toEqual(transactionData);
    expect(unlocked).toHaveBeenCalledTimes(1);
    await until(() => expect(flow.products[0]).toMatchObject({ owned: true, canPurchase: false }));
  });

  it('reports a cancelled purchase as cancelled, once', async () => {
    const plugin = loadPlugin(() => 'no thanks');
    const { flow, messages } = flowOn(plugin);
    await flow.start();
    await flow.order(['com.till.coins']);
    expect(messages).toEqual([
      { type: 'ordered', code: 799, data: { productId: 'com.till.coins' } },
      { type: 'cancelled', data: { productId: 'com.till.coins' } },
    ]);
  });

  it('reports a failed purchase as 804 with {}, once', async () => {
    const plugin = loadPlugin(() => 'E');
    const { flow, messages } = flowOn(plugin);
    await flow.start();
    await flow.order(['com.till.coins']);
    expect(messages).toEqual([
      { type: 'ordered', code: 799, data: { productId: 'com.till.coins' } },
      { type: 'orderError', code: 804, data: {} },
    ]);
  });

  it('leaves a purchase the server does not confirm unfinished', async () => {
    const plugin = loadPlugin(() => 'Y');
    const refuse = vi.fn(async () => ({ code: 900 as const, data: { result: 0 as const, reason: 'unknown' } }));
    const { flow, messages } = flowOn(plugin, refuse as never);
    await flow.start();
    await flow.order(['com.till.coins']);
    await until(() => expect(messages.map((m) => m.code ?? m.type)).toEqual([799, 801, 'error']));
    expect(messages[2]?.data).toMatchObject({ message: PURCHASE_NOT_VERIFIED });
    const txId = (messages[1]?.data as { transactionId: string }).transactionId;
    expect(flow.transactionState(txId)).toBe('rejected');
  });

  it('marks a product the store did not load as loaded but not valid, and will not order it', async () => {
    // A structural store that knows no product, as a platform does for an id it has not got.
    const errors: ((e: { code: number; message: string; productId?: string }) => void)[] = [];
    const when = { productUpdated: () => when, approved: () => when };
    const store: CdvStoreLike = {
      register: () => [],
      initialize: async () => [],
      update: async () => {},
      restorePurchases: async () => undefined,
      localTransactions: [],
      get: () => undefined,
      order: async () => undefined,
      when: () => when,
      error: (cb) => errors.push(cb),
      off: () => {},
    };
    const adapter = new CdvPurchaseAdapter(store, { platform: 'android-playstore' });
    const events: unknown[] = [];
    adapter.subscribe((e) => events.push(e));
    adapter.register([{ id: 'com.till.pro', alias: 'pro', type: ProductType.NonConsumable }]);
    await adapter.initialize();
    expect(events).toEqual([
      {
        type: 'product',
        product: { id: 'com.till.pro', loaded: true, valid: false, canPurchase: false, owned: false },
      },
    ]);
    expect(await adapter.order('com.till.pro')).toMatchObject({ ok: false, cancelled: false });
    errors.forEach((cb) => cb({ code: 6777002, message: 'Failed to load', productId: 'com.till.pro' }));
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'Failed to load',
      code: 6777002,
      productId: 'com.till.pro',
    });
    await expect(
      adapter.finish({ id: 'nope', productIds: [], platform: 'android-playstore', data: {} }),
    ).rejects.toThrow(/Unknown transaction/);
  });
});

describe('toTransaction: what the validator receives for the native platforms', () => {
  const receipt = {
    appStoreReceipt: 'TUlJQXBwUmVjZWlwdA==',
    bundleIdentifier: 'com.example.till',
    bundleShortVersion: '1.0',
    bundleNumericVersion: 1,
    bundleSignature: '',
  };

  async function reported(store: ScriptedCdvStore, platform: string, productId: string) {
    const adapter = new CdvPurchaseAdapter(store, { platform });
    const approved: unknown[] = [];
    adapter.subscribe((e) => {
      if (e.type === 'approved') approved.push(e.transaction);
    });
    adapter.register([{ id: productId, alias: productId, type: ProductType.Consumable }]);
    await adapter.initialize();
    expect(await adapter.order(productId)).toEqual({ ok: true });
    await until(() => expect(approved).toHaveLength(1));
    return { adapter, transaction: approved[0] as ReturnType<typeof toTransaction> };
  }

  it('App Store: the transaction id, the StoreKit 2 signed transaction and the app receipt, as plain JSON', async () => {
    const jws = 'eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJl';
    const store = new ScriptedCdvStore({
      platform: 'ios-appstore',
      appReceipt: receipt,
      needAppReceipt: true,
      purchase: (productId) => ({
        transactionId: '2000000123456789',
        originalTransactionId: '2000000123456789',
        productId,
        jwsRepresentation: jws,
      }),
    });
    const { adapter, transaction } = await reported(store, CdvPlatform.AppStore, 'till.credits100');
    expect(transaction).toEqual({
      id: '2000000123456789',
      productIds: ['till.credits100'],
      platform: 'ios-appstore',
      data: {
        platform: 'ios-appstore',
        transactionId: '2000000123456789',
        state: 'approved',
        products: [{ id: 'till.credits100' }],
        purchaseDate: expect.any(String),
        originalTransactionId: '2000000123456789',
        jwsRepresentation: jws,
        appStoreReceipt: receipt.appStoreReceipt,
      },
    });
    expect(JSON.parse(JSON.stringify(transaction.data))).toEqual(transaction.data);
    // The app receipt's own entry (`appstore.application`) was reported by the plugin but is no purchase.
    expect(store.transactions.map((t) => t.transactionId)).toEqual(['appstore.application', '2000000123456789']);
    await adapter.finish(transaction);
    expect(store.finished.map((t) => t.transactionId)).toEqual(['2000000123456789']);
  });

  it("Google Play: the Billing library's purchase as nativePurchase, the order id as the transaction id", async () => {
    const native = playNativePurchase({
      purchaseToken: 'opaque-token',
      productId: 'till.credits100',
      packageName: 'com.example.till',
      orderId: 'GPA.3300-0000-0000-00001',
    });
    const store = new ScriptedCdvStore({ platform: 'android-playstore', purchase: () => native });
    const { transaction } = await reported(store, CdvPlatform.GooglePlay, 'till.credits100');
    expect(transaction.id).toBe('GPA.3300-0000-0000-00001');
    expect(transaction.data).toMatchObject({
      platform: 'android-playstore',
      transactionId: 'GPA.3300-0000-0000-00001',
      products: [{ id: 'till.credits100' }],
      nativePurchase: {
        purchaseToken: 'opaque-token',
        packageName: 'com.example.till',
        productIds: ['till.credits100'],
        orderId: 'GPA.3300-0000-0000-00001',
        signature: native.signature,
        receipt: native.receipt,
      },
    });
    expect(JSON.parse(native.receipt)).toMatchObject({
      purchaseToken: 'opaque-token',
      packageName: 'com.example.till',
    });
  });

  it('leaves out a purchase date the store could not read instead of failing', () => {
    const t = {
      platform: 'android-playstore',
      transactionId: 'tok',
      products: [{ id: 'p' }],
      purchaseDate: new Date(Number.NaN),
      finish: async () => {},
    };
    expect(toTransaction(t).data).not.toHaveProperty('purchaseDate');
  });
});
