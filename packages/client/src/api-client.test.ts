import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from './api-client.js';
import { Session } from './session.js';
import { memoryStorage } from './session-storage.js';
import { BodyError } from './errors/body-error.js';
import { HttpError } from './errors/http-error.js';
import { NetworkError } from './errors/network-error.js';
import { TimeoutError } from './errors/timeout-error.js';
import { deferred, fakeHttp, fakeUser, type FakeReply } from './test-support/fake-http.js';

const authOk = { code: 900, token: 'tok-1', expire: 3600, user: fakeUser({ level: 2 }) };

function client(handler?: Parameters<typeof fakeHttp>[0], apiHost = 'http://api.test') {
  const http = fakeHttp(handler);
  const api = new ApiClient({ apiHost, adapter: http.adapter });
  return { api, requests: http.requests };
}

describe('ApiClient transport', () => {
  it('uses the protocol HTTP defaults: 50 s timeout, JSON Accept, XSRF names, 2xx success', async () => {
    const { api, requests } = client();
    await api.genResetLink({ email: 'a@b.test' });
    const [req] = requests;
    expect(req?.timeout).toBe(50_000);
    expect(req?.headers.get('Accept')).toBe('application/json');
    expect(req?.config.xsrfCookieName).toBe('XSRF-TOKEN');
    expect(req?.config.xsrfHeaderName).toBe('X-XSRF-TOKEN');
    const valid = req?.config.validateStatus;
    expect([199, 200, 299, 300, 404].map((s) => valid?.(s))).toEqual([false, true, true, false, false]);
  });

  it("makes the server's relative addresses absolute against the API host, and leaves others as they are", () => {
    const { api } = client(undefined, 'https://api.example.com/');
    expect(api.serverUrl('/api/files/download/img42')).toBe('https://api.example.com/api/files/download/img42');
    expect(api.serverUrl('/api/files/avatar/abc')).toBe('https://api.example.com/api/files/avatar/abc');
    expect(api.serverUrl('https://cdn.example.com/tea.png')).toBe('https://cdn.example.com/tea.png');
    expect(api.serverUrl('//cdn.example.com/tea.png')).toBe('//cdn.example.com/tea.png');
    expect(api.serverUrl(null)).toBeUndefined();
    // Served from the app's own origin: relative addresses already reach the server.
    expect(new ApiClient().serverUrl('/api/files/download/img42')).toBe('/api/files/download/img42');
  });

  it('calls paths at the root of the host, and of the page origin when no host is given', async () => {
    const withHost = client(undefined, 'http://api.test/');
    await withHost.api.genResetLink({ email: 'a@b.test' });
    expect(withHost.requests[0]?.baseURL).toBe('http://api.test/');
    expect(withHost.requests[0]?.url).toBe('api/genResetLink');

    const http = fakeHttp();
    const sameOrigin = new ApiClient({ adapter: http.adapter });
    await sameOrigin.genResetLink({ email: 'a@b.test' });
    // '/' + 'api/...' stays at the origin's root whatever page the app shows.
    expect(http.requests[0]?.baseURL).toBe('/');
  });

  it.each<[string, FakeReply, string, unknown]>([
    ['a non-2xx status', { status: 500, body: { code: 500, error: 'internal_error' } }, 'status', HttpError],
    ['an unparsable body', { body: '<html>proxy error</html>' }, 'body', BodyError],
    ['a body without a numeric code', { body: { ok: true } }, 'body', BodyError],
    ['a refused connection', { fail: 'network' }, 'network', NetworkError],
    ['a timeout', { fail: 'timeout' }, 'timeout', TimeoutError],
  ])('answers 905 for %s, keeping the cause, without throwing', async (_name, reply, reason, errorClass) => {
    const { api } = client(() => reply);
    const res = await api.login({ email: 'a@b.test', password: 'x' });
    expect(res).toMatchObject({ code: 905, reason });
    if (res.code !== 905) throw new Error('expected 905');
    expect(res.error).toBeInstanceOf(errorClass as typeof Error);
    expect(res.error.request).toEqual({ method: 'POST', url: 'api/login' });
    expect(api.session.isValid()).toBe(false);
  });

  it('passes protocol error bodies through as they are', async () => {
    const { api } = client(() => ({ body: { code: 907, parameter: 'password', reason: 'weak' } }));
    const res = await api.register({ email: 'a@b.test', password: 'password1', name: 'A', lang: 'en' });
    expect(res).toEqual({ code: 907, parameter: 'password', reason: 'weak' });
  });
});

