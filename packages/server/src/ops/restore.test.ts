import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { migrations } from '../db/migrate.js';
import { openStorage } from '../modules/files/index.js';
import { COMMAND_TEST_TIMEOUT, runCli } from '@till/test-support/cli';
import { takeBackup } from '@till/test-support/backups';
import { startFilesApp, uploadOne, type FilesTestApp } from '@till/test-support/files';
import { buyCreditPack, stockShop } from '@till/test-support/shop';
import { anAdmin, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import { ARCHIVE, digestOf, type Manifest } from './backup.js';
import { checkData } from './check-data.js';
import { RestoreRefused, restoreArchive } from './restore.js';

const SqliteDriver = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;

type Listed = { backups: { name: string; size: number; takenAt: string }[]; available: boolean; keep: number };

/** Opens a restored data folder as a server does, and answers the data check's findings there. */
async function serveRestored(dataDir: string) {
  const built = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: `sqlite:${join(dataDir, 'till.db')}`,
      STORAGE_URL: `file:${join(dataDir, 'uploads')}`,
      BACKUP_URL: `file:${join(dataDir, 'backups')}`,
    }),
    { logger: false, jobs: false },
  );
  await built.app.ready();
  const storage = await openStorage(`file:${join(dataDir, 'uploads')}`);
  return {
    ...built,
    findings: () => checkData(built.ctx.db.kysely, storage),
    close: async () => {
      await built.app.close();
      await storage.close();
    },
  };
}

