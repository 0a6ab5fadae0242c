import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { backupRun, takeBackup } from '@till/test-support/backups';
import { startFilesApp, uploadOne, type FilesTestApp } from '@till/test-support/files';
import { stockShop } from '@till/test-support/shop';
import { anAdmin, ok } from '@till/test-support/store';
import { threadNices } from '@till/test-support/threads';
import { registerUser } from '@till/test-support/users';
import { migrations } from '../db/migrate.js';
import { openBackupStore, type BackupStore } from './backup-store.js';
import { ARCHIVE, digestOf, takeBackup as takeBackupHere, type BackupProgress, type Manifest } from './backup.js';
import { BackupInProgress, Backups } from './backups.js';

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
    const backup = await takeBackup(t, admin);
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
    await takeBackup(t, admin);
    expect(readdirSync(dirname(t.ctx.db.file!)).filter((n) => n.startsWith('.till-backup-'))).toEqual([]);
  });

  it('keeps the latest BACKUP_KEEP backups, and downloads one through a signed link', async () => {
    const first = (await ok<Listed>(t, '/api/admin/backups/list', admin)).backups.at(-1)?.name;
    await takeBackup(t, admin);
    await takeBackup(t, admin);
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

  it('answers at once with the backup running, then shows it stored; its thread tells how far it has come', async () => {
    const run = await backupRun(t, admin);
    const listed = await ok<Listed>(t, '/api/admin/backups/list', admin);
    expect(run).toMatchObject({ state: 'done', step: 'store', backup: listed.backups[0] });
    expect(run.finishedAt).not.toBeNull();

    const steps: BackupProgress[] = [];
    const dir = join(work, 'progress');
    const taken = await takeBackupHere({
      databaseFile: t.ctx.db.file!,
      threadNice: 0,
      storage: t.storage,
      store: await openBackupStore(`file:${dir}`),
      keep: 1,
      now: Date.now,
      onProgress: (p) => steps.push({ ...p }),
    });
    expect([...new Set(steps.map((p) => p.step))]).toEqual(['snapshot', 'uploads', 'archive', 'store']);
    const archived = steps.filter((p) => p.step === 'archive');
    // Every file is read twice (hashed, then packed): the total is twice their sizes.
    const files = taken.manifest.database.size + taken.manifest.uploads.reduce((n, u) => n + u.size, 0);
    expect(archived.every((p) => p.total === 2 * files)).toBe(true);
    expect(archived.map((p) => p.done)).toEqual([...archived.map((p) => p.done)].sort((a, b) => a - b));
    expect(archived.at(-1)!.done).toBe(2 * files);
    expect(steps.at(-1)).toEqual({ step: 'store', done: 0, total: taken.size });
    // A small archive goes to the disk once, whole, before it is stored.
    expect(taken.archiveSyncs).toEqual([taken.size]);
  });

  it.runIf(process.platform === 'linux')(
    'runs its thread below the event loop, at nice 10 unless told otherwise',
    async () => {
      const niced = () => [...threadNices().values()].filter((n) => n === 10).length;
      /** How many more of this process's threads run at nice 10 while the backup's thread waits for the uploads. */
      const nicedDuring = async (threadNice?: number) => {
        const before = niced();
        let during: number | undefined;
        await takeBackupHere({
          databaseFile: t.ctx.db.file!,
          ...(threadNice === undefined ? {} : { threadNice }),
          storage: t.storage,
          store: await openBackupStore(`file:${join(work, `nice-${threadNice ?? 'default'}`)}`),
          keep: 1,
          now: Date.now,
          onProgress: (p) => {
            if (p.step === 'uploads') during = niced();
          },
        });
        return during! - before;
      };
      expect(await nicedDuring()).toBe(1);
      expect(await nicedDuring(0)).toBe(0);
    },
  );

  it('writes the archive to the disk as it grows, a step at a time, not all at once when it is stored', async () => {
    // Some megabytes that compress little: the archive is written a gzip member (a megabyte of tar) at a time.
    const owner = await registerUser(t);
    for (const n of [1, 2, 3])
      await uploadOne(t, owner.token, randomBytes(768 * 1024).toString('base64'), `noise-${n}.txt`);
    const step = 4096;
    const taken = await takeBackupHere({
      databaseFile: t.ctx.db.file!,
      threadNice: 0,
      storage: t.storage,
      store: await openBackupStore(`file:${join(work, 'steps')}`),
      keep: 1,
      now: Date.now,
      syncStep: step,
    });
    const along = taken.archiveSyncs.slice(0, -1);
    expect(along.length).toBeGreaterThan(1);
    // Each sync writes what came since the last one: a step's worth or a little more (one gzip member).
    expect(along.every((bytes) => bytes >= step)).toBe(true);
    expect(taken.archiveSyncs.at(-1)!).toBeLessThan(step);
    expect(taken.archiveSyncs.reduce((sum, bytes) => sum + bytes, 0)).toBe(taken.size);
  });

  it("holds the writer's own checkpoints until the archive is stored and the staged copy is on the disk, and removes that copy", async () => {
    await stockShop(t);
    const dir = join(work, 'held');
    const folder = await openBackupStore(`file:${dir}`);
    const beside = dirname(t.ctx.db.file!);
    const staged = () => readdirSync(beside).filter((n) => n.startsWith('.till-backup-'));
    const seen: string[] = [];
    let held = false;
    const taken = await takeBackupHere({
      databaseFile: t.ctx.db.file!,
      threadNice: 0,
      storage: t.storage,
      // The folder store, telling when it is asked to store the archive.
      store: Object.assign(Object.create(folder) as BackupStore, {
        save: async (name: string, file: string) => {
          seen.push(`save, held: ${held}`);
          await folder.save(name, file);
        },
      }),
      keep: 1,
      now: Date.now,
      onProgress: (p) => {
        if (seen.at(-1) !== `${p.step}, held: ${held}`) seen.push(`${p.step}, held: ${held}`);
      },
      holdCheckpoints: () => {
        held = true;
        seen.push('hold');
        return () => {
          seen.push(`release, staged: ${staged().length}`);
          held = false;
        };
      },
    });
    expect(seen).toEqual([
      'snapshot, held: false',
      'hold',
      'uploads, held: true',
      'archive, held: true',
      'store, held: true',
      'save, held: true',
      'release, staged: 1',
    ]);
    // Removed (a few megabytes at a time) before the backup answers.
    expect(staged()).toEqual([]);
    // Stored whole, under its name, with nothing partial beside it.
    expect(readdirSync(dir)).toEqual([taken.name]);
    expect(readFileSync(join(dir, taken.name)).length).toBe(taken.size);
  });

  it('refuses a second backup while one is being taken, asked at once of one server', async () => {
    const answers = await Promise.all(
      [1, 2].map(() => t.app.inject({ method: 'POST', url: '/api/admin/backups/start', payload: admin })),
    );
    const bodies = answers.map((a) => a.json<{ code: number; reason?: string }>());
    expect(bodies.map((b) => b.code).sort()).toEqual([900, 912]);
    expect(bodies.find((b) => b.code === 912)).toMatchObject({ reason: 'in_progress' });
    expect(answers.find((a) => a.json<{ code: number }>().code === 900)!.statusCode).toBe(202);
    await vi.waitFor(
      async () =>
        expect((await ok<{ run: { state: string } }>(t, '/api/admin/backups/list', admin)).run.state).toBe('done'),
      { timeout: 120_000, interval: 50 },
    );
  });

  /** An instance of the backups on the test app's database, as another server would run them. */
  const anInstance = async (holder: string, url: string) =>
    new Backups({
      db: t.ctx.db.kysely,
      threadNice: 0,
      databaseFile: t.ctx.db.file,
      storage: t.storage,
      store: await openBackupStore(url),
      config: { ...t.ctx.config, backup: { url, schedule: undefined, keep: 10 } },
      log: t.app.log,
      now: Date.now,
      holder,
    });

  it('refuses a second backup while another instance takes one (its lease), and takes it once that one ended', async () => {
    const url = `file:${join(work, 'two')}`;
    const [a, b] = [await anInstance('instance-a', url), await anInstance('instance-b', url)];
    const started = await Promise.allSettled([a.start(), b.start()]);
    const won = started.filter((s) => s.status === 'fulfilled');
    const lost = started.filter((s) => s.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(BackupInProgress);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<Backups['start']>>>).value.taken;
    const loser = started[0]!.status === 'rejected' ? a : b;
    await (
      await loser.start()
    ).taken;
    expect(await a.list()).toHaveLength(2);
  });

  it('shows a backup that failed, with the step it failed in, and lets the next one start', async () => {
    const notAFolder = join(work, 'not-a-folder');
    writeFileSync(notAFolder, 'a file where the backups would go');
    const failing = await anInstance('instance-failing', `file:${join(notAFolder, 'backups')}`);
    const run = await failing.start();
    expect(run.view.state).toBe('running');
    await expect(run.taken).rejects.toThrow(/ENOTDIR/);
    expect(failing.latestRun).toMatchObject({ state: 'failed', step: 'store', backup: null });
    expect(readdirSync(dirname(t.ctx.db.file!)).filter((n) => n.startsWith('.till-backup-'))).toEqual([]);
    const next = await anInstance('instance-next', `file:${join(work, 'next')}`);
    await (
      await next.start()
    ).taken;
    expect(next.latestRun).toMatchObject({ state: 'done' });
  });

  /** Two instances on the same database and backup folder, on a clock the test moves. */
  async function twoInstances(folder: string, schedule: string, clock: { now: number }) {
    const dir = join(work, folder);
    const instance = async (holder: string) =>
      new Backups({
        db: t.ctx.db.kysely,
        threadNice: 0,
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
      run: null,
      available: false,
      schedule: '0 3 * * *',
      keep: 7,
    });
    expect(await t.call('/api/admin/backups/start', admin)).toMatchObject({ code: 912 });
    expect(t.jobs.list.map((j) => j.name)).not.toContain('backup-schedule');
  });
});