describe('ApiClient account calls', () => {
  it('logs in and starts the session from the answer', async () => {
    const { api, requests } = client(() => ({ body: authOk }));
    const res = await api.login({ email: 'ada@example.test', password: 'a long passphrase' });
    expect(res.code).toBe(900);
    expect(requests[0]?.body).toEqual({ email: 'ada@example.test', password: 'a long passphrase' });
    expect(api.session.token).toBe('tok-1');
    expect(api.session.level).toBe(2);
  });

  it('sends every account call to its path with its payload and the token', async () => {
    const { api, requests } = client((req) =>
      req.url === 'api/login' || req.url === 'api/register'
        ? { body: authOk }
        : { body: { code: 900, user: fakeUser({ name: 'New' }) } },
    );
    await api.login({ email: 'ada@example.test', password: 'pw' });
    await api.register({ email: 'b@example.test', password: 'a long passphrase', name: 'B', lang: 'de' });
    await api.genResetLink({ email: 'ada@example.test', lang: 'en' });
    await api.resetPassword('reset/tok', { password: 'a new passphrase', lang: 'en' });
    await api.confirmUser('confirm-tok');
    await api.getUserInfo();
    await api.updateInfo({ name: 'New' });
    await api.sessions();
    await api.revokeSessions();
    await api.logout();
    const seen = requests.map((r) => [r.method, r.url, r.body]);
    expect(seen).toEqual([
      ['POST', 'api/login', { email: 'ada@example.test', password: 'pw' }],
      ['POST', 'api/register', { email: 'b@example.test', password: 'a long passphrase', name: 'B', lang: 'de' }],
      // Public calls never carry the token, even while logged in.
      ['POST', 'api/genResetLink', { email: 'ada@example.test', lang: 'en' }],
      ['POST', 'api/resetPassword/reset%2Ftok', { password: 'a new passphrase', lang: 'en' }],
      ['GET', 'api/confirmUser/confirm-tok', {}],
      ['POST', 'api/auth/getUserInfo', { token: 'tok-1' }],
      ['POST', 'api/auth/updateInfo', { token: 'tok-1', name: 'New' }],
      ['POST', 'api/auth/sessions', { token: 'tok-1' }],
      ['POST', 'api/auth/revokeSessions', { token: 'tok-1' }],
      ['POST', 'api/auth/logout', { token: 'tok-1' }],
    ]);
    expect(api.session.isValid()).toBe(false);
  });

  it('ends one session by its id, and forgets this one only when it was this one', async () => {
    let current = false;
    const { api, requests } = client((req) =>
      req.url === 'api/login' ? { body: authOk } : { body: { code: 900, data: { ended: true, current } } },
    );
    await api.login({ email: 'ada@example.test', password: 'pw' });
    await api.endSession('other-session');
    expect(requests[1]?.url).toBe('api/auth/endSession');
    expect(requests[1]?.body).toEqual({ token: 'tok-1', id: 'other-session' });
    expect(api.session.isValid()).toBe(true);
    current = true;
    await api.endSession('this-session');
    expect(api.session.isValid()).toBe(false);
  });

  it('keeps the user from getUserInfo and updateInfo in the session', async () => {
    const { api } = client((req) =>
      req.url === 'api/login' ? { body: authOk } : { body: { code: 900, user: fakeUser({ level: 9, name: 'Boss' }) } },
    );
    await api.login({ email: 'a@b.test', password: 'pw' });
    await api.getUserInfo();
    expect(api.session.level).toBe(9);
    expect(api.session.user?.name).toBe('Boss');
  });

  it('clears the session on 901 and tells its listeners', async () => {
    const { api } = client((req) => (req.url === 'api/login' ? { body: authOk } : { body: { code: 901 } }));
    await api.login({ email: 'a@b.test', password: 'pw' });
    const listener = vi.fn();
    api.session.subscribe(listener);
    const res = await api.getUserInfo();
    expect(res).toEqual({ code: 901 });
    expect(api.session.level).toBe(0);
    expect(listener).toHaveBeenCalledWith({ type: 'end', reason: 'invalid', state: null });
  });

  it('does not let a late 901 for an old token end a newer session', async () => {
    const late = deferred<FakeReply>();
    let logins = 0;
    const { api } = client((req) => {
      if (req.url === 'api/login') return { body: { ...authOk, token: `tok-${++logins}` } };
      return late.promise;
    });
    await api.login({ email: 'a@b.test', password: 'pw' });
    const stale = api.getUserInfo();
    await api.login({ email: 'a@b.test', password: 'pw' });
    late.resolve({ body: { code: 901 } });
    expect(await stale).toEqual({ code: 901 });
    expect(api.session.token).toBe('tok-2');
  });

  it('parks token calls made while logged out and replays them after login with [TOKEN] replaced', async () => {
    const { api, requests } = client((req) =>
      req.url === 'api/login' ? { body: authOk } : { body: { code: 900, data: { echo: req.body } } },
    );
    const json = api.serviceCall('api/echo', { meta: { owner: '[TOKEN]', list: ['x', '[TOKEN]'] } });
    const multipart = api.serviceCall('api/echo', { note: 'by [TOKEN]' }, { onUploadProgress: () => {} });
    const info = api.getUserInfo();
    expect(requests).toHaveLength(0);
    expect(api.queue.size).toBe(3);

    await api.login({ email: 'a@b.test', password: 'pw' });
    await Promise.all([json, multipart, info]);
    expect(requests.map((r) => r.url)).toEqual(['api/login', 'api/echo', 'api/echo', 'api/auth/getUserInfo']);
    expect(requests[1]?.body).toEqual({ token: 'tok-1', meta: { owner: 'tok-1', list: ['x', 'tok-1'] } });
    expect(requests[2]?.form?.get('token')).toBe('tok-1');
    expect(requests[2]?.form?.get('note')).toBe('by tok-1');
    expect(requests[3]?.body).toEqual({ token: 'tok-1' });
  });

  it('does not replay after a login that fails', async () => {
    const { api, requests } = client(() => ({ body: { code: 902 } }));
    void api.getUserInfo();
    await api.login({ email: 'a@b.test', password: 'wrong' });
    expect(requests.map((r) => r.url)).toEqual(['api/login']);
    expect(api.queue.size).toBe(1);
    api.queue.clear();
  });

  it('answers 905 for a 900 login that carries no session, and stays logged out', async () => {
    const { api } = client(() => ({ body: { code: 900 } }));
    const res = await api.login({ email: 'a@b.test', password: 'pw' });
    expect(res).toMatchObject({ code: 905, reason: 'body' });
    expect(api.session.isValid()).toBe(false);
  });

  it('answers logout at once when there is no session', async () => {
    const { api, requests } = client();
    expect(await api.logout()).toEqual({ code: 900 });
    expect(requests).toHaveLength(0);
  });
});

