import { describe, expect, it, vi } from 'vitest';
import { ProductType } from '@till/protocol';
import { PurchaseFlow } from '../purchase-flow.js';
import type { StoreMessage } from '../purchase-types.js';
import { PURCHASE_NOT_VERIFIED } from '../purchase-verification.js';
import { loadCdvPurchase as loadPlugin, type LoadedPlugin as Plugin } from '../test-support/cdv-plugin.js';
import { CDV_PRODUCT_TYPES, CdvPurchaseAdapter } from './cdv-purchase.js';
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

const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

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
