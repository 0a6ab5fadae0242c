import { describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import { deferred, fakeHttp, type FakeReply } from './test-support/fake-http.js';

async function loggedIn(handler: Parameters<typeof fakeHttp>[0]) {
  const http = fakeHttp(handler);
  const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter });
  api.session.start({ token: 'tok', expire: 3600 });
  return { api, requests: http.requests };
}

describe('serviceCall', () => {
  it('posts the fields plus the token as JSON to /{path}', async () => {
    const { api, requests } = await loggedIn(() => ({ body: { code: 900, data: { files: [], total: 0 } } }));
    const res = await api.serviceCall<{ total: number }>('/api/files/list', { page: 2 });
    expect(res).toEqual({ code: 900, data: { files: [], total: 0 } });
    expect(requests[0]?.url).toBe('api/files/list');
    expect(requests[0]?.form).toBeUndefined();
    expect(requests[0]?.body).toEqual({ token: 'tok', page: 2 });
  });

  it('goes multipart with files and with a progress callback', async () => {
    const { api, requests } = await loggedIn(() => ({ body: { code: 900, data: {} } }));
    await api.serviceCall('api/files/upload', { public: 'true' }, { files: [new File(['hello'], 'hi.txt')] });
    await api.serviceCall('api/files/upload', { note: 'x' }, { onUploadProgress: () => {} });
    expect(requests[0]?.form?.get('token')).toBe('tok');
    expect((requests[0]?.form?.get('files') as File).name).toBe('hi.txt');
    expect(requests[1]?.form?.get('note')).toBe('x');
    expect(requests[1]?.config.onUploadProgress).toBeTypeOf('function');
  });

  it('runs sync calls one at a time in call order, whatever their speed', async () => {
    const gates = [deferred<FakeReply>(), deferred<FakeReply>(), deferred<FakeReply>()];
    let i = 0;
    const { api, requests } = await loggedIn(() => gates[i++]!.promise);
    const order: number[] = [];
    const calls = [1, 2, 3].map((n) => api.serviceCall('api/step', { n }, { sync: true }).then(() => order.push(n)));
    await new Promise((r) => setTimeout(r, 10));
    expect(requests.map((r) => r.body.n)).toEqual([1]);
    gates[0]!.resolve({ status: 500, body: { code: 500 } });
    await new Promise((r) => setTimeout(r, 10));
    // A failed sync call does not break the chain.
    expect(requests.map((r) => r.body.n)).toEqual([1, 2]);
    gates[1]!.resolve({ body: { code: 900, data: {} } });
    gates[2]!.resolve({ body: { code: 900, data: {} } });
    await Promise.all(calls);
    expect(requests.map((r) => r.body.n)).toEqual([1, 2, 3]);
    expect(order).toEqual([1, 2, 3]);
  });

  it('lets calls without sync run side by side', async () => {
    const gate = deferred<FakeReply>();
    const { api, requests } = await loggedIn(() => gate.promise);
    const a = api.serviceCall('api/a', {});
    const b = api.serviceCall('api/b', {});
    await new Promise((r) => setTimeout(r, 10));
    expect(requests).toHaveLength(2);
    gate.resolve({ body: { code: 900, data: {} } });
    await Promise.all([a, b]);
  });

  it('sends a public service call without a token while logged out', async () => {
    const http = fakeHttp(() => ({ body: { code: 900, data: {} } }));
    const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter });
    await api.serviceCall('api/public', { q: 1 }, { token: 'none' });
    await api.serviceCall('api/maybe', { q: 2 }, { token: 'optional' });
    expect(http.requests.map((r) => r.body)).toEqual([{ q: 1 }, { q: 2 }]);
  });
});