describe('ApiClient second factor', () => {
  it('leaves the session closed on 913 and starts it from the second step', async () => {
    const { api, requests } = client((req) =>
      req.url === 'api/login'
        ? { body: { code: 913, challenge: 'challenge-0123456789abcdef', expire: 300 } }
        : { body: authOk },
    );
    const first = await api.login({ email: 'a@b.test', password: 'a long passphrase' });
    expect(first).toEqual({ code: 913, challenge: 'challenge-0123456789abcdef', expire: 300 });
    expect(api.session.isValid()).toBe(false);
    const second = await api.loginSecondFactor({ challenge: 'challenge-0123456789abcdef', code: '123456' });
    expect(second.code).toBe(900);
    expect(api.session.token).toBe('tok-1');
    expect(requests[1]?.url).toBe('api/login/secondFactor');
  });

  it('answers 905 for a second step that says 900 without a session', async () => {
    const { api } = client(() => ({ body: { code: 900 } }));
    const res = await api.loginSecondFactor({ challenge: 'challenge-0123456789abcdef', code: '123456' });
    expect(res.code).toBe(905);
    expect(api.session.isValid()).toBe(false);
  });
});

describe('ApiClient device tokens', () => {
  const withStorage = (storage: ReturnType<typeof memoryStorage>, handler: Parameters<typeof fakeHttp>[0]) => {
    const http = fakeHttp(handler);
    const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter, session: new Session({ storage }) });
    return { api, requests: http.requests };
  };

  it("keeps the device token a login answers, past a logout and a reload, and sends it with that account's logins", async () => {
    const storage = memoryStorage();
    const first = withStorage(storage, () => ({ body: { ...authOk, deviceToken: 'device-of-ada' } }));
    await first.api.login({ email: 'Ada@Example.test', password: 'a long passphrase' });
    expect(first.requests[0]?.body).toEqual({ email: 'Ada@Example.test', password: 'a long passphrase' });
    first.api.session.clear('logout');

    const reloaded = withStorage(storage, () => ({ body: { ...authOk, deviceToken: 'device-of-ada' } }));
    await reloaded.api.login({ email: 'ada@example.test', password: 'a long passphrase' });
    expect(reloaded.requests[0]?.body).toMatchObject({ deviceToken: 'device-of-ada' });
    // Another account on this device has no token yet.
    await reloaded.api.login({ email: 'bob@example.test', password: 'a long passphrase' });
    expect(reloaded.requests[1]?.body).not.toHaveProperty('deviceToken');
  });

  it('sends and keeps the device token through the second step of a login', async () => {
    const storage = memoryStorage();
    storage.setItem('till.session.devices', JSON.stringify({ 'ada@example.test': 'old-device' }));
    const { api, requests } = withStorage(storage, (req) =>
      req.url === 'api/login'
        ? { body: { code: 913, challenge: 'challenge-0123456789abcdef', expire: 300 } }
        : { body: { ...authOk, deviceToken: 'new-device' } },
    );
    await api.login({ email: 'ada@example.test', password: 'a long passphrase' });
    await api.loginSecondFactor({ challenge: 'challenge-0123456789abcdef', code: '123456' });
    expect(requests[0]?.body).toMatchObject({ deviceToken: 'old-device' });
    expect(requests[1]?.body).toMatchObject({ deviceToken: 'old-device', code: '123456' });
    expect(await api.session.deviceToken('ada@example.test')).toBe('new-device');
    expect(JSON.parse(storage.items.get('till.session.devices') ?? '{}')).toEqual({ 'ada@example.test': 'new-device' });
  });
});

