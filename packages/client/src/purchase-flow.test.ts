import { describe, expect, it, vi } from 'vitest';
import { ProductType, type ValidatePurchaseData } from '@till/protocol';
import type { DataAnswer } from './answers.js';
import { FakeStoreAdapter, type FakeStoreOptions } from './adapters/fake-store.js';
import { PurchaseFlow } from './purchase-flow.js';
import type { PurchaseFlowOptions, StoreMessage } from './purchase-types.js';
import { PURCHASE_NOT_VERIFIED } from './purchase-verification.js';

type Validation = DataAnswer<ValidatePurchaseData>;
const valid = (products: string): Validation => ({ code: 900, data: { result: 1, products } });

const settle = () => new Promise((r) => setTimeout(r, 0));

function setup(
  options: { adapter?: FakeStoreOptions; validation?: Validation | (() => Promise<Validation>) } & Partial<
    Omit<PurchaseFlowOptions, 'adapter' | 'store' | 'onMessage'>
  > = {},
) {
  const { adapter: adapterOptions, validation, ...flowOptions } = options;
  const adapter = new FakeStoreAdapter(adapterOptions);
  const answer = validation ?? valid('pro');
  const validatePurchase = vi.fn(typeof answer === 'function' ? answer : async () => answer);
  const messages: StoreMessage[] = [];
  const proCallback = vi.fn();
  const coinsCallback = vi.fn();
  const flow = new PurchaseFlow({
    adapter,
    store: { validatePurchase },
    onMessage: (m) => messages.push(m),
    products: [
      { id: 'pro', alias: 'pro-unlock', type: ProductType.NonConsumable, callback: proCallback },
      { id: 'coins', alias: 'credits-100', type: ProductType.Consumable, callback: coinsCallback },
      { id: 'monthly', alias: 'monthly', type: ProductType.Subscription },
    ],
    ...flowOptions,
  });
  const codes = () => messages.map((m) => m.code ?? m.type);
  return { adapter, flow, messages, codes, validatePurchase, proCallback, coinsCallback };
}

describe('PurchaseFlow products', () => {
  it('registers its products with their types and keeps loaded, valid and canPurchase from store updates', async () => {
    const onProductsChange = vi.fn();
    const { adapter, flow } = setup({ adapter: { unknownProducts: ['monthly'] }, onProductsChange });
    expect(flow.products.every((p) => !p.loaded && !p.valid && !p.canPurchase)).toBe(true);
    await flow.start();
    expect(adapter.registered).toEqual([
      { id: 'pro', alias: 'pro-unlock', type: ProductType.NonConsumable },
      { id: 'coins', alias: 'credits-100', type: ProductType.Consumable },
      { id: 'monthly', alias: 'monthly', type: ProductType.Subscription },
    ]);
    expect(adapter.initializeCount).toBe(1);
    const state = Object.fromEntries(flow.products.map((p) => [p.id, [p.loaded, p.valid, p.canPurchase]]));
    expect(state).toEqual({ pro: [true, true, true], coins: [true, true, true], monthly: [true, false, false] });
    expect(onProductsChange).toHaveBeenCalled();
  });

  it('refreshes the store on refresh and on every app resume, until destroyed', async () => {
    let resume: (() => void) | undefined;
    const unsubscribe = vi.fn();
    const { adapter, flow } = setup({
      onResume: (listener) => {
        resume = listener;
        return unsubscribe;
      },
    });
    await flow.start();
    await flow.refresh();
    expect(adapter.refreshCount).toBe(1);
    resume?.();
    await settle();
    expect(adapter.refreshCount).toBe(2);
    flow.destroy();
    expect(unsubscribe).toHaveBeenCalled();
  });

  it('adds products after start and registers them at once', async () => {
    const { adapter, flow } = setup();
    await flow.start();
    flow.setProducts([{ id: 'gems', alias: 'gems', type: ProductType.Consumable }]);
    expect(adapter.registered.at(-1)).toEqual({ id: 'gems', alias: 'gems', type: ProductType.Consumable });
    expect(flow.products.map((p) => p.id)).toContain('gems');
  });
});

