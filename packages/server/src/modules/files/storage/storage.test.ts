import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../config.js';
import { startS3 } from '@till/test-support/s3';
import { openStorage } from './open-storage.js';
import type { ObjectStorage } from './storage.js';

/** Opens a throwaway store of each driver; every driver must pass the same suite. */
const drivers: Record<'local' | 's3', () => Promise<{ storage: ObjectStorage; close(): Promise<void> }>> = {
  local: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-store-'));
    const storage = await openStorage(`file:${dir}`);
    return { storage, close: async () => rmSync(dir, { recursive: true, force: true }) };
  },
  s3: async () => {
    const s3 = await startS3();
    const storage = await openStorage(s3.storageUrl);
    return {
      storage,
      close: async () => {
        await storage.close();
        await s3.close();
      },
    };
  },
};

async function bytesOf(stream: Readable | undefined): Promise<Buffer> {
  if (!stream) throw new Error('no object');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(Object.keys(drivers) as (keyof typeof drivers)[])('%s storage', (driver) => {
  let storage: ObjectStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, close } = await drivers[driver]());
  });
  afterAll(() => close());

  it('keeps a streamed object byte for byte, across several multipart parts', async () => {
    // 12 MB crosses the S3 driver's 5 MiB part size twice, so the multipart path is the one tested.
    const body = randomBytes(12 * 1024 * 1024);
    const chunks = Array.from({ length: 192 }, (_, i) => body.subarray(i * 65536, (i + 1) * 65536));
    await storage.put('f/ab/big', Readable.from(chunks), 'application/octet-stream');
    expect(sha(await bytesOf(await storage.get('f/ab/big')))).toBe(sha(body));
  });

  it('reads a byte range', async () => {
    await storage.put('f/ab/range', Readable.from([Buffer.from('0123456789')]), 'text/plain');
    expect(await text((await storage.get('f/ab/range', { start: 2, end: 5 }))!)).toBe('2345');
  });

  it('answers undefined for an absent object and deletes idempotently', async () => {
    await storage.put('f/ab/gone', Readable.from([Buffer.from('x')]), 'text/plain');
    await storage.delete('f/ab/gone');
    await storage.delete('f/ab/gone');
    expect(await storage.get('f/ab/gone')).toBeUndefined();
    expect(await storage.list('f/ab/gone')).toEqual([]);
  });

  it('leaves nothing behind when the body fails half way', async () => {
    async function* failing() {
      yield randomBytes(6 * 1024 * 1024);
      throw new Error('client went away');
    }
    await expect(storage.put('f/cd/broken', Readable.from(failing()), 'text/plain')).rejects.toThrow();
    expect(await storage.list('f/cd')).toEqual([]);
  });

  it('refuses keys that could leave its folder or bucket prefix', async () => {
    for (const key of ['../etc/passwd', 'f/../../x', '/abs/path', 'f/a b', 'f/ab/c.d']) {
      await expect(storage.put(key, Readable.from([Buffer.from('x')]), 'text/plain')).rejects.toThrow(
        /invalid storage key/,
      );
    }
  });
});

describe('STORAGE_URL', () => {
  it('stops the start with a message naming the variable when it names no driver', async () => {
    expect(() => loadConfig({ STORAGE_URL: 'ftp://files.example' })).toThrow(/^STORAGE_URL: must be file:PATH or s3/);
    await expect(openStorage('s3://')).rejects.toThrow(ConfigError);
    await expect(openStorage('s3://bucket?endpoint=ftp://x')).rejects.toThrow(/STORAGE_URL: endpoint must be/);
    expect((await openStorage('file:./data/uploads')).kind).toBe('local');
    expect((await openStorage('s3://bucket/tenant?region=eu-west-1')).kind).toBe('s3');
  });
});
