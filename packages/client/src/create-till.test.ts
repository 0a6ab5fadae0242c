import { describe, expect, it } from 'vitest';
import { ProductType } from '@till/protocol';
import { FakeStoreAdapter } from './adapters/fake-store.js';
import { createTill } from './create-till.js';
import { memoryStorage } from './session-storage.js';
import { fakeHttp } from './test-support/fake-http.js';

describe('createTill', () => {
  it('wires one session and one queue into the account and store clients', async () => {
    const http = fakeHttp((req) => ({ body: { code: 900, data: { url: req.baseURL } } }));
    const till = createTill({ apiHost: 'http://api.test', storeHost: 'http://store.test', adapter: http.adapter });
    expect(till.api.session).toBe(till.session);
    expect(till.store.session).toBe(till.session);
    expect(till.api.queue).toBe(till.queue);
    expect(till.store.queue).toBe(till.queue);

    // Calls to both hosts wait in the one queue and go out after one login.
    const account = till.serviceCall('api/files/list', {});
    const store = till.store.redeemCoupon('FREE100');
    expect(till.queue.size).toBe(2);
    till.session.start({ token: 'tok', expire: 60 });
    await Promise.all([account, store]);
    expect(http.requests.map((r) => [r.baseURL, r.url, r.timeout])).toEqual([
      ['http://api.test/', 'api/files/list', 50_000],
      ['http://store.test/', 'api/store/redeemCoupon', 5_000],
    ]);
  });

  it('gives two apps nothing in common', () => {
    const a = createTill();
    const b = createTill();
    a.session.start({ token: 'a', expire: 60 });
    expect(b.session.token).toBeNull();
    expect(a.api).not.toBe(b.api);
    expect(a.poller).not.toBe(b.poller);
  });

  it('keeps the session in the given storage and takes timeouts and queue bounds', async () => {
    const storage = memoryStorage();
    const http = fakeHttp();
    const till = createTill({
      storage,
      storageKey: 'app.session',
      timeouts: { apiMs: 1_000, storeMs: 500 },
      queue: { maxSize: 1 },
      adapter: http.adapter,
    });
    till.session.start({ token: 'kept', expire: 60 });
    expect(storage.items.has('app.session')).toBe(true);
    await till.api.getUserInfo();
    await till.store.getCheckoutForm();
    expect(http.requests.map((r) => r.timeout)).toEqual([1_000, 500]);
    till.session.clear();
    void till.api.getUserInfo();
    expect(await till.api.sessions()).toMatchObject({ code: 905, reason: 'queue_full' });
    till.queue.clear();
  });

  it('makes purchase flows that verify through its store client', async () => {
    const http = fakeHttp(() => ({ body: { code: 900, data: { result: 1, products: 'pro' } } }));
    const till = createTill({ adapter: http.adapter });
    till.session.start({ token: 'tok', expire: 60 });
    const codes: (number | string)[] = [];
    const flow = till.createPurchaseFlow({
      adapter: new FakeStoreAdapter(),
      products: [{ id: 'pro', alias: 'pro', type: ProductType.NonConsumable }],
      onMessage: (m) => codes.push(m.code ?? m.type),
    });
    await flow.start();
    await flow.order(['pro']);
    await new Promise((r) => setTimeout(r, 0));
    expect(http.requests[0]?.url).toBe('api/store/validatePurchase');
    expect(codes).toEqual([799, 801, 800]);
  });
});
