import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMultipart, startFilesApp, type FilesTestApp } from '@till/test-support/files';
import { dialects } from '@till/test-support/db';
import { registerUser } from '@till/test-support/users';

describe.each(dialects)('the generic service route on %s', (dialect) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(dialect, 'local');
  });
  afterAll(() => t.close());

  it('answers 904 servicePath for an unknown service, JSON or multipart', async () => {
    expect(await t.call('/api/nothing/here', { token: 'x' })).toEqual({ code: 904, parameter: 'servicePath' });
    expect(
      await postMultipart(
        t,
        [
          ['token', 'x'],
          ['file', 'x', 'x.txt'],
        ],
        '/no/such/service',
      ),
    ).toEqual({
      code: 904,
      parameter: 'servicePath',
    });
  });

  it('runs a JSON service with its fields sent as multipart, token included', async () => {
    const u = await registerUser(t);
    expect(
      await postMultipart(
        t,
        [
          ['token', u.token],
          ['pageSize', '5'],
        ],
        '/api/files/list',
      ),
    ).toEqual({
      code: 900,
      data: { files: [], total: 0 },
    });
    expect(await postMultipart(t, [['token', 'wrong']], '/api/files/list')).toEqual({ code: 901 });
    expect(
      await postMultipart(
        t,
        [
          ['token', u.token],
          ['file', 'x', 'x.txt'],
        ],
        '/api/files/list',
      ),
    ).toEqual({
      code: 907,
      parameter: 'file',
      reason: 'invalid',
    });
  });

  it('leaves the explicit JSON calls as they were', async () => {
    const u = await registerUser(t);
    expect(await t.call('/api/auth/getUserInfo', { token: u.token })).toMatchObject({ code: 900 });
    const res = await fetch(`${t.url}/api/auth/getUserInfo`, { method: 'POST', body: new FormData() });
    expect(res.status).toBe(415);
  });

  it('describes the file services in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${t.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/files/upload',
        '/api/files/list',
        '/api/files/delete',
        '/api/files/download/{id}',
        '/api/files/avatar/{id}',
      ]),
    );
    expect(JSON.stringify(doc.paths['/api/files/upload'])).toContain('multipart/form-data');
  });
});
