import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import * as tar from 'tar';
import type { ObjectStorage } from '../modules/files/index.js';
import { backupName, type BackupStore, type StoredBackup } from './backup-store.js';

const requireHere = createRequire(import.meta.url);
const SqliteDriver = requireHere('better-sqlite3') as typeof SqliteDatabase;

/** The version of Till that takes a backup, written in its manifest. */
export const tillVersion = (requireHere('../../package.json') as { version: string }).version;

/** How much of a file a backup reads, hashes or compresses per turn of the event loop. */
const CHUNK = 1024 * 1024;

/** The name a backup's working folder starts with, beside the database. */
const STAGING = '.till-backup-';

/** Where each part sits in an archive. */
export const ARCHIVE = { manifest: 'manifest.json', database: 'database/till.db', uploads: 'uploads' } as const;

/** One file in an archive, with what proves it whole. */
export interface ArchivedFile {
  path: string;
  size: number;
  sha256: string;
}

/** What a backup holds, written first in its archive as `manifest.json`. */
export interface Manifest {
  format: 1;
  /** The version of Till that took it. */
  till: string;
  /** The latest migration the database had: a Till that does not know it is older than the backup. */
  migration: string;
  takenAt: string;
  database: ArchivedFile;
  uploads: (ArchivedFile & { key: string })[];
  /** Objects that rows named but that were gone when they were copied (removed meanwhile). */
  missing: string[];
}

/**
 * The worker that copies the database: its own read-only connection and `VACUUM INTO`, which writes
 * one consistent snapshot (a single read transaction) to a new file. On its own thread it never holds
 * the event loop, and under WAL the server's writer goes on committing while it reads; it opens the
 * file for reading only, so the server stays its only writer
 * (docs/decisions/001-group-commit-one-process-per-sqlite-file.md).
 */
const SNAPSHOT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(workerData.target);
  parentPort.postMessage({ ok: true });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
} finally {
  if (db) db.close();
}
`;

/** Copies the SQLite database at `file` to `target` (a new file), off the event loop. */
export function snapshotDatabase(file: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SNAPSHOT_WORKER, {
      eval: true,
      workerData: { file, target, driver: requireHere.resolve('better-sqlite3') },
    });
    let answered = false;
    worker.on('message', (m: { ok: boolean; message?: string }) => {
      answered = true;
      if (m.ok) resolve();
      else reject(new Error(`the database could not be copied: ${m.message}`));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (!answered) reject(new Error(`the database copy stopped (code ${code})`));
    });
  });
}

/** Size and SHA-256 of a file. */
export async function digestOf(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  // Each chunk takes a turn of the event loop: at the default 64 KB a gigabyte took thousands of them,
  // minutes on a server busy with requests. A 1 MB chunk hashes in about 2 ms.
  await pipeline(createReadStream(path, { highWaterMark: CHUNK }), hash);
  return { size: (await stat(path)).size, sha256: hash.digest('hex') };
}

/** The keys of the objects the database's rows name (files and avatars), and its latest migration. */
function readSnapshot(file: string): { keys: string[]; migration: string } {
  const db = new SqliteDriver(file, { readonly: true, fileMustExist: true });
  try {
    const files = db.prepare('SELECT storage_key AS k FROM files').pluck().all() as string[];
    const avatars = db
      .prepare("SELECT avatar_key AS k FROM users WHERE avatar_key LIKE 'avatars/%'")
      .pluck()
      .all() as string[];
    // Migration ids start with their number, so the latest sorts last.
    const migration = db.prepare('SELECT max(name) FROM kysely_migration').pluck().get() as string | null;
    return { keys: [...new Set([...files, ...avatars])].sort(), migration: migration ?? '' };
  } finally {
    db.close();
  }
}

export interface BackupParts {
  /** The SQLite database file the server has open. */
  databaseFile: string;
  /** The uploads' storage. */
  storage: ObjectStorage;
  /** Where backups are kept. */
  store: BackupStore;
  /** How many of the latest backups to keep. */
  keep: number;
  now: () => number;
}

export interface TakenBackup extends StoredBackup {
  manifest: Manifest;
  /** Older backups removed to keep `keep`. */
  removed: string[];
}

/**
 * Takes a backup of a SQLite server while it serves: a snapshot of the database, then the uploads its
 * rows name (uploads are written once under new keys, never changed in place), a manifest with their
 * sizes and checksums, all in one gzipped tar archive that is stored under its name only once complete.
 * Then the oldest backups beyond `keep` are removed.
 */
export async function takeBackup(parts: BackupParts): Promise<TakenBackup> {
  const takenAt = parts.now();
  // The copy is staged beside the database, on its disk: a temporary folder may be in memory, and
  // would have to hold the whole database. What a backup cut short (a crash) left there goes first:
  // one process has the file, and it takes one backup at a time.
  const beside = dirname(parts.databaseFile);
  for (const name of await readdir(beside))
    if (name.startsWith(STAGING)) await rm(join(beside, name), { recursive: true, force: true });
  const staging = await mkdtemp(join(beside, STAGING));
  try {
    const database = join(staging, ARCHIVE.database);
    await mkdir(dirname(database), { recursive: true });
    await snapshotDatabase(parts.databaseFile, database);
    const { keys, migration } = readSnapshot(database);
    const uploads: Manifest['uploads'] = [];
    const missing: string[] = [];
    for (const key of keys) {
      const body = await parts.storage.get(key);
      if (!body) {
        missing.push(key);
        continue;
      }
      const path = `${ARCHIVE.uploads}/${key}`;
      await mkdir(dirname(join(staging, path)), { recursive: true });
      await pipeline(body, createWriteStream(join(staging, path)));
      uploads.push({ key, path, ...(await digestOf(join(staging, path))) });
    }
    const manifest: Manifest = {
      format: 1,
      till: tillVersion,
      migration,
      takenAt: new Date(takenAt).toISOString(),
      database: { path: ARCHIVE.database, ...(await digestOf(database)) },
      uploads,
      missing,
    };
    await writeFile(join(staging, ARCHIVE.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
    const archive = join(staging, 'archive.tar.gz');
    const entries: string[] = [ARCHIVE.manifest, ARCHIVE.database, ...(uploads.length ? [ARCHIVE.uploads] : [])];
    // tar's own gzip (minizlib) compresses on the event loop, a read of up to 16 MB at a time: on a
    // large database that held every request for seconds. Node's gzip stream runs on the thread pool.
    // (The gzip stream hands back each chunk of its output on the event loop: 1 MB ones, not 16 KB ones.)
    await pipeline(
      tar.c({ cwd: staging, portable: true }, entries),
      createGzip({ chunkSize: CHUNK }),
      createWriteStream(archive, { highWaterMark: CHUNK }),
    );
    const name = backupName(takenAt);
    await parts.store.save(name, archive);
    const size = (await stat(archive)).size;
    const removed = await prune(parts.store, parts.keep);
    return { name, size, takenAt, manifest, removed };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Removes the oldest backups beyond the latest `keep`; answers their names. */
async function prune(store: BackupStore, keep: number): Promise<string[]> {
  const old = (await store.list()).slice(keep).map((b) => b.name);
  for (const name of old) await store.remove(name);
  return old;
}
