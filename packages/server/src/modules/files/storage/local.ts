import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type ByteRange, type ObjectStorage } from './storage.js';

const PARTIAL = '.partial';
// How long close() waits for cut writes to remove their partial files before removing them itself.
const CLOSE_WAIT_MS = 2000;

/**
 * Objects as files under one folder. A write goes to a uniquely named partial file that is renamed
 * into place once complete, so a reader never sees half an object and a failed write is one unlink.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local';
  readonly root: string;
  /** The writes under way, by partial file: close() waits for them and removes what they leave. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    const path = join(this.root, assertKey(key));
    if (!path.startsWith(this.root + sep)) throw new Error('invalid storage key');
    return path;
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const partial = `${target}.${randomBytes(6).toString('hex')}${PARTIAL}`;
    const write = (async () => {
      try {
        await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    })();
    this.writing.set(
      partial,
      write.then(
        () => undefined,
        () => undefined,
      ),
    );
    try {
      await write;
    } finally {
      this.writing.delete(partial);
    }
  }

  /**
   * A crash (or SIGKILL) leaves the partial file of every write under way. The folder belongs to
   * one server process (copies that share files use S3), so at start any partial file is such a
   * leftover: no write of this process has begun yet.
   */
  async removeLeftovers(): Promise<number> {
    const partials = (await this.walk()).filter((path) => path.endsWith(PARTIAL));
    await Promise.all(partials.map((path) => rm(path, { force: true })));
    return partials.length;
  }

  private async walk(): Promise<string[]> {
    try {
      const entries = await readdir(this.root, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | undefined> {
    try {
      const handle = await open(this.pathOf(key), 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async list(prefix = ''): Promise<string[]> {
    return (await this.walk())
      .map((path) => relative(this.root, path).split(sep).join('/'))
      .filter((key) => key.startsWith(prefix))
      .sort();
  }

  /**
   * At shutdown the requests still uploading have been cut, so their writes fail and remove their
   * partial files; this waits for that (briefly: a body that never fails must not hold the exit)
   * and removes any partial file still there.
   */
  async close(): Promise<void> {
    if (!this.writing.size) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.writing.values()),
      new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
    await Promise.all([...this.writing.keys()].map((partial) => rm(partial, { force: true })));
  }
}