describe('PurchaseFlow orders', () => {
  it('verifies an approved purchase: 799, 801, server validation, callbacks, finish, 800', async () => {
    const { adapter, flow, messages, codes, validatePurchase, proCallback, coinsCallback } = setup();
    await flow.start();
    await flow.order(['pro', 'coins']);
    await settle();
    expect(codes()).toEqual([799, 801, 800]);
    expect(adapter.orders).toEqual(['pro']);
    const tx = adapter.finished[0]!;
    expect(validatePurchase).toHaveBeenCalledWith(tx.data, 'api/store/validatePurchase');
    expect(messages[0]).toEqual({ type: 'ordered', code: 799, data: { productId: 'pro' } });
    expect(messages[1]).toEqual({ type: 'approved', code: 801, data: { productId: 'pro', transactionId: tx.id } });
    expect(messages[2]).toEqual({ type: 'finished', code: 800, data: { productId: 'pro', transactionId: tx.id } });
    expect(proCallback).toHaveBeenCalledTimes(1);
    expect(coinsCallback).not.toHaveBeenCalled();
    expect(flow.transactionState(tx.id)).toBe('finished');
    // A non-consumable stays owned: the store says it cannot be bought again.
    expect(flow.products.find((p) => p.id === 'pro')).toMatchObject({ owned: true, canPurchase: false });
  });

  it('finishes only after the server has answered', async () => {
    let answer!: (v: Validation) => void;
    const { adapter, flow, codes } = setup({ validation: () => new Promise((r) => (answer = r)) });
    await flow.start();
    await flow.order(['pro']);
    await settle();
    expect(codes()).toEqual([799, 801]);
    expect(adapter.finished).toHaveLength(0);
    answer(valid('pro'));
    await settle();
    expect(codes()).toEqual([799, 801, 800]);
  });

  it('orders by alias too', async () => {
    const { adapter, flow } = setup();
    await flow.start();
    await flow.order('credits-100');
    expect(adapter.orders).toEqual(['coins']);
  });

  it('fires the callbacks of every product the validator names (ids joined with ;), ignoring unknown ones', async () => {
    const { flow, proCallback, coinsCallback } = setup({ validation: valid('pro;coins;ghost') });
    await flow.start();
    await flow.order(['pro']);
    await settle();
    expect(proCallback).toHaveBeenCalledTimes(1);
    expect(coinsCallback).toHaveBeenCalledTimes(1);
  });

  it('verifies by default: without forceVerify, and with it true, nothing is finished before the server says result 1', async () => {
    for (const options of [{}, { forceVerify: true }, { forceVerify: undefined }]) {
      const { adapter, flow, codes, validatePurchase } = setup({
        ...options,
        validation: { code: 900, data: { result: 0, reason: 'unknown_transaction' } },
      });
      await flow.start();
      await flow.order(['coins']);
      await settle();
      expect(validatePurchase).toHaveBeenCalledTimes(1);
      expect(codes()).toEqual([799, 801, 'error']);
      expect(adapter.finished).toHaveLength(0);
    }
  });

  it('says "We couldn\'t verify the purchase" only for a failed verification, never next to a success', async () => {
    const good = setup();
    await good.flow.start();
    await good.flow.order(['pro']);
    await settle();
    expect(good.messages.some((m) => m.type === 'error')).toBe(false);

    // A validator that throws instead of answering is a failed verification too.
    const thrown = setup({ validation: () => Promise.reject(new Error('boom')) });
    await thrown.flow.start();
    await thrown.flow.order(['pro']);
    await settle();
    expect(thrown.messages.at(-1)).toEqual({
      type: 'error',
      data: { message: PURCHASE_NOT_VERIFIED, productId: 'pro' },
    });
    expect(thrown.adapter.finished).toHaveLength(0);

    // In the callback variant an answer other than 900 never reaches the callback, and fails alike.
    const onValidation = vi.fn();
    const malformed = setup({
      onValidation,
      validation: { code: 907, parameter: 'transactionData', reason: 'invalid' },
    });
    await malformed.flow.start();
    await malformed.flow.order(['pro']);
    await settle();
    expect(onValidation).not.toHaveBeenCalled();
    expect(malformed.messages.at(-1)?.data).toEqual({ message: PURCHASE_NOT_VERIFIED, productId: 'pro' });
    expect(malformed.adapter.finished).toHaveLength(0);
  });

  it('with forceVerify off finishes at once without asking the server: 799, 800', async () => {
    const { adapter, flow, codes, validatePurchase } = setup({ forceVerify: false });
    await flow.start();
    await flow.order(['coins']);
    await settle();
    expect(codes()).toEqual([799, 800]);
    expect(validatePurchase).not.toHaveBeenCalled();
    expect(adapter.finished).toHaveLength(1);
  });

  it.each<[string, Validation]>([
    ['data.result is 0', { code: 900, data: { result: 0, reason: 'unknown_transaction' } }],
    ['the validator refuses the payment (910)', { code: 910, reason: 'already_used' }],
    ['the transaction is malformed (907)', { code: 907, parameter: 'transactionData', reason: 'invalid' }],
  ])('reports "We couldn\'t verify the purchase" and leaves it unfinished when %s', async (_name, validation) => {
    const { adapter, flow, messages, codes, proCallback } = setup({ validation });
    await flow.start();
    await flow.order(['pro']);
    await settle();
    expect(codes()).toEqual([799, 801, 'error']);
    expect(messages[2]).toEqual({ type: 'error', data: { message: PURCHASE_NOT_VERIFIED, productId: 'pro' } });
    expect(PURCHASE_NOT_VERIFIED).toBe("We couldn't verify the purchase");
    expect(adapter.finished).toHaveLength(0);
    expect(proCallback).not.toHaveBeenCalled();
  });

  it('reports "We couldn\'t verify the purchase" when the server cannot be reached (905)', async () => {
    const failure = { code: 905, reason: 'network', error: new Error('down') } as unknown as Validation;
    const { adapter, flow, messages } = setup({ validation: failure });
    await flow.start();
    await flow.order(['pro']);
    await settle();
    expect(messages.at(-1)?.data).toMatchObject({ message: PURCHASE_NOT_VERIFIED });
    expect(adapter.finished).toHaveLength(0);
  });

  it('reports "We couldn\'t verify the purchase" for an approval without a transaction', async () => {
    const { adapter, flow, messages, validatePurchase } = setup({ adapter: { outcome: 'approveWithoutTransaction' } });
    await flow.start();
    await flow.order(['pro']);
    await settle();
    expect(messages.map((m) => m.code ?? m.type)).toEqual([799, 'error']);
    expect(messages[1]?.data).toEqual({ message: PURCHASE_NOT_VERIFIED });
    expect(validatePurchase).not.toHaveBeenCalled();
    expect(adapter.finished).toHaveLength(0);
  });

  it('hands data to the validation callback and finishes only when data.result is 1', async () => {
    const onValidation = vi.fn();
    const ok = setup({ onValidation, validation: valid('pro') });
    await ok.flow.start();
    await ok.flow.order(['pro']);
    await settle();
    expect(onValidation).toHaveBeenCalledWith({ result: 1, products: 'pro' }, ok.adapter.finished[0]);
    expect(ok.codes()).toEqual([799, 801, 800]);
    // In the callback variant the app decides what the products do.
    expect(ok.proCallback).not.toHaveBeenCalled();

    const refused = vi.fn();
    const no = setup({ onValidation: refused, validation: { code: 900, data: { result: 0, reason: 'expired' } } });
    await no.flow.start();
    await no.flow.order(['pro']);
    await settle();
    expect(refused).toHaveBeenCalledWith(
      { result: 0, reason: 'expired' },
      expect.objectContaining({ productIds: ['pro'] }),
    );
    expect(no.codes()).toEqual([799, 801, 'error']);
    expect(no.adapter.finished).toHaveLength(0);
  });

  it('tells the parent when the user cancels', async () => {
    const { flow, messages } = setup({ adapter: { outcome: 'cancel' } });
    await flow.start();
    await flow.order(['pro']);
    expect(messages).toEqual([
      { type: 'ordered', code: 799, data: { productId: 'pro' } },
      { type: 'cancelled', data: { productId: 'pro' } },
    ]);
  });

  it('posts 804 with {} when the order fails, the product is unknown, or nothing is selected', async () => {
    const { adapter, flow, messages } = setup({ adapter: { outcome: 'fail' } });
    await flow.start();
    await flow.order(['pro']);
    await flow.order(['no-such-product']);
    await flow.order([]);
    expect(messages).toEqual([
      { type: 'ordered', code: 799, data: { productId: 'pro' } },
      { type: 'orderError', code: 804, data: {} },
      { type: 'orderError', code: 804, data: {} },
      { type: 'orderError', code: 804, data: {} },
    ]);
    expect(adapter.orders).toEqual(['pro']);
  });

  it('posts 804 when the store throws on order', async () => {
    const { adapter, flow, codes } = setup();
    adapter.order = async () => {
      throw new Error('bridge gone');
    };
    await flow.start();
    await flow.order(['pro']);
    expect(codes()).toEqual([799, 804]);
  });

  it('passes store errors and store-side cancellations on to the parent', async () => {
    const { adapter, flow, messages } = setup();
    await flow.start();
    adapter.emit({ type: 'error', message: 'Store unavailable', code: 6777001 });
    adapter.emit({ type: 'cancelled', productId: 'coins' });
    expect(messages).toEqual([
      { type: 'error', data: { message: 'Store unavailable', code: 6777001 } },
      { type: 'cancelled', data: { productId: 'coins' } },
    ]);
  });

  it('reports a store that fails to start as an error', async () => {
    const { adapter, flow, messages } = setup();
    adapter.initialize = async () => {
      throw new Error('Billing unavailable');
    };
    await flow.start();
    expect(messages).toEqual([{ type: 'error', data: { message: 'Billing unavailable' } }]);
  });
});