describe('ApiClient step-up', () => {
  it('asks for the password on 914, proves it, and sends the call again; a refused proof asks again', async () => {
    const asked: unknown[] = [];
    const proofs = [{ password: 'wrong one' }, { password: 'a long passphrase', code: '123456' }];
    let proven = false;
    const http = fakeHttp((req) => {
      if (req.url === 'api/login') return { body: authOk };
      if (req.url === 'api/auth/stepUp') {
        proven = req.body.password === 'a long passphrase' && req.body.code === '123456';
        return { body: proven ? { code: 900, data: { validFor: 300 } } : { code: 902 } };
      }
      return { body: proven ? { code: 900, data: {} } : { code: 914, within: 300 } };
    });
    const api = new ApiClient({
      apiHost: 'http://api.test',
      adapter: http.adapter,
      stepUp: async (refused) => {
        asked.push(refused);
        return proofs.shift() ?? null;
      },
    });
    await api.login({ email: 'a@b.test', password: 'a long passphrase' });
    const res = await api.passkeys.remove('pk-1');
    expect(res).toEqual({ code: 900, data: {} });
    expect(asked).toEqual([undefined, { code: 902 }]);
    expect(http.requests.map((r) => r.url)).toEqual([
      'api/login',
      'api/auth/passkeys/remove',
      'api/auth/stepUp',
      'api/auth/stepUp',
      'api/auth/passkeys/remove',
    ]);
    expect(http.requests[3]?.body).toMatchObject({ token: 'tok-1', password: 'a long passphrase', code: '123456' });
  });

  it('answers the 914 when the user gives up', async () => {
    const http = fakeHttp((req) => ({ body: req.url === 'api/login' ? authOk : { code: 914, within: 300 } }));
    const api = new ApiClient({ apiHost: 'http://api.test', adapter: http.adapter, stepUp: async () => null });
    await api.login({ email: 'a@b.test', password: 'a long passphrase' });
    expect(await api.passkeys.remove('pk-1')).toEqual({ code: 914, within: 300 });
    expect(http.requests.map((r) => r.url)).toEqual(['api/login', 'api/auth/passkeys/remove']);
  });
});
