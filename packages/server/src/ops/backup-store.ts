import { randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, open, readdir, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../config.js';
import { takenAtOf, type BackupStore, type StoredBackup } from './backup-names.js';
import { removeGradually } from './gradual-removal.js';

export { backupName, takenAtOf, type BackupStore, type StoredBackup } from './backup-names.js';

/** Waits until a file's (or a folder's) contents are on the disk; on the thread pool. */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Moves `from` to `to` (a new name), or copies it when they are on different file systems. */
async function moveOrCopy(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to, constants.COPYFILE_EXCL);
  }
}

class FolderStore implements BackupStore {
  constructor(private readonly dir: string) {}

  async save(name: string, file: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const partial = join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.partial`);
    try {
      // Moved when the folder is on the archive's disk: a backup's size is not written twice. Otherwise
      // copied by the thread pool in one call: no chunk of a large archive passes the event loop.
      await moveOrCopy(file, partial);
      await chmod(partial, 0o600);
      // On the disk before it takes its name, and the name with it: a crash never leaves a backup
      // listed that is empty or cut short.
      await syncFile(partial);
      await rename(partial, join(this.dir, name));
      await syncFile(this.dir);
    } catch (error) {
      await removeGradually(partial);
      throw error;
    }
  }

  async list(): Promise<StoredBackup[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const found: StoredBackup[] = [];
    for (const name of names) {
      const takenAt = takenAtOf(name);
      if (takenAt === undefined) continue;
      found.push({ name, takenAt, size: (await stat(join(this.dir, name))).size });
    }
    return found.sort((a, b) => b.takenAt - a.takenAt);
  }

  async open(name: string): Promise<Readable | undefined> {
    if (takenAtOf(name) === undefined) return undefined;
    const path = join(this.dir, name);
    try {
      await stat(path);
    } catch {
      return undefined;
    }
    return createReadStream(path);
  }

  async remove(name: string): Promise<void> {
    // An archive is hundreds of megabytes: freed at once, it held every sync on the disk meanwhile.
    if (takenAtOf(name) !== undefined) await removeGradually(join(this.dir, name));
  }

  close(): void {}
}

/** Opens the place `BACKUP_URL` names. The AWS SDK is loaded only for an s3 URL. */
export async function openBackupStore(url: string): Promise<BackupStore> {
  if (url.startsWith('file:')) {
    const path = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
    if (!path) throw new ConfigError('BACKUP_URL', 'file: needs a folder');
    return new FolderStore(resolve(path));
  }
  if (url.startsWith('s3://')) {
    const { S3BackupStore } = await import('./backup-store-s3.js');
    return S3BackupStore.fromUrl(url);
  }
  throw new ConfigError('BACKUP_URL', 'must start with file: or s3://');
}