describe('PurchaseFlow transactions', () => {
  it('acts once on a transaction the store reports approved twice', async () => {
    const { adapter, flow, codes, validatePurchase } = setup({ adapter: { outcome: 'wait' } });
    await flow.start();
    const tx = adapter.transaction('pro');
    adapter.emit({ type: 'approved', transaction: tx });
    adapter.emit({ type: 'approved', transaction: tx });
    await settle();
    expect(validatePurchase).toHaveBeenCalledTimes(1);
    expect(adapter.finished).toHaveLength(1);
    expect(codes()).toEqual([801, 800]);
    adapter.emit({ type: 'approved', transaction: tx });
    await settle();
    expect(adapter.finished).toHaveLength(1);
  });

  it('verifies a rejected transaction again when the store brings it back', async () => {
    const answers: Validation[] = [{ code: 905 } as Validation, valid('pro')];
    const { adapter, flow, codes } = setup({
      adapter: { outcome: 'wait' },
      validation: async () => answers.shift() ?? valid('pro'),
    });
    await flow.start();
    const tx = adapter.transaction('pro');
    adapter.emit({ type: 'approved', transaction: tx });
    await settle();
    expect(flow.transactionState(tx.id)).toBe('rejected');
    adapter.emit({ type: 'approved', transaction: tx });
    await settle();
    expect(flow.transactionState(tx.id)).toBe('finished');
    expect(codes()).toEqual([801, 'error', 801, 800]);
  });

  it('reports a transaction the store cannot finish, and finishes it when it comes back', async () => {
    const { adapter, flow, codes, messages } = setup({ adapter: { failFinish: true } });
    await flow.start();
    await flow.order(['pro']);
    await settle();
    expect(codes()).toEqual([799, 801, 'error']);
    expect(messages[2]?.data).toMatchObject({ message: 'The store could not finish the transaction' });
    expect(flow.transactionState('fake-pro-1')).toBe('failed');
    adapter.failFinish = false;
    adapter.emit({ type: 'approved', transaction: { ...adapter.transaction('pro'), id: 'fake-pro-1' } });
    await settle();
    expect(flow.transactionState('fake-pro-1')).toBe('finished');
  });

  it('keeps going when the parent handler throws', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const adapter = new FakeStoreAdapter();
    const flow = new PurchaseFlow({
      adapter,
      store: { validatePurchase: async () => valid('pro') },
      products: [{ id: 'pro', alias: 'pro', type: ProductType.NonConsumable }],
      onMessage: () => {
        throw new Error('app bug');
      },
    });
    await flow.start();
    await flow.order(['pro']);
    await settle();
    expect(adapter.finished).toHaveLength(1);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});

describe('PurchaseFlow quantities', () => {
  it('buys a consumable one verified store purchase per unit', async () => {
    const { adapter, flow, validatePurchase, coinsCallback } = setup({ validation: valid('coins') });
    await flow.start();
    const result = await flow.purchase('credits-100', 3);
    expect(result).toMatchObject({ bought: 3, message: { type: 'finished', code: 800 } });
    expect(adapter.orders).toEqual(['coins', 'coins', 'coins']);
    expect(validatePurchase).toHaveBeenCalledTimes(3);
    expect(adapter.finished).toHaveLength(3);
    expect(coinsCallback).toHaveBeenCalledTimes(3);
  });

  it('stops at the first unit that is not bought and says how many were', async () => {
    const { adapter, flow } = setup({ validation: valid('coins') });
    await flow.start();
    let orders = 0;
    const order = adapter.order.bind(adapter);
    adapter.order = async (id) => {
      orders += 1;
      if (orders === 2) adapter.outcome = 'cancel';
      return order(id);
    };
    const result = await flow.purchase('coins', 3);
    expect(result).toMatchObject({ bought: 1, message: { type: 'cancelled' } });
    expect(adapter.finished).toHaveLength(1);
  });

  it('refuses more than one unit of a non-consumable or a subscription before ordering anything', async () => {
    const { adapter, flow } = setup();
    await flow.start();
    expect(await flow.purchase('pro', 2)).toEqual({ bought: 0, message: null, refused: 'onlyOne' });
    expect(await flow.purchase('monthly', 2)).toEqual({ bought: 0, message: null, refused: 'onlyOne' });
    expect(adapter.orders).toEqual([]);
    expect(await flow.purchase('pro', 1)).toMatchObject({ bought: 1, message: { type: 'finished' } });
  });
});

describe('PurchaseFlow restore', () => {
  it('sends each owned transaction the store restores to the server again and says what came back', async () => {
    const { adapter, flow, validatePurchase, proCallback } = setup();
    await flow.start();
    await flow.purchase('pro');
    const bought = adapter.finished[0];
    validatePurchase.mockClear();
    const { restored } = await flow.restore();
    expect(adapter.restoreCount).toBe(1);
    expect(validatePurchase).toHaveBeenCalledTimes(1);
    expect(validatePurchase).toHaveBeenCalledWith(bought?.data, 'api/store/validatePurchase');
    expect(restored).toEqual([{ productId: 'pro', transactionId: bought?.id, verified: true, products: ['pro'] }]);
    expect(proCallback).toHaveBeenCalledTimes(2);
  });

  it('answers nothing restored when the buyer owns nothing, and marks a transaction the server refuses', async () => {
    let answer: Validation = valid('pro');
    const { flow } = setup({ validation: async () => answer });
    await flow.start();
    expect(await flow.restore()).toEqual({ restored: [] });
    await flow.purchase('pro');
    answer = { code: 900, data: { result: 0, reason: 'invalid' } } as Validation;
    const { restored } = await flow.restore();
    expect(restored).toMatchObject([{ productId: 'pro', verified: false, products: [] }]);
  });

  it('reports a store that fails to restore', async () => {
    const { adapter, flow, messages } = setup();
    await flow.start();
    adapter.restore = async () => {
      throw new Error('Cannot connect to the App Store');
    };
    expect(await flow.restore()).toEqual({ restored: [] });
    expect(messages.at(-1)).toEqual({ type: 'error', data: { message: 'Cannot connect to the App Store' } });
  });
});
