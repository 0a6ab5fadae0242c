import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { GOOD_PASSWORD, registerUser } from '@till/test-support/users';

describe('transport, headers, documents and logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    t = await startTestApp({ logger: { level: 'trace', stream }, env: { LOG_LEVEL: 'trace' } });
  });
  afterAll(() => t.close());

  it('answers malformed JSON with 400, an unknown route with 404, a huge body with 413, all without internals', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 400, error: 'bad_request' });
    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 404 });
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    for (const res of [bad, missing, huge]) {
      expect(res.body).not.toMatch(/at \w+ \(|node_modules|stack|SELECT/i);
    }
  });

  it('answers a malformed URL escape like any other transport failure, with the security headers', async () => {
    for (const url of ['/api/%E0%A4%A', '/api/files/download/%zz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ code: 400, error: 'bad_request', requestId: expect.any(String) });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('answers a malformed multipart body sent to a JSON service with 907, not a fault', async () => {
    const bodies = [
      // A part whose headers never end.
      '--b\r\nContent-Disposition: form-data; name="email"\r\nX: ' + 'y'.repeat(100) + '\r\n',
      // Cut off in the middle of a field.
      '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nsomeone@exa',
    ];
    for (const payload of bodies) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/files/list',
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        payload,
      });
      expect(res.statusCode, payload).toBe(200);
      expect(res.json(), payload).toEqual({ code: 907, parameter: 'fields', reason: 'invalid' });
    }
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: '/api/files/list',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    expect(noBoundary.json()).toMatchObject({ code: 907 });
  });

  it('sends the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toEqual({ code: 900, status: 'ok', database: 'ok' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['x-frame-options']).toBe('DENY');
    const page = await t.app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('serves the OpenAPI document of every account call and a page to browse it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/login',
      '/api/register',
      '/api/genResetLink',
      '/api/resetPassword/{token}',
      '/api/auth/getUserInfo',
      '/api/auth/updateInfo',
      '/api/auth/logout',
      '/api/auth/sessions',
      '/api/auth/revokeSessions',
      '/api/auth/endSession',
    ]) {
      expect(doc.paths[path]?.post, path).toBeDefined();
    }
    expect(doc.paths['/api/confirmUser/{token}'].get).toBeDefined();
    const register = doc.paths['/api/register'].post.requestBody.content['application/json'].schema;
    expect(register.required).toEqual(expect.arrayContaining(['email', 'password', 'name']));
    expect(register.properties.password).toMatchObject({ minLength: 8, maxLength: 128 });
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('keeps passwords and tokens out of the logs', async () => {
    const u = await registerUser(t);
    await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    await t.call('/api/auth/getUserInfo', { token: u.token });
    const secretToken = 'Zk3x9QvLmN2pR7sT4uW8yB1cD5eF6gH0jK_secret';
    await t.app.inject({ method: 'GET', url: `/api/confirmUser/${secretToken}` });
    await t.app.inject({
      method: 'POST',
      url: `/api/resetPassword/${secretToken}`,
      payload: { password: GOOD_PASSWORD },
    });
    const log = lines.join('');
    expect(log).toContain('/api/confirmUser/[redacted]');
    expect(log).not.toContain(GOOD_PASSWORD);
    expect(log).not.toContain(u.token);
    expect(log).not.toContain(secretToken);
  });

  it('allows the configured origins, with the XSRF header, and no others', async () => {
    const t2 = await startTestApp({ env: { CORS_ORIGINS: 'https://app.till.example' } });
    try {
      const preflight = (origin: string) =>
        t2.app.inject({
          method: 'OPTIONS',
          url: '/api/login',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,x-xsrf-token',
          },
        });
      const ok = await preflight('https://app.till.example');
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.till.example');
      expect(String(ok.headers['access-control-allow-headers']).toLowerCase()).toContain('x-xsrf-token');
      const other = await preflight('https://evil.example');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t2.close();
    }
  });
});