/** Rewrites an archive: its database changed by `edit`, the manifest's checksum made to match. */
async function rewritten(archive: string, out: string, edit: (db: SqliteDatabase.Database) => Promise<void> | void) {
  const dir = mkdtempSync(join(tmpdir(), 'till-rewrite-'));
  try {
    await tar.x({ file: archive, cwd: dir });
    const file = join(dir, ARCHIVE.database);
    const db = new SqliteDriver(file);
    await edit(db);
    db.close();
    const manifest = JSON.parse(readFileSync(join(dir, ARCHIVE.manifest), 'utf8')) as Manifest;
    manifest.database = { path: ARCHIVE.database, ...(await digestOf(file)) };
    writeFileSync(join(dir, ARCHIVE.manifest), JSON.stringify(manifest));
    await tar.c({ gzip: true, cwd: dir, file: out }, [ARCHIVE.manifest, ARCHIVE.database, ARCHIVE.uploads]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('restoring a backup of a SQLite server', { timeout: COMMAND_TEST_TIMEOUT }, () => {
  let t: FilesTestApp;
  let work: string;
  let backupDir: string;
  let admin: { token: string };
  let archive: string;

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

  it('takes a backup while purchases and uploads run; restored into a new folder, a server runs on it and the data check passes', async () => {
    const shop = await stockShop(t, 'before');
    const buyers = await Promise.all(Array.from({ length: 4 }, () => registerUser(t)));
    let stop = false;
    let done = 0;
    // Purchases (credit packs paid by the provider, credits spent) and uploads, until the backup is stored.
    const load = buyers.map(async (b, i) => {
      for (let n = 0; !stop; n++) {
        await buyCreditPack(t, b.token, `evt-load-${i}-${n}`);
        await ok(t, '/api/auth/payWithCredits', { token: b.token, products: JSON.stringify(['pro-unlock']) }).catch(
          () => undefined, // owned already after the first: refused, and nothing changes
        );
        await uploadOne(t, b.token, `upload ${i}-${n}`, `f${n}.txt`).catch(() => undefined); // past the file limit
        done += 1;
      }
    });
    while (done < 4) await new Promise((r) => setTimeout(r, 10));
    const started = { backup: await takeBackup(t, admin) };
    stop = true;
    await Promise.all(load);
    expect(done).toBeGreaterThan(4);
    expect(await checkData(t.ctx.db.kysely, t.storage)).toEqual([]);

    const listed = await ok<Listed>(t, '/api/admin/backups/list', admin);
    expect(listed).toMatchObject({ available: true, keep: 2, backups: [{ name: started.backup.name }] });
    archive = join(backupDir, started.backup.name);
    expect(statSync(archive).size).toBe(started.backup.size);

    const dataDir = join(work, 'restored');
    const restored = await runCli('restore', [archive, '--data', dataDir], {});
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain(`start the server with DATABASE_URL=sqlite:${join(dataDir, 'till.db')}`);
    const server = await serveRestored(dataDir);
    try {
      expect(await server.findings()).toEqual([]);
      // The backup holds what was there before it: the shop's buyer signs in with their session and has their file.
      const info = await server.app.inject({
        method: 'POST',
        url: '/api/auth/getUserInfo',
        payload: { token: shop.buyer.token },
      });
      expect(info.json()).toMatchObject({ code: 900 });
      const files = await server.app.inject({
        method: 'POST',
        url: '/api/files/list',
        payload: { token: shop.buyer.token },
      });
      expect(JSON.stringify(files.json())).toContain(shop.file.id);
    } finally {
      await server.close();
    }
  });

  it('refuses a corrupt archive and a truncated one, saying which', async () => {
    const bytes = readFileSync(archive);
    const corrupt = Buffer.from(bytes);
    for (let i = 200; i < 260; i++) corrupt[i] = (corrupt[i] ?? 0) ^ 0xff;
    writeFileSync(join(work, 'corrupt.tar.gz'), corrupt);
    await expect(restoreArchive({ archive: join(work, 'corrupt.tar.gz'), dataDir: join(work, 'c') })).rejects.toThrow(
      /^the archive is corrupt: /,
    );
    writeFileSync(join(work, 'truncated.tar.gz'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    const cut = await runCli('restore', [join(work, 'truncated.tar.gz'), '--data', join(work, 't')], {});
    expect(cut.code).toBe(1);
    expect(cut.output).toMatch(/^restore refused: the archive is truncated: /);
  });

  it('refuses an archive whose file does not match its manifest', async () => {
    const out = join(work, 'changed.tar.gz');
    const dir = mkdtempSync(join(tmpdir(), 'till-changed-'));
    await tar.x({ file: archive, cwd: dir });
    writeFileSync(
      join(dir, ARCHIVE.database),
      Buffer.concat([readFileSync(join(dir, ARCHIVE.database)), Buffer.alloc(1)]),
    );
    await tar.c({ gzip: true, cwd: dir, file: out }, [ARCHIVE.manifest, ARCHIVE.database]);
    rmSync(dir, { recursive: true, force: true });
    await expect(restoreArchive({ archive: out, dataDir: join(work, 'm') })).rejects.toThrow(
      `the archive is corrupt: ${ARCHIVE.database} has`,
    );
  });

  it('refuses a manifest that would put an upload outside the uploads folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-escape-'));
    const out = join(work, 'escape.tar.gz');
    try {
      await tar.x({ file: archive, cwd: dir });
      const manifest = JSON.parse(readFileSync(join(dir, ARCHIVE.manifest), 'utf8')) as Manifest;
      expect(manifest.uploads.length).toBeGreaterThan(0);
      manifest.uploads[0]!.key = '../../escaped';
      writeFileSync(join(dir, ARCHIVE.manifest), JSON.stringify(manifest));
      await tar.c({ gzip: true, cwd: dir, file: out }, [ARCHIVE.manifest, ARCHIVE.database, ARCHIVE.uploads]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(restoreArchive({ archive: out, dataDir: join(work, 'e') })).rejects.toThrow(
      'the archive is corrupt: its manifest names an upload "../../escaped"',
    );
  });

  it('refuses an archive from a newer Till, naming the migration it does not know', async () => {
    const out = join(work, 'newer.tar.gz');
    await rewritten(archive, out, (db) => {
      db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(
        '099-from-the-future',
        new Date().toISOString(),
      );
    });
    const error = await restoreArchive({ archive: out, dataDir: join(work, 'n') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestoreRefused);
    expect((error as Error).message).toMatch(
      /^the archive is from a newer Till \(.*, migration 099-from-the-future\), and this Till .* knows migrations up to /,
    );
  });

  it('runs the migrations forward on an archive from an older Till', async () => {
    const last = Object.keys(migrations).at(-1) ?? '';
    const out = join(work, 'older.tar.gz');
    await rewritten(archive, out, async (db) => {
      const k = new Kysely<unknown>({ dialect: new SqliteDialect({ database: db }) });
      await migrations[last]?.down?.(k);
      db.prepare('DELETE FROM kysely_migration WHERE name = ?').run(last);
    });
    const dataDir = join(work, 'older');
    const r = await restoreArchive({ archive: out, dataDir });
    expect(r.migrated).toEqual([last]);
    const server = await serveRestored(dataDir);
    try {
      expect(await server.findings()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('restores into an empty folder only, replaces data with --force, and never under a running server', async () => {
    const dataDir = join(work, 'taken');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'note.txt'), 'keep me');
    await expect(restoreArchive({ archive, dataDir })).rejects.toThrow(`${dataDir} is not empty`);
    await restoreArchive({ archive, dataDir, force: true });
    const server = await serveRestored(dataDir);
    try {
      await expect(restoreArchive({ archive, dataDir, force: true })).rejects.toThrow(/is open: stop the server/);
    } finally {
      await server.close();
    }
  });

  it('`npm run backup` asks a running server to take the backup, and takes it itself when none runs', async () => {
    const env = { DATABASE_URL: t.db.url, STORAGE_URL: t.ctx.config.storageUrl, BACKUP_URL: `file:${backupDir}` };
    const before = (await ok<Listed>(t, '/api/admin/backups/list', admin)).backups.length;
    const refused = await runCli('backup', ['--server', t.url], env);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/is open by a running server: only it may copy the file/);
    const tokenFile = join(work, 'token');
    writeFileSync(tokenFile, admin.token);
    const asked = await runCli('backup', ['--server', t.url, '--token-file', tokenFile], env);
    expect(asked.code, asked.output).toBe(0);
    expect(asked.output).toMatch(
      /^the server is taking the backup…\nbackup till-\S+ taken by the server: \d+ bytes\n$/,
    );
    expect((await ok<Listed>(t, '/api/admin/backups/list', admin)).backups.length).toBe(before + 1);

    const dataDir = join(work, 'stopped');
    await restoreArchive({ archive, dataDir });
    const own = join(work, 'own-backups');
    const direct = await runCli('backup', [], {
      DATABASE_URL: `sqlite:${join(dataDir, 'till.db')}`,
      STORAGE_URL: `file:${join(dataDir, 'uploads')}`,
      BACKUP_URL: `file:${own}`,
    });
    expect(direct.code, direct.output).toBe(0);
    expect(direct.output).toMatch(/^backup till-\S+ taken: \d+ bytes, \d+ uploads\n$/);
    const again = join(work, 'again');
    const name = direct.output.split(' ')[1] ?? '';
    await restoreArchive({ archive: join(own, name), dataDir: again });
    const server = await serveRestored(again);
    try {
      expect(await server.findings()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
