import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesMatrix, postMultipart, startFilesApp, uploadOne, type FilesTestApp } from '@till/test-support/files';
import { adminUser, registerUser } from '@till/test-support/users';

const content = 'abcdefghijklmnopqrstuvwxyz0123456789';

describe.each(filesMatrix)('downloads, lists and deletes on %s with %s storage', (dialect, driver) => {
  let t: FilesTestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await startFilesApp(dialect, driver, { now: () => clock });
  });
  afterAll(() => t.close());

  it('serves the file at its url with its type, name and validators', async () => {
    const u = await registerUser(t);
    const f = await uploadOne(t, u.token, content, 'caf\u00e9 "menu".txt');
    const res = await fetch(t.url + f.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="cafe _menu_.txt"; filename*=UTF-8''caf%C3%A9%20_menu_.txt`,
    );
    expect(res.headers.get('content-length')).toBe(String(content.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('cache-control')).toMatch(/^private/);
    expect(await res.text()).toBe(content);
    const head = await fetch(t.url + f.url, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      String(content.length),
      '',
    ]);
    const again = await fetch(t.url + f.url, { headers: { 'if-none-match': `"${f.id}"` } });
    expect(again.status).toBe(304);
  });

  it('answers byte ranges, suffix ranges and unsatisfiable ranges', async () => {
    const u = await registerUser(t);
    const f = await uploadOne(t, u.token, content);
    const part = await fetch(t.url + f.url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${content.length}`);
    expect(await part.text()).toBe(content.slice(10, 20));
    const tail = await fetch(t.url + f.url, { headers: { range: 'bytes=-6' } });
    expect([tail.status, await tail.text()]).toEqual([206, '456789']);
    const open = await fetch(t.url + f.url, { headers: { range: 'bytes=30-' } });
    expect([open.status, await open.text()]).toEqual([206, '456789']);
    const beyond = await fetch(t.url + f.url, { headers: { range: 'bytes=500-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${content.length}`);
    // A range for another version of the file is ignored: the whole file comes back.
    const stale = await fetch(t.url + f.url, { headers: { range: 'bytes=0-1', 'if-range': '"other"' } });
    expect([stale.status, (await stale.text()).length]).toEqual([200, content.length]);
  });

  it('refuses a changed, unsigned or expired link to a private file', async () => {
    const u = await registerUser(t);
    const f = await uploadOne(t, u.token, content);
    const url = new URL(f.url, t.url);
    const unsigned = await fetch(`${url.origin}${url.pathname}`);
    expect([unsigned.status, await unsigned.json()]).toEqual([403, expect.objectContaining({ error: 'forbidden' })]);
    const sig = url.searchParams.get('sig')!;
    url.searchParams.set('sig', `${sig[0] === '0' ? '1' : '0'}${sig.slice(1)}`);
    expect((await fetch(url)).status).toBe(403);
    const later = new URL(f.url, t.url);
    later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 3600));
    expect((await fetch(later)).status).toBe(403);
    clock += 2 * 3600 * 1000;
    try {
      const expired = await fetch(t.url + f.url);
      expect([expired.status, await expired.json()]).toEqual([403, expect.objectContaining({ error: 'link_expired' })]);
    } finally {
      clock = Date.now();
    }
  });

  it('gives a public file a lasting link that works without signature', async () => {
    const u = await registerUser(t);
    const f = await uploadOne(t, u.token, content, 'shared.txt', [['public', 'true']]);
    expect(f.public).toBe(true);
    expect(f.url).not.toContain('sig=');
    const res = await fetch(t.url + f.url);
    expect([res.status, res.headers.get('cache-control'), await res.text()]).toEqual([
      200,
      'public, max-age=86400',
      content,
    ]);
    expect(
      await postMultipart(t, [
        ['token', u.token],
        ['public', 'maybe'],
        ['file', 'x', 'x.txt'],
      ]),
    ).toEqual({
      code: 907,
      parameter: 'public',
      reason: 'invalid',
    });
  });

  it("keeps another user's files out of reach; administrators may list them", async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    const f = await uploadOne(t, owner.token, content);
    expect(await t.call('/api/files/list', { token: other.token })).toEqual({
      code: 900,
      data: { files: [], total: 0 },
    });
    expect(await t.call('/api/files/delete', { token: other.token, id: f.id })).toEqual({ code: 904, parameter: 'id' });
    expect(await t.call('/api/files/list', { token: other.token, userId: owner.userId })).toEqual({
      code: 903,
      required: 9,
    });
    const admin = await adminUser(t);
    const seen = await t.call('/api/files/list', { token: admin.token, userId: owner.userId });
    const files = (seen.data as { files: { id: string; url: string }[] }).files;
    expect(files.map((x) => x.id)).toEqual([f.id]);
    expect((await fetch(t.url + files[0]!.url)).status).toBe(200);
  });

  it('lists a page at a time, newest first', async () => {
    const u = await registerUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock += 1000;
      ids.push((await uploadOne(t, u.token, `file ${i}`, `f${i}.txt`)).id);
    }
    clock = Date.now();
    const page2 = await t.call('/api/files/list', { token: u.token, page: 2, pageSize: 2 });
    const data = page2.data as { files: { id: string }[]; total: number };
    expect(data.total).toBe(5);
    expect(data.files.map((x) => x.id)).toEqual([ids[2], ids[1]]);
    expect(await t.call('/api/files/list', { token: u.token, pageSize: 1000 })).toMatchObject({
      code: 907,
      parameter: 'pageSize',
    });
  });

  it('deletes the row and the object and gives the bytes back to the quota', async () => {
    const u = await registerUser(t);
    const f = await uploadOne(t, u.token, 'a'.repeat(7 * 1024 * 1024));
    expect(
      await postMultipart(t, [
        ['token', u.token],
        ['file', 'b'.repeat(6 * 1024 * 1024), 'b.txt'],
      ]),
    ).toMatchObject({
      reason: 'quota',
    });
    const keysBefore = await t.storage.list('f/');
    expect(await t.call('/api/files/delete', { token: u.token, id: f.id })).toEqual({ code: 900, data: {} });
    expect(await t.storage.list('f/')).toHaveLength(keysBefore.length - 1);
    expect((await fetch(t.url + f.url)).status).toBe(404);
    expect(await t.call('/api/files/delete', { token: u.token, id: f.id })).toEqual({ code: 904, parameter: 'id' });
    expect((await uploadOne(t, u.token, 'b'.repeat(6 * 1024 * 1024))).size).toBe(6 * 1024 * 1024);
  });
});
