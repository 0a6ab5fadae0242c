import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeHttp } from './test-support/fake-http.js';

// The wire layer (axios and the body encoding) loads with the first call, so that a browser page
// that makes no call never downloads it. These tests load the clients afresh, to see that load.
afterEach(() => {
  vi.doUnmock('./http.js');
  vi.resetModules();
});

describe('the wire layer', () => {
  it('is loaded by the first call, once, and shared by the clients', async () => {
    const loads = vi.fn();
    vi.doMock('./http.js', async (importOriginal) => {
      loads();
      return importOriginal();
    });
    const { ApiClient } = await import('./api-client.js');
    const { StoreClient } = await import('./store-client.js');
    const http = fakeHttp();
    const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter });
    const store = new StoreClient({ session: api.session, queue: api.queue, adapter: http.adapter });
    expect(loads).not.toHaveBeenCalled();

    await Promise.all([api.genResetLink({ email: 'a@b.test' }), store.getCheckoutForm(['p1'])]);
    expect(loads).toHaveBeenCalledTimes(1);
    expect(http.requests.map((r) => r.url)).toEqual(['api/genResetLink', 'api/store/getCheckoutForm']);
    // One axios instance per client, made once: interceptors set on it see the later calls.
    expect(await api.http()).toBe(await api.http());
    expect(await api.http()).not.toBe(await store.http());
  });

  it('answers 905 (network) when it cannot be loaded, and is loaded again by the next call', async () => {
    vi.doMock('./http.js', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const { ApiClient } = await import('./api-client.js');
    const { NetworkError } = await import('./errors/network-error.js');
    const http = fakeHttp();
    const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter });

    const failed = await api.genResetLink({ email: 'a@b.test' });
    expect(failed).toMatchObject({ code: 905, reason: 'network' });
    if (failed.code !== 905) throw new Error('expected 905');
    expect(failed.error).toBeInstanceOf(NetworkError);
    expect(http.requests).toHaveLength(0);

    vi.doUnmock('./http.js');
    const ok = await api.genResetLink({ email: 'a@b.test' });
    expect(ok).toEqual({ code: 900 });
    expect(http.requests).toHaveLength(1);
  });
});
