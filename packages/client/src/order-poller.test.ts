import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OrderPoller } from './order-poller.js';
import { StoreClient } from './store-client.js';
import { fakeHttp, type FakeReply, type SeenRequest } from './test-support/fake-http.js';

async function setup(handler: (req: SeenRequest) => FakeReply | Promise<FakeReply>) {
  const http = fakeHttp(handler);
  const store = new StoreClient({ storeHost: 'http://store.test', adapter: http.adapter });
  // The HTTP layer loads with the first call; loaded here, the polls' timing is the timers' alone.
  await store.http();
  store.session.start({ token: 'tok', expire: 86_400 });
  return { store, poller: new OrderPoller({ store }), requests: http.requests };
}

const status = (s: string) => ({ body: { code: 900, data: { status: s, order: { iden: 'o1', status: s } } } });

describe('OrderPoller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls every 2 000 ms with iden and token, and clears the entry once the order is final', async () => {
    const answers = ['pending', 'pending', 'paid'];
    const { poller, requests } = await setup(() => status(answers.shift() ?? 'paid'));
    const seen: string[] = [];
    poller.add({ iden: 'o1', callback: (r) => seen.push(r.code === 900 ? r.data.status : String(r.code)) });
    expect(poller.running).toBe(true);

    await vi.advanceTimersByTimeAsync(1_999);
    expect(requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe('api/store/orderStatus');
    expect(requests[0]?.body).toEqual({ token: 'tok', iden: 'o1' });

    await vi.advanceTimersByTimeAsync(4_000);
    expect(seen).toEqual(['pending', 'pending', 'paid']);
    expect(poller.size).toBe(0);
    // The timer stopped itself with the last entry.
    expect(poller.running).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(requests).toHaveLength(3);
  });

  it('uses one timer for every entry, each at its own url', async () => {
    const { poller, requests } = await setup(() => status('pending'));
    // The session's expiry timer is already there.
    const before = vi.getTimerCount();
    poller.add({ iden: 'a', callback: () => {} });
    poller.add({ iden: 'b', url: 'custom/orderStatus', callback: () => {} });
    expect(vi.getTimerCount()).toBe(before + 1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(requests.map((r) => [r.url, r.body.iden])).toEqual([
      ['api/store/orderStatus', 'a'],
      ['custom/orderStatus', 'b'],
    ]);
    poller.stop();
    expect(vi.getTimerCount()).toBe(before);
  });

  it('survives a failed poll and a throwing callback, and keeps polling', async () => {
    const replies: FakeReply[] = [{ fail: 'network' }, { status: 502, body: 'bad gateway' }, status('paid')];
    const { poller } = await setup(() => replies.shift() ?? status('paid'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const codes: number[] = [];
    poller.add({
      iden: 'o1',
      callback: (r) => {
        codes.push(r.code);
        throw new Error('app bug');
      },
    });
    await vi.advanceTimersByTimeAsync(6_000);
    expect(codes).toEqual([905, 905, 900]);
    expect(poller.size).toBe(0);
    expect(error).toHaveBeenCalledTimes(3);
    error.mockRestore();
  });

  it('does not stack calls for an order whose last poll is still under way', async () => {
    const { poller, requests } = await setup(
      () => new Promise<FakeReply>((resolve) => setTimeout(() => resolve(status('pending')), 4_500)),
    );
    poller.add({ iden: 'o1', callback: () => {} });
    await vi.advanceTimersByTimeAsync(6_000);
    // Rounds at 2 s and 4 s: the second finds the first still waiting and skips.
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(requests).toHaveLength(2);
    poller.stop();
  });

  it('waits without calling while logged out, and goes on after login', async () => {
    const { poller, store, requests } = await setup(() => status('pending'));
    store.session.clear();
    poller.add({ iden: 'o1', callback: () => {} });
    await vi.advanceTimersByTimeAsync(6_000);
    expect(requests).toHaveLength(0);
    expect(store.queue.size).toBe(0);
    store.session.start({ token: 'again', expire: 3600 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(requests[0]?.body).toEqual({ token: 'again', iden: 'o1' });
    poller.stop();
  });

  it('drops an order the server does not know (904)', async () => {
    const { poller } = await setup(() => ({ body: { code: 904, parameter: 'iden' } }));
    const callback = vi.fn();
    poller.add({ iden: 'nope', callback });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(callback).toHaveBeenCalledWith({ code: 904, parameter: 'iden' });
    expect(poller.running).toBe(false);
  });

  it('stops watching an order on remove, and answers a stop function from add', async () => {
    const { poller, requests } = await setup(() => status('pending'));
    const stop = poller.add({ iden: 'a', callback: () => {} });
    poller.add({ iden: 'b', callback: () => {} });
    stop();
    poller.remove('b');
    expect(poller.running).toBe(false);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(requests).toHaveLength(0);
  });
});
