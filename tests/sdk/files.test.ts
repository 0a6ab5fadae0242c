import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTill, type Till } from '@till/client';
import type { FileInfo } from '@till/protocol';
import { patientTimeouts } from '@till/test-support/app';
import { startFilesApp, type FilesTestApp } from '@till/test-support/files';
import { registerUser } from '@till/test-support/users';

describe('SDK uploads against the files service', () => {
  let t: FilesTestApp;
  let till: Till;
  beforeAll(async () => {
    t = await startFilesApp('sqlite', 'local');
    const user = await registerUser(t);
    till = createTill({ apiHost: t.url, timeouts: patientTimeouts });
    till.session.start({ token: user.token, expire: 3600 });
  });
  afterAll(() => t.close());

  it('uploads a data-URI field as a file named by timestamp, reporting upload progress', async () => {
    // Noise does not compress: a few hundred KiB of PNG, enough for several progress events.
    const png = await sharp(randomBytes(300 * 300 * 3), { raw: { width: 300, height: 300, channels: 3 } })
      .png()
      .toBuffer();
    const dataUri = `data:image/png;base64,${png.toString('base64')}`;
    const progress: { loaded: number; total?: number }[] = [];
    const before = Date.now();

    const res = await till.serviceCall<{ files: FileInfo[] }>(
      'api/files/upload',
      { picture: dataUri },
      { onUploadProgress: (e) => progress.push({ loaded: e.loaded, ...(e.total ? { total: e.total } : {}) }) },
    );

    expect(res.code).toBe(900);
    if (res.code !== 900) return;
    const [file] = res.data.files;
    expect(file?.mime).toBe('image/png');
    expect(file?.size).toBe(png.length);
    const stamp = Number(file?.name.replace(/\.png$/, ''));
    expect(file?.name).toMatch(/^\d+\.png$/);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());

    expect(progress.length).toBeGreaterThan(1);
    const loaded = progress.map((p) => p.loaded);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
    expect(loaded.at(-1)).toBeGreaterThanOrEqual(png.length);

    // The link the server answered serves the very bytes the data URI held.
    const download = await fetch(new URL(file!.url, t.url));
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
  });

  it('uploads files one at a time in call order in sync mode', async () => {
    const names = ['one.txt', 'two.txt', 'three.txt'];
    const answers = await Promise.all(
      names.map((name, i) =>
        till.serviceCall<{ files: FileInfo[] }>(
          'api/files/upload',
          {},
          {
            files: [
              { name, data: new TextEncoder().encode(`file ${i}\n`.repeat(1 + (2 - i) * 5_000)), type: 'text/plain' },
            ],
            sync: true,
          },
        ),
      ),
    );
    expect(answers.map((a) => a.code)).toEqual([900, 900, 900]);
    // The server stored them in call order although the first is the largest: each waited for the one before.
    const created = answers.map((a) => (a.code === 900 ? Date.parse(a.data.files[0]!.createdAt) : NaN));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(answers.map((a) => a.code === 900 && a.data.files[0]!.name)).toEqual(names);
  });
});
