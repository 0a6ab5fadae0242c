import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CdvPurchaseAdapter,
  createTill,
  type DataAnswer,
  type OrderStatusData,
  type StoreMessage,
  type Till,
} from '@till/client';
import { FakeStoreAdapter } from '@till/client/testing';
import { ProductType } from '@till/protocol';
import { loadCdvPurchase } from '../../packages/client/src/test-support/cdv-plugin.js';
import { patientTimeouts, startTestApp, type TestApp } from '@till/test-support/app';
import { giveCredits } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

// The SDK's store client, order poller and purchase flow against the real store (demo catalog:
// credits-100 at 1.99 USD, pro-unlock at 4.99 USD or 500 credits; coupons WELCOME10 and FREE100).
describe('SDK store calls against the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ listen: true });
  });
  afterAll(() => t.close());

  async function buyer(): Promise<{ till: Till; userId: string }> {
    const user = await registerUser(t);
    const till = createTill({ apiHost: t.url, storeHost: t.url, timeouts: patientTimeouts });
    till.session.start({ token: user.token, expire: 3600 });
    return { till, userId: user.userId };
  }

  it('looks a coupon up, and redeems a grant coupon once', async () => {
    const { till } = await buyer();
    const welcome = await till.store.getCoupon('WELCOME10');
    expect(welcome.code === 900 && welcome.data.coupon).toMatchObject({
      code: 'WELCOME10',
      kind: 'discount',
      percentOff: 10,
    });
    expect(await till.store.getCoupon('NO-SUCH-COUPON')).toEqual({ code: 908, reason: 'unknown' });

    const redeemed = await till.store.redeemCoupon('FREE100');
    expect(redeemed).toEqual({ code: 900, data: { granted: { credits: 100, products: [] }, balance: 100 } });
    expect(await till.store.redeemCoupon('FREE100')).toEqual({ code: 908, reason: 'already_redeemed' });
  });

  it('pays with credits: 909 while short, then a paid order and the new balance', async () => {
    const { till, userId } = await buyer();
    expect(await till.store.payWithCredits(['pro-unlock'])).toEqual({ code: 909, balance: 0, required: 500 });
    await giveCredits(t, userId, 600);
    const paid = await till.store.payWithCredits(['pro-unlock'], { note: 'from the SDK' });
    expect(paid.code).toBe(900);
    if (paid.code !== 900) return;
    expect(paid.data.balance).toBe(100);
    expect(paid.data.order).toMatchObject({ status: 'paid', provider: 'credits', creditsSpent: 500 });
    expect(paid.data.order.items.map((i) => i.productId)).toEqual(['pro-unlock']);
  });

  it('gets the checkout form for the cart', async () => {
    const { till } = await buyer();
    const form = await till.store.getCheckoutForm(['credits-100', 'pro-unlock']);
    expect(form.code).toBe(900);
    if (form.code !== 900) return;
    expect(form.data.products.map((p) => p.id)).toEqual(['credits-100', 'pro-unlock']);
    expect(form.data.total).toEqual({ amount: 698, currency: 'USD' });
    expect(form.data.providers.map((p) => p.provider)).toContain('default');
  });

  it('checks out with a coupon, pays on the sandbox page, and the poller follows the order to paid', async () => {
    const { till } = await buyer();
    const checkout = await till.store.doCheckout({ products: ['credits-100', 'pro-unlock'], couponCode: 'WELCOME10' });
    if (checkout.code !== 900) throw new Error(JSON.stringify(checkout));
    const { order, payment } = checkout.data;
    expect(order).toMatchObject({ status: 'pending', couponCode: 'WELCOME10', subtotal: { amount: 698 } });
    expect(order.discount.amount).toBe(70);
    if (!('url' in payment)) throw new Error('expected a checkout page');

    // Paying a pending order again hands back the same order.
    const again = await till.store.doCheckout({ pastOrder: order.iden });
    expect(again.code === 900 && again.data.order.iden).toBe(order.iden);

    const seen: DataAnswer<OrderStatusData>[] = [];
    till.poller.add({ iden: order.iden, callback: (res) => seen.push(res) });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
    expect(seen[0]?.code === 900 && seen[0].data.status).toBe('pending');

    // The buyer pays on the built-in checkout page (a plain form post).
    const sig = new URL(payment.url).searchParams.get('sig') ?? '';
    const paid = await fetch(`${t.url}/api/pay/default/${order.iden}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sig, action: 'pay' }).toString(),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);

    await vi.waitFor(() => expect(till.poller.size).toBe(0), { timeout: 30_000, interval: 50 });
    const last = seen.at(-1);
    expect(last?.code === 900 && last.data.status).toBe('paid');
    expect(last?.code === 900 && last.data.order.total.amount).toBe(628);
    expect(till.poller.running).toBe(false);
    // Every answer but the last was pending; the entry went with the first final one.
    expect(seen.slice(0, -1).every((r) => r.code === 900 && r.data.status === 'pending')).toBe(true);
  });

  it('buys in-app with the scripted store, verified by the server: 799, 801, 800 and the product callback', async () => {
    const { till } = await buyer();
    const messages: StoreMessage[] = [];
    const unlocked = vi.fn();
    const flow = till.createPurchaseFlow({
      adapter: new FakeStoreAdapter(),
      // The platform's store id, and the server's id as the alias: the validator names server ids.
      products: [{ id: 'till.pro_unlock', alias: 'pro-unlock', type: ProductType.NonConsumable, callback: unlocked }],
      onMessage: (m) => messages.push(m),
    });
    await flow.start();
    await flow.order(['till.pro_unlock']);
    await vi.waitFor(() => expect(messages.map((m) => m.code ?? m.type)).toEqual([799, 801, 800]), { timeout: 30_000 });
    expect(unlocked).toHaveBeenCalledTimes(1);

    const orders = await till.serviceCall<{ orders: { provider: string; status: string }[] }>('api/store/orders', {});
    expect(orders.code === 900 && orders.data.orders[0]).toMatchObject({ provider: 'test', status: 'paid' });
  });

  it('restores a purchase and validates a transaction again without granting anything twice', async () => {
    const { till } = await buyer();
    // Its own transaction ids: another test's buyer already owns `fake-till.pro_unlock-1`.
    const adapter = new FakeStoreAdapter({ idPrefix: 'restore' });
    const unlocked = vi.fn();
    const flow = till.createPurchaseFlow({
      adapter,
      products: [
        { id: 'till.pro_unlock', alias: 'pro-unlock', type: ProductType.NonConsumable, callback: unlocked },
        { id: 'till.credits100', alias: 'credits-100', type: ProductType.Consumable },
      ],
      onMessage: () => undefined,
    });
    await flow.start();
    expect(await flow.purchase('pro-unlock')).toMatchObject({ bought: 1 });
    expect(await flow.purchase('credits-100', 2)).toMatchObject({ bought: 2 });
    const paidOrders = async () => {
      const answer = await till.serviceCall<{ orders: { status: string }[] }>('api/store/orders', {});
      return answer.code === 900 ? answer.data.orders.filter((o) => o.status === 'paid').length : -1;
    };
    const balance = async () => {
      const answer = await till.serviceCall<{ balance: number }>('api/store/credits', {});
      return answer.code === 900 ? answer.data.balance : -1;
    };
    expect(await paidOrders()).toBe(3);
    expect(await balance()).toBe(200);

    // The owned non-consumable comes back through the same validation: verified, nothing new.
    const { restored } = await flow.restore();
    expect(restored).toMatchObject([{ productId: 'till.pro_unlock', verified: true }]);
    expect(unlocked).toHaveBeenCalledTimes(2);
    // A consumable's transaction sent again is answered valid and credits nothing more.
    const again = await till.store.validatePurchase(adapter.finished[1]?.data);
    expect(again).toMatchObject({ code: 900, data: { result: 1 } });
    expect(await paidOrders()).toBe(3);
    expect(await balance()).toBe(200);
  });

  it('buys in-app through cordova-plugin-purchase on its TEST platform, end to end', async () => {
    const { till } = await buyer();
    const plugin = loadCdvPurchase(() => 'Y');
    const messages: StoreMessage[] = [];
    const credited = vi.fn();
    const flow = till.createPurchaseFlow({
      adapter: new CdvPurchaseAdapter(plugin.store),
      products: [{ id: 'till.credits100', alias: 'credits-100', type: ProductType.Consumable, callback: credited }],
      onMessage: (m) => messages.push(m),
    });
    await flow.start();
    expect(flow.products[0]).toMatchObject({ loaded: true, valid: true, canPurchase: true });
    await flow.order(['credits-100']);
    await vi.waitFor(() => expect(messages.map((m) => m.code ?? m.type)).toEqual([799, 801, 800]), { timeout: 30_000 });
    expect(credited).toHaveBeenCalledTimes(1);
    const credits = await till.serviceCall<{ balance: number }>('api/store/credits', {});
    expect(credits.code === 900 && credits.data.balance).toBe(100);
  });

  it('reports an in-app purchase the server does not know as not verified, and leaves it unfinished', async () => {
    const { till } = await buyer();
    const adapter = new FakeStoreAdapter();
    const messages: StoreMessage[] = [];
    const flow = till.createPurchaseFlow({
      adapter,
      products: [{ id: 'till.not_in_catalog', alias: 'ghost', type: ProductType.Consumable }],
      onMessage: (m) => messages.push(m),
    });
    await flow.start();
    await flow.order(['ghost']);
    await vi.waitFor(() => expect(messages.map((m) => m.code ?? m.type)).toEqual([799, 801, 'error']), {
      timeout: 30_000,
    });
    expect(messages[2]?.data).toMatchObject({ message: "We couldn't verify the purchase" });
    expect(adapter.finished).toHaveLength(0);
  });
});
