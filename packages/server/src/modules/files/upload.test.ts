import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  filesMatrix,
  leftovers,
  MiB,
  postMultipart,
  startFilesApp,
  uploadOne,
  type FileJson,
  type FilesTestApp,
} from '@till/test-support/files';
import { registerUser } from '@till/test-support/users';

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
// The start of a Windows executable: a type that is on no allow list, whatever its name says.
const exe = Buffer.concat([
  Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
  randomBytes(2048),
]);

describe.each(filesMatrix)('uploads on %s with %s storage', (dialect, driver) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(dialect, driver);
  });
  afterAll(() => t.close());

  it('streams several files, sniffs their types and answers them with signed links', async () => {
    const u = await registerUser(t);
    const before = await leftovers(t);
    const image = await png();
    const res = await postMultipart(t, [
      ['token', u.token],
      ['file', image, 'red.png', 'image/png'],
      ['file', 'hello, world\n', 'hello.txt', 'text/plain'],
    ]);
    expect(res.code).toBe(900);
    const files = (res.data as { files: FileJson[] }).files;
    expect(files.map((f) => [f.name, f.size, f.mime, f.public])).toEqual([
      ['red.png', image.length, 'image/png', false],
      ['hello.txt', 13, 'text/plain', false],
    ]);
    expect(files[0]!.url).toMatch(/\/api\/files\/download\/[0-9a-f-]{36}\?expires=\d+&sig=[0-9a-f]{64}$/);
    expect(await leftovers(t)).toEqual({ rows: before.rows + 2, objects: before.objects + 2 });
    const list = await t.call('/api/files/list', { token: u.token });
    expect(list).toMatchObject({ code: 900, data: { total: 2 } });
  });

  it('refuses a file over the size limit and keeps nothing of it', async () => {
    const u = await registerUser(t);
    const before = await leftovers(t);
    const res = await postMultipart(t, [
      ['token', u.token],
      ['file', 'a'.repeat(8 * MiB + 1), 'big.txt'],
    ]);
    expect(res).toEqual({ code: 907, parameter: 'file', reason: 'too_large' });
    expect(await leftovers(t)).toEqual(before);
  });

  it('refuses a body announced larger than any upload may be before reading it, and answers the limits', async () => {
    const limits = await t.call('/api/files/limits', {});
    expect(limits).toMatchObject({ code: 900, data: { maxFileBytes: 8 * MiB, maxFiles: 3, quotaBytes: 12 * MiB } });
    expect((limits.data as { types: string[] }).types).toEqual(
      expect.arrayContaining(['image/png', 'application/pdf']),
    );
    const u = await registerUser(t);
    const before = await leftovers(t);
    const boundary = `till${randomBytes(8).toString('hex')}`;
    const req = httpRequest(`${t.url}/api/files/upload`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(40 * MiB) },
    });
    req.on('error', () => {});
    // Only the start of the 40 MiB is ever sent: the answer must come without the rest.
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${u.token}\r\n`);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n`);
    req.write('z'.repeat(64 * 1024));
    const answer = await new Promise<unknown>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(JSON.parse(text)));
      });
      req.on('error', reject);
    });
    req.destroy();
    expect(answer).toEqual({ code: 907, parameter: 'file', reason: 'too_large' });
    expect(await leftovers(t)).toEqual(before);
  });

  it('refuses too many files in one upload and keeps none of them', async () => {
    const u = await registerUser(t);
    const before = await leftovers(t);
    const parts = Array.from({ length: 4 }, (_, i) => ['file', `file ${i}`, `f${i}.txt`] as [string, string, string]);
    const res = await postMultipart(t, [['token', u.token], ...parts]);
    expect(res).toEqual({ code: 907, parameter: 'file', reason: 'too_many' });
    expect(await leftovers(t)).toEqual(before);
  });

  it('refuses an upload over the quota, also when two uploads race for the last bytes', async () => {
    const u = await registerUser(t);
    await uploadOne(t, u.token, 'a'.repeat(7 * MiB));
    const over = await postMultipart(t, [
      ['token', u.token],
      ['file', 'b'.repeat(6 * MiB), 'b.txt'],
    ]);
    expect(over).toEqual({ code: 907, parameter: 'file', reason: 'quota' });

    // 12 MiB quota, 7 used: each of these fits alone, only one of them fits with the other.
    const v = await registerUser(t);
    await uploadOne(t, v.token, 'a'.repeat(4 * MiB));
    const race = await Promise.all(
      [1, 2].map(() =>
        postMultipart(t, [
          ['token', v.token],
          ['file', 'c'.repeat(5 * MiB), 'c.txt'],
        ]),
      ),
    );
    expect(race.map((r) => r.code).sort()).toEqual([900, 907]);
    const list = await t.call('/api/files/list', { token: v.token });
    expect((list.data as { total: number }).total).toBe(2);
    const usage = await t.ctx.db.kysely
      .selectFrom('file_usage')
      .select('used_bytes')
      .where('user_id', '=', v.userId)
      .executeTakeFirst();
    expect(Number(usage?.used_bytes)).toBe(9 * MiB);
  });

  it('takes the type from the content, not from the name or the declared type', async () => {
    const u = await registerUser(t);
    const before = await leftovers(t);
    const disguised = await postMultipart(t, [
      ['token', u.token],
      ['file', exe, 'holiday.png', 'image/png'],
    ]);
    expect(disguised).toEqual({ code: 907, parameter: 'file', reason: 'type' });
    expect(await leftovers(t)).toEqual(before);

    const html = await uploadOne(t, u.token, '<html><script>alert(1)</script></html>', 'cat.png', []);
    expect(html.mime).toBe('text/plain');
    const image = await uploadOne(t, u.token, await png(), 'notes.txt');
    expect(image.mime).toBe('image/png');
  });

  it('keeps a sanitised display name and never uses it as a storage path', async () => {
    const u = await registerUser(t);
    const cases: [string, string][] = [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\windows\\win.ini', 'win.ini'],
      ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
      ['cafe\u0301 \u0000menu?.txt', 'café menu_.txt'],
      ['...', 'file'],
      ['\u{1F600} emoji.txt', '\u{1F600} emoji.txt'],
    ];
    for (const [raw, shown] of cases) {
      const f = await uploadOne(t, u.token, 'text', raw);
      expect(f.name).toBe(shown);
    }
    const keys = await t.storage.list();
    expect(keys.every((k) => /^(f\/[0-9a-f]{2}\/[0-9a-f-]{36}|avatars\/[\w-]+)$/.test(k))).toBe(true);
  });

  it('asks for the token before the first file, and checks it', async () => {
    const u = await registerUser(t);
    const before = await leftovers(t);
    const late = await postMultipart(t, [
      ['file', 'x', 'x.txt'],
      ['token', u.token],
    ]);
    expect(late).toEqual({ code: 907, parameter: 'token', reason: 'required' });
    expect(
      await postMultipart(t, [
        ['token', 'not-a-session'],
        ['file', 'x', 'x.txt'],
      ]),
    ).toEqual({ code: 901 });
    const v = await registerUser(t);
    const twoOwners = await postMultipart(t, [
      ['token', u.token],
      ['file', 'x', 'x.txt'],
      ['token', v.token],
      ['file', 'y', 'y.txt'],
    ]);
    expect(twoOwners).toEqual({ code: 907, parameter: 'token', reason: 'invalid' });
    expect(await postMultipart(t, [['token', u.token]])).toEqual({ code: 907, parameter: 'file', reason: 'required' });
    expect(await t.call('/api/files/upload', { token: u.token })).toEqual({
      code: 907,
      parameter: 'file',
      reason: 'required',
    });
    expect(await leftovers(t)).toEqual(before);
  });

  it('leaves no row and no object when the client disconnects mid-upload', async () => {
    const u = await registerUser(t);
    const before = await leftovers(t);
    const boundary = `till${randomBytes(8).toString('hex')}`;
    const req = httpRequest(`${t.url}/api/files/upload`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    req.on('error', () => {});
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${u.token}\r\n`);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n`);
    // 6 MiB: past S3's first 5 MiB part, so a multipart upload is under way when the client goes.
    for (let i = 0; i < 6; i++) await new Promise((r) => req.write('z'.repeat(MiB), r));
    if (driver === 'local') {
      const partial = await eventually(
        () => t.storage.list('f/'),
        (keys) => keys.some((k) => k.endsWith('.partial')),
      );
      expect(partial.some((k) => k.endsWith('.partial'))).toBe(true);
    } else {
      const begun = await eventually(
        async () => t.s3!.unfinishedMultipartUploads(),
        (n) => n > 0,
      );
      expect(begun).toBeGreaterThan(0);
    }
    req.destroy();
    const after = await eventually(
      () => leftovers(t),
      (l) => l.objects === before.objects,
    );
    expect(after).toEqual(before);
    // The server is unharmed: the same user uploads right after.
    expect((await uploadOne(t, u.token, 'again')).size).toBe(5);
  });
});
