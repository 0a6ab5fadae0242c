import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Dialect, type ObjectStorage, openStorage } from '@till/server/testing';
import { startTestApp, type TestApp, type TestAppOptions } from './app.js';
import { dialects } from './db.js';
import { startS3, type TestS3 } from './s3.js';

export type Driver = 'local' | 's3';

/** Every engine and storage driver pair the files suites run on. */
export const filesMatrix: [Dialect, Driver][] = dialects.flatMap((d) =>
  (['local', 's3'] as const).map((s): [Dialect, Driver] => [d, s]),
);

export const MiB = 1024 * 1024;
/** Small limits so that the limit tests stay quick; 8 MiB still crosses S3's 5 MiB part size. */
export const testLimits = { maxFileBytes: 8 * MiB, maxFiles: 3, quotaBytes: 12 * MiB };

/** The real app listening on loopback, with its storage open beside it for inspection. */
export interface FilesTestApp extends TestApp {
  storage: ObjectStorage;
  /** The S3 server, for the s3 driver. */
  s3: TestS3 | undefined;
}

export async function startFilesApp(
  dialect: Dialect,
  driver: Driver,
  options: TestAppOptions = {},
): Promise<FilesTestApp> {
  const s3 = driver === 's3' ? await startS3() : undefined;
  const dir = s3 ? undefined : mkdtempSync(join(tmpdir(), 'till-files-'));
  const storageUrl = s3 ? s3.storageUrl : `file:${dir}`;
  const t = await startTestApp({
    ...options,
    dialect,
    listen: true,
    config: { storageUrl, upload: { ...testLimits }, ...options.config },
  });
  const storage = await openStorage(storageUrl);
  return {
    ...t,
    storage,
    s3,
    async close() {
      await t.close();
      await storage.close();
      await s3?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A multipart part: a plain field, or a file with its name and declared type. */
export type Part =
  [field: string, value: string] | [field: string, content: Buffer | string, filename: string, type?: string];

/** Posts a multipart body, parts in the given order, to a service path; answers the JSON body. */
export async function postMultipart(
  t: TestApp,
  parts: Part[],
  path = '/api/files/upload',
): Promise<Record<string, unknown> & { code: number }> {
  const form = new FormData();
  for (const part of parts) {
    if (part.length === 2) form.append(part[0], part[1]);
    else
      form.append(
        part[0],
        new Blob([typeof part[1] === 'string' ? part[1] : new Uint8Array(part[1])], {
          type: part[3] ?? 'application/octet-stream',
        }),
        part[2],
      );
  }
  const res = await fetch(`${t.url}${path}`, { method: 'POST', body: form });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown> & { code: number };
}

/** The fields of an uploaded file as the protocol shows them. */
export interface FileJson {
  id: string;
  name: string;
  size: number;
  mime: string;
  url: string;
  createdAt: string;
  public: boolean;
}

/** Uploads one file with the token first; answers the file or throws with the body. */
export async function uploadOne(
  t: TestApp,
  token: string,
  content: Buffer | string,
  filename = 'a.txt',
  extra: Part[] = [],
) {
  const res = await postMultipart(t, [['token', token], ...extra, ['file', content, filename]]);
  if (res.code !== 900) throw new Error(`upload failed: ${JSON.stringify(res)}`);
  return (res.data as { files: FileJson[] }).files[0]!;
}

/** Rows in the files table and objects in storage, to prove that nothing was left behind. */
export async function leftovers(t: FilesTestApp) {
  const rows = await t.ctx.db.kysely.selectFrom('files').select('id').execute();
  return { rows: rows.length, objects: (await t.storage.list('f/')).length };
}

export { eventually } from './eventually.js';
