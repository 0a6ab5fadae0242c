import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from './api-client.js';
import { StoreClient } from './store-client.js';
import { fakeHttp, fakeUser } from './test-support/fake-http.js';

const login = { code: 900, token: 'tok-1', expire: 3600, user: fakeUser({ level: 9 }) };

describe('the level kept with the session', () => {
  it('is asked for again after a 903, so a level taken away shows at once (asks racing share one call)', async () => {
    let serverLevel = 9;
    const http = fakeHttp((req) => {
      if (req.url === 'api/login') return { body: login };
      if (req.url === 'api/auth/getUserInfo') return { body: { code: 900, user: fakeUser({ level: serverLevel }) } };
      return { body: serverLevel >= 9 ? { code: 900, data: {} } : { code: 903, required: 9 } };
    });
    const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter });
    const store = new StoreClient({ session: api.session, queue: api.queue, adapter: http.adapter });
    await api.login({ email: 'a@b.test', password: 'a long passphrase' });
    expect(api.session.level).toBe(9);
    serverLevel = 2;
    const levels: number[] = [];
    api.session.subscribe((e) => levels.push(e.state?.level ?? 0));
    // Two refused calls at once, one through each client: the user is asked for once.
    await Promise.all([api.serviceCall('api/admin/coupons/list', {}), store.getCoupon('X')]);
    // Nobody asks: the 903 itself makes the SDK ask for the user again.
    await vi.waitFor(() => expect(api.session.level).toBe(2), { timeout: 20_000 });
    expect(levels).toContain(2);
    expect(http.requests.filter((r) => r.url === 'api/auth/getUserInfo')).toHaveLength(1);
  });

  it('is raised by refreshUser once the server gives more, without a new sign-in', async () => {
    let serverLevel = 2;
    const http = fakeHttp((req) =>
      req.url === 'api/auth/getUserInfo'
        ? { body: { code: 900, user: fakeUser({ level: serverLevel }) } }
        : { body: { ...login, user: fakeUser({ level: 2 }) } },
    );
    const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter });
    await api.login({ email: 'a@b.test', password: 'a long passphrase' });
    expect(api.session.level).toBe(2);
    serverLevel = 9;
    await api.session.refreshUser();
    expect(api.session.level).toBe(9);
    expect(api.session.token).toBe('tok-1');
  });

  it("sends the app's language with every call when it has one", async () => {
    let lang: string | undefined = 'de';
    const http = fakeHttp(() => ({ body: { code: 900 } }));
    const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter, language: () => lang });
    await api.genResetLink({ email: 'a@b.test' });
    lang = undefined;
    await api.genResetLink({ email: 'a@b.test' });
    expect(http.requests.map((r) => r.headers.get('Accept-Language') ?? null)).toEqual(['de', null]);
  });
});
