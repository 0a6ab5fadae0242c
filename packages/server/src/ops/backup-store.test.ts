import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '@till/test-support/s3';
import { backupName, openBackupStore, takenAtOf, type BackupStore } from './backup-store.js';

describe.each(['folder', 's3'] as const)('backups kept in a %s', (kind) => {
  let s3: TestS3 | undefined;
  let dir: string;
  let store: BackupStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'till-backup-store-'));
    s3 = kind === 's3' ? await startS3() : undefined;
    const url = s3
      ? s3.storageUrl.replace(`s3://${s3.bucket}?`, `s3://${s3.bucket}/nightly?`)
      : `file:${join(dir, 'kept')}`;
    store = await openBackupStore(url);
  });
  afterAll(async () => {
    store.close();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores archives under names that sort as their times, lists them newest first with their sizes, opens and removes them', async () => {
    const older = backupName(Date.UTC(2026, 10, 26, 3, 0, 0, 7));
    const newer = backupName(Date.UTC(2026, 10, 27, 3, 0, 0, 0));
    expect(older).toBe('till-20261126T030000007Z.tar.gz');
    expect(takenAtOf(older)).toBe(Date.UTC(2026, 10, 26, 3, 0, 0, 7));
    expect(takenAtOf('notes.txt')).toBeUndefined();
    writeFileSync(join(dir, 'a'), 'the older archive');
    writeFileSync(join(dir, 'b'), 'the newer one');
    await store.save(older, join(dir, 'a'));
    await store.save(newer, join(dir, 'b'));
    expect(await store.list()).toEqual([
      { name: newer, size: 13, takenAt: Date.UTC(2026, 10, 27, 3, 0, 0, 0) },
      { name: older, size: 17, takenAt: Date.UTC(2026, 10, 26, 3, 0, 0, 7) },
    ]);
    const body = await store.open(older);
    expect(Buffer.concat(await body!.toArray()).toString()).toBe('the older archive');
    expect(await store.open('till-20000101T000000000Z.tar.gz')).toBeUndefined();
    expect(await store.open('../../etc/passwd')).toBeUndefined();
    await store.remove(older);
    expect((await store.list()).map((b) => b.name)).toEqual([newer]);
  });

  it('leaves nothing under the name when the archive cannot be stored', async () => {
    const name = backupName(Date.UTC(2026, 10, 28));
    await expect(store.save(name, join(dir, 'absent'))).rejects.toThrow();
    expect((await store.list()).map((b) => b.name)).not.toContain(name);
    if (kind === 'folder') expect(readdirSync(join(dir, 'kept')).filter((n) => n.endsWith('.partial'))).toEqual([]);
  });
});

describe('backups kept in a folder', () => {
  it('moves an archive on its own disk (written once), and copies one from another disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-backup-store-'));
    // A memory file system: another device than the folder's.
    const elsewhere = mkdtempSync('/dev/shm/till-backup-store-');
    try {
      expect(statSync(elsewhere).dev).not.toBe(statSync(dir).dev);
      const store = await openBackupStore(`file:${join(dir, 'kept')}`);
      const here = join(dir, 'archive');
      const there = join(elsewhere, 'archive');
      writeFileSync(here, 'made on the same disk');
      writeFileSync(there, 'made on another disk');
      const first = backupName(Date.UTC(2026, 10, 28, 1));
      const second = backupName(Date.UTC(2026, 10, 28, 2));
      await store.save(first, here);
      await store.save(second, there);
      expect(existsSync(here)).toBe(false);
      expect(readFileSync(there, 'utf8')).toBe('made on another disk');
      expect(readFileSync(join(dir, 'kept', first), 'utf8')).toBe('made on the same disk');
      expect(readFileSync(join(dir, 'kept', second), 'utf8')).toBe('made on another disk');
      expect(readdirSync(join(dir, 'kept')).sort()).toEqual([first, second]);
      expect(statSync(join(dir, 'kept', first)).mode & 0o777).toBe(0o600);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
