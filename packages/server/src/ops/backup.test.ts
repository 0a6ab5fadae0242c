import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { startFilesApp, type FilesTestApp } from '@till/test-support/files';
import { stockShop } from '@till/test-support/shop';
import { anAdmin, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import { migrations } from '../db/migrate.js';
import { openBackupStore } from './backup-store.js';
import { ARCHIVE, digestOf, type Manifest } from './backup.js';
import { Backups } from './backups.js';

type Listed = { backups: { name: string; size: number; takenAt: string }[]; available: boolean; keep: number };

describe('backups of a SQLite server', () => {
  let t: FilesTestApp;
  let work: string;
  let backupDir: string;
  let admin: { token: string };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'till-backups-'));
    backupDir = join(work, 'backups');
    t = await startFilesApp('sqlite', 'local', {
      config: { backup: { url: `file:${backupDir}`, schedule: undefined, keep: 2 } },
    });
    admin = await anAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes one archive: a manifest, the database and the uploads it names, with their sizes and checksums', async () => {
    const shop = await stockShop(t);
    const { backup } = await ok<{ backup: { name: string; size: number } }>(t, '/api/admin/backups/start', admin);
    expect(backup.name).toMatch(/^till-\d{8}T\d{9}Z\.tar\.gz$/);
    const dir = mkdtempSync(join(tmpdir(), 'till-archive-'));
    try {
      await tar.x({ file: join(backupDir, backup.name), cwd: dir });
      const manifest = JSON.parse(readFileSync(join(dir, ARCHIVE.manifest), 'utf8')) as Manifest;
      const row = await t.ctx.db.kysely
        .selectFrom('files')
        .select('storage_key')
        .where('id', '=', shop.file.id)
        .executeTakeFirstOrThrow();
      expect(manifest).toMatchObject({
        format: 1,
        migration: Object.keys(migrations).at(-1),
        database: { path: ARCHIVE.database, ...(await digestOf(join(dir, ARCHIVE.database))) },
        missing: [],
      });
      const upload = manifest.uploads.find((u) => u.key === row.storage_key);
      expect(upload).toEqual({
        key: row.storage_key,
        path: `uploads/${row.storage_key}`,
        ...(await digestOf(join(dir, `uploads/${row.storage_key}`))),
      });
      expect(readFileSync(join(dir, `uploads/${row.storage_key}`), 'utf8')).toBe('contents of shop');
      // No partial file is left beside the archive, nor a working folder beside the database.
      expect(await (await openBackupStore(`file:${backupDir}`)).list()).toHaveLength(1);
      expect(readdirSync(backupDir)).toEqual([backup.name]);
      expect(readdirSync(dirname(t.ctx.db.file!)).filter((n) => n.startsWith('.till-backup-'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('removes the working folder a backup cut short left beside the database', async () => {
    const left = join(dirname(t.ctx.db.file!), '.till-backup-cut');
    mkdirSync(join(left, 'database'), { recursive: true });
    await ok(t, '/api/admin/backups/start', admin);
    expect(readdirSync(dirname(t.ctx.db.file!)).filter((n) => n.startsWith('.till-backup-'))).toEqual([]);
  });

  it('keeps the latest BACKUP_KEEP backups, and downloads one through a signed link', async () => {
    const first = (await ok<Listed>(t, '/api/admin/backups/list', admin)).backups.at(-1)?.name;
    await ok(t, '/api/admin/backups/start', admin);
    await ok(t, '/api/admin/backups/start', admin);
    const listed = await ok<Listed>(t, '/api/admin/backups/list', admin);
    expect(listed).toMatchObject({ available: true, keep: 2 });
    expect(listed.backups).toHaveLength(2);
    expect(listed.backups.map((b) => b.name)).not.toContain(first);
    const newest = listed.backups[0]!;
    const { url } = await ok<{ url: string }>(t, '/api/admin/backups/link', { ...admin, name: newest.name });
    const res = await fetch(`${t.url}${url}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(readFileSync(join(backupDir, newest.name)));
    expect((await fetch(`${t.url}${url.replace(/sig=[0-9a-f]+/, `sig=${'0'.repeat(64)}`)}`)).status).toBe(403);
    expect(
      await t.call('/api/admin/backups/link', { ...admin, name: 'till-20000101T000000000Z.tar.gz' }),
    ).toMatchObject({
      code: 904,
    });
    const buyer = await registerUser(t);
    expect(await t.call('/api/admin/backups/list', { token: buyer.token })).toMatchObject({ code: 903 });
    expect(await t.call('/api/admin/backups/start', { token: buyer.token })).toMatchObject({ code: 903 });
  });

  /** Two instances on the same database and backup folder, on a clock the test moves. */
  async function twoInstances(folder: string, schedule: string, clock: { now: number }) {
    const dir = join(work, folder);
    const instance = async (holder: string) =>
      new Backups({
        db: t.ctx.db.kysely,
        databaseFile: t.ctx.db.file,
        storage: t.storage,
        store: await openBackupStore(`file:${dir}`),
        config: { ...t.ctx.config, backup: { url: `file:${dir}`, schedule, keep: 10 } },
        log: t.app.log,
        now: () => clock.now,
        holder,
      });
    const [a, b] = [await instance('instance-a'), await instance('instance-b')];
    const [jobA, jobB] = [a.jobs()[0]!, b.jobs()[0]!];
    /** Both instances look at the schedule at once at `at`: how many backups each took. */
    const look = async (at: string) => {
      clock.now = Date.parse(at);
      return (await Promise.all([jobA.run(clock.now), jobB.run(clock.now)])).sort();
    };
    return { look, list: () => a.list() };
  }

  it('takes each scheduled time once, with two instances looking at the schedule at once', async () => {
    const clock = { now: Date.parse('2031-03-03T02:58:00Z') };
    const { look, list } = await twoInstances('scheduled', '0 3 * * *', clock);
    // The first look takes the backup of the latest time (the 2nd, 03:00): none was taken since.
    expect(await look('2031-03-03T02:58:00Z')).toEqual([0, 1]);
    expect(await look('2031-03-03T02:59:00Z')).toEqual([0, 0]);
    expect(await look('2031-03-03T03:00:10Z')).toEqual([0, 1]);
    expect(await look('2031-03-03T03:01:00Z')).toEqual([0, 0]);
    expect(await look('2031-03-03T12:00:00Z')).toEqual([0, 0]);
    expect(await look('2031-03-04T03:00:30Z')).toEqual([0, 1]);
    expect((await list()).map((b) => new Date(b.takenAt).toISOString())).toEqual([
      '2031-03-04T03:00:30.000Z',
      '2031-03-03T03:00:10.000Z',
      '2031-03-03T02:58:00.000Z',
    ]);
  });

  it('takes one backup, not one for each, for scheduled times missed while no server ran', async () => {
    const clock = { now: Date.parse('2031-04-01T00:00:00Z') };
    // A backup every hour; the last one at 01:00, then no server ran until 06:20 (five times missed).
    const before = await twoInstances('missed', '0 * * * *', clock);
    expect(await before.look('2031-04-01T01:00:10Z')).toEqual([0, 1]);
    const after = await twoInstances('missed', '0 * * * *', clock);
    expect(await after.look('2031-04-01T06:20:00Z')).toEqual([0, 1]);
    expect(await after.look('2031-04-01T06:21:00Z')).toEqual([0, 0]);
    expect(await after.look('2031-04-01T06:59:00Z')).toEqual([0, 0]);
    expect(await after.list()).toHaveLength(2);
    // The schedule goes on from the next time.
    expect(await after.look('2031-04-01T07:00:10Z')).toEqual([0, 1]);
    expect((await after.list()).map((b) => new Date(b.takenAt).toISOString())).toEqual([
      '2031-04-01T07:00:10.000Z',
      '2031-04-01T06:20:00.000Z',
      '2031-04-01T01:00:10.000Z',
    ]);
  });

  it('has no scheduled backup unless BACKUP_SCHEDULE is set', () => {
    expect(t.jobs.list.map((j) => j.name)).not.toContain('backup-schedule');
  });
});

describe.each(dialects.filter((d) => d === 'postgres'))('backups on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      config: { backup: { url: 'file:/nonexistent', schedule: '0 3 * * *', keep: 7 } },
    });
  });
  afterAll(() => t.close());

  it('are pg_dump’s: the server says it cannot take them, and schedules none', async () => {
    const admin = await anAdmin(t);
    expect(await ok<Listed>(t, '/api/admin/backups/list', admin)).toEqual({
      backups: [],
      available: false,
      schedule: '0 3 * * *',
      keep: 7,
    });
    expect(await t.call('/api/admin/backups/start', admin)).toMatchObject({ code: 912 });
    expect(t.jobs.list.map((j) => j.name)).not.toContain('backup-schedule');
  });
});
