import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import type { ObjectStorage } from '../modules/files/index.js';
import { threadNice } from '../security/hash-pool.js';
import { backupName, syncFile, type BackupStore, type StoredBackup } from './backup-store.js';
import { removeGradually } from './gradual-removal.js';
import { syncAsItGrows, type GrowingFileSync } from './sync-as-it-grows.js';

const requireHere = createRequire(import.meta.url);

/** The version of Till that takes a backup, written in its manifest. */
export const tillVersion = (requireHere('../../package.json') as { version: string }).version;

/** How much of a file a backup's thread reads, hashes or compresses at a time. */
const CHUNK = 1024 * 1024;
/** How far below the event loop a backup's thread runs (Linux nice), unless its parts say otherwise. */
export const BACKUP_THREAD_NICE = 10;

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
 * The thread that takes a backup's heavy part, so that it never holds the server's event loop: it
 * copies the database, reads the copy, hashes every file, writes the manifest and packs and gzips the
 * archive (docs/decisions/017-backups-on-their-own-thread.md). Plain CommonJS so that it runs the same
 * under the compiled server, tsx and the tests.
 *
 * The copy is `VACUUM INTO` on a read-only connection of its own: one read transaction, so one
 * consistent snapshot, while under WAL the server's writer goes on committing (a reader never holds a
 * writer); it opens the file for reading only, so the server stays its only writer
 * (docs/decisions/001-group-commit-one-process-per-sqlite-file.md). On Linux the thread lowers its own
 * priority, leaving the event loop first in line for the CPU.
 *
 * Messages: it answers `snapshot` (the keys the copy's rows name, its latest migration), is then sent
 * the uploads copied beside it, answers `progress` (bytes hashed and archived of the total) as it goes,
 * and `done` with the manifest; `failed` with a message at any step.
 */
const BACKUP_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const { join } = require('node:path');
const { pipeline } = require('node:stream/promises');
const { Transform, Writable } = require('node:stream');
const { gzipSync } = require('node:zlib');
const Database = require(workerData.driver);
const tar = require(workerData.tar);
const { staging, archive, chunk, paths } = workerData;
if (workerData.nice > 0) {
  try { require('node:os').setPriority(0, workerData.nice); } catch {}
}

let total = 0;
let done = 0;
let told = 0;
function advance(bytes) {
  done += bytes;
  if (done - told >= 4 * chunk || done === total) {
    told = done;
    parentPort.postMessage({ type: 'progress', done, total });
  }
}

function snapshot() {
  let db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // The copy takes this connection's sync setting. It is read back into the archive and removed:
    // syncing it would only queue a whole database's writes at the disk ahead of the server's.
    db.pragma('synchronous = OFF');
    db.prepare('VACUUM INTO ?').run(join(staging, paths.database));
  } finally {
    db.close();
  }
  db = new Database(join(staging, paths.database), { readonly: true, fileMustExist: true });
  try {
    const files = db.prepare('SELECT storage_key AS k FROM files').pluck().all();
    const avatars = db.prepare("SELECT avatar_key AS k FROM users WHERE avatar_key LIKE 'avatars/%'").pluck().all();
    // Migration ids start with their number, so the latest sorts last.
    const migration = db.prepare('SELECT max(name) FROM kysely_migration').pluck().get();
    return { keys: [...new Set([...files, ...avatars])].sort(), migration: migration || '' };
  } finally {
    db.close();
  }
}

async function digest(path) {
  const hash = createHash('sha256');
  let size = 0;
  for await (const part of fs.createReadStream(join(staging, path), { highWaterMark: chunk })) {
    hash.update(part);
    size += part.length;
    advance(part.length);
  }
  return { path, size, sha256: hash.digest('hex') };
}

async function pack({ uploads, missing, till, migration, takenAt }) {
  total = 2 * [paths.database, ...uploads.map((u) => u.path)]
    .reduce((sum, path) => sum + fs.statSync(join(staging, path)).size, 0);
  parentPort.postMessage({ type: 'progress', done, total });
  const manifest = {
    format: 1,
    till,
    migration,
    takenAt,
    database: await digest(paths.database),
    uploads: [],
    missing,
  };
  for (const u of uploads) manifest.uploads.push({ key: u.key, ...(await digest(u.path)) });
  fs.writeFileSync(join(staging, paths.manifest), JSON.stringify(manifest, null, 2) + '\\n');
  const entries = [paths.manifest, paths.database, ...(uploads.length ? [paths.uploads] : [])];
  let packed = 0;
  const counted = new Transform({
    transform(part, _encoding, next) {
      // What tar packs is the files and its own headers and padding: count up to the files' bytes.
      const step = Math.min(part.length, total / 2 - packed);
      packed += step;
      if (step > 0) advance(step);
      next(null, part);
    },
  });
  // Compressed here, on this thread at its lower priority, not on the thread pool (where Node's gzip
  // stream runs, level with the event loop): each megabyte of the tar stream becomes one gzip member.
  // Members one after another are one gzip file (RFC 1952), which gunzip, tar and Node read whole.
  let pending = [];
  let size = 0;
  const member = () => {
    const part = gzipSync(Buffer.concat(pending, size));
    pending = [];
    size = 0;
    return part;
  };
  const gzip = new Transform({
    transform(part, _encoding, next) {
      pending.push(part);
      size += part.length;
      next(null, size >= chunk ? member() : undefined);
    },
    flush(next) {
      next(null, size > 0 ? member() : undefined);
    },
  });
  await pipeline(
    tar.c({ cwd: staging, portable: true }, entries),
    counted,
    gzip,
    syncedAsWritten(archive),
  );
  if (done < total) advance(total - done);
  return manifest;
}

// The archive is written to the disk as it grows, a few megabytes at a time, here on this thread: left
// to the system, hundreds of megabytes would wait in memory and then go to the disk at once (when they
// are stored, or when the system's writeback comes for them), and every read and sync of the server's
// on that disk would wait behind them (docs/decisions/021-backup-files-synced-as-they-grow.md).
const archiveSyncs = [];
function syncedAsWritten(path) {
  let fd;
  let unsynced = 0;
  return new Writable({
    highWaterMark: chunk,
    construct(next) {
      fs.open(path, 'w', 0o600, (error, opened) => { fd = opened; next(error); });
    },
    write(part, _encoding, next) {
      try {
        for (let at = 0; at < part.length; ) at += fs.writeSync(fd, part, at);
        unsynced += part.length;
        if (unsynced >= workerData.syncStep) {
          fs.fdatasyncSync(fd);
          archiveSyncs.push(unsynced);
          unsynced = 0;
        }
        next();
      } catch (error) {
        next(error);
      }
    },
    final(next) {
      try {
        fs.fdatasyncSync(fd);
        archiveSyncs.push(unsynced);
        next();
      } catch (error) {
        next(error);
      }
    },
    destroy(error, next) {
      if (fd === undefined) return next(error);
      fs.close(fd, () => next(error));
    },
  });
}

function failed(error) {
  parentPort.postMessage({ type: 'failed', message: String((error && error.message) || error) });
}

try {
  parentPort.postMessage({ type: 'snapshot', ...snapshot() });
  parentPort.once('message', (parts) =>
    pack(parts).then((manifest) => parentPort.postMessage({ type: 'done', manifest, archiveSyncs }), failed),
  );
} catch (error) {
  failed(error);
}
`;

/** How far a backup has come: bytes of the database and uploads hashed and archived, of the total. */
export interface BackupProgress {
  step: 'snapshot' | 'uploads' | 'archive' | 'store';
  /** Bytes done and to do in the `archive` step (each file is read twice: hashed, then packed). */
  done: number;
  total: number;
}

type WorkerMessage =
  | { type: 'snapshot'; keys: string[]; migration: string }
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; manifest: Manifest; archiveSyncs: number[] }
  | { type: 'failed'; message: string };

/** A backup's thread (see BACKUP_WORKER), as the steps of the backup wait for it. */
class BackupThread {
  private readonly worker: Worker;
  private waiting: { resolve: (m: WorkerMessage) => void; reject: (e: Error) => void } | undefined;
  private ended: Error | undefined;

  constructor(
    data: { file: string; staging: string; archive: string; syncStep: number; nice: number },
    private readonly onProgress: (done: number, total: number) => void,
  ) {
    this.worker = new Worker(BACKUP_WORKER, {
      eval: true,
      workerData: {
        ...data,
        chunk: CHUNK,
        paths: ARCHIVE,
        driver: requireHere.resolve('better-sqlite3'),
        tar: requireHere.resolve('tar'),
      },
    });
    this.worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') return this.onProgress(m.done, m.total);
      const waiting = this.waiting;
      this.waiting = undefined;
      if (m.type === 'failed') waiting?.reject(new Error(`the backup failed: ${m.message}`));
      else waiting?.resolve(m);
    });
    const end = (error: Error) => {
      this.ended ??= error;
      this.waiting?.reject(this.ended);
      this.waiting = undefined;
    };
    this.worker.on('error', end);
    this.worker.on('exit', (code) => end(new Error(`the backup's thread stopped (code ${code})`)));
  }

  /** The thread's next answer other than progress. */
  next(): Promise<WorkerMessage> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  send(message: unknown): void {
    this.worker.postMessage(message);
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/** Size and SHA-256 of a file. */
export async function digestOf(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  // Each chunk takes a turn of the event loop: at the default 64 KB a gigabyte took thousands of them,
  // minutes on a server busy with requests. A 1 MB chunk hashes in about 2 ms.
  await pipeline(createReadStream(path, { highWaterMark: CHUNK }), hash);
  return { size: (await stat(path)).size, sha256: hash.digest('hex') };
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
  /** Told as the backup goes from step to step, and of the bytes its thread has hashed and packed. */
  onProgress?: (progress: BackupProgress) => void;
  /**
   * Holds the server's writer off checkpointing itself for the whole backup, until its checkpoint
   * thread has caught up (`BackgroundCheckpoints.holdWriter`); answers the release. The writer's own
   * checkpoints sync the database file on the event loop, and while a backup writes its copy and its
   * archive that sync waits behind them at the disk (about 190 ms at a time against a 300 MB one).
   */
  holdCheckpoints?: () => () => void;
  /** Bytes written between syncs to the disk, of the database's copy and of the archive (8 MiB). */
  syncStep?: number;
  /**
   * How far below the event loop the backup's thread runs (Linux nice, 0 to 19; {@link BACKUP_THREAD_NICE}
   * by default). Test servers run it at 0: beside a test run's other processes, a niced thread waits
   * behind all of them, and a backup of a few kilobytes took seconds.
   */
  threadNice?: number;
}

export interface TakenBackup extends StoredBackup {
  manifest: Manifest;
  /** Older backups removed to keep `keep`. */
  removed: string[];
  /** The bytes of the archive each of its syncs to the disk wrote, in order, the last one included. */
  archiveSyncs: number[];
}

/**
 * Takes a backup of a SQLite server while it serves: a snapshot of the database, then the uploads its
 * rows name (uploads are written once under new keys, never changed in place), a manifest with their
 * sizes and checksums, all in one gzipped tar archive that is stored under its name only once complete.
 * Then the oldest backups beyond `keep` are removed. The copy, the hashing and the packing run on a
 * thread of their own (BACKUP_WORKER); the event loop only streams the uploads in and the archive out.
 */
export async function takeBackup(parts: BackupParts): Promise<TakenBackup> {
  const takenAt = parts.now();
  const tell = parts.onProgress ?? (() => undefined);
  // The copy is staged beside the database, on its disk: a temporary folder may be in memory, and
  // would have to hold the whole database. What a backup cut short (a crash) left there goes first:
  // one process has the file, and it takes one backup at a time.
  const beside = dirname(parts.databaseFile);
  for (const name of await readdir(beside)) if (name.startsWith(STAGING)) await removeGradually(join(beside, name));
  const staging = await mkdtemp(join(beside, STAGING));
  const archive = join(staging, 'archive.tar.gz');
  let thread: BackupThread | undefined;
  let copying: GrowingFileSync | undefined;
  let releaseCheckpoints: () => void = () => undefined;
  try {
    await mkdir(join(staging, dirname(ARCHIVE.database)), { recursive: true });
    tell({ step: 'snapshot', done: 0, total: 0 });
    if (parts.holdCheckpoints) releaseCheckpoints = parts.holdCheckpoints();
    const syncStep = parts.syncStep ?? 8 * 1024 * 1024;
    const nice = threadNice(parts.threadNice ?? BACKUP_THREAD_NICE);
    thread = new BackupThread({ file: parts.databaseFile, staging, archive, syncStep, nice }, (done, total) =>
      tell({ step: 'archive', done, total }),
    );
    // The copy goes to the disk as SQLite writes it, like the archive (decision record 021).
    copying = syncAsItGrows(join(staging, ARCHIVE.database), { step: syncStep });
    const snapshot = await thread.next();
    await copying.stop();
    if (snapshot.type !== 'snapshot') throw new Error(`the backup's thread answered ${snapshot.type}`);
    tell({ step: 'uploads', done: 0, total: snapshot.keys.length });
    const uploads: { key: string; path: string }[] = [];
    const missing: string[] = [];
    for (const key of snapshot.keys) {
      const body = await parts.storage.get(key);
      if (!body) missing.push(key);
      else {
        const path = `${ARCHIVE.uploads}/${key}`;
        // The body holds its file open until it is read or destroyed.
        await mkdir(dirname(join(staging, path)), { recursive: true }).catch((error: unknown) => {
          body.destroy();
          throw error;
        });
        await pipeline(body, createWriteStream(join(staging, path)));
        uploads.push({ key, path });
      }
      tell({ step: 'uploads', done: uploads.length + missing.length, total: snapshot.keys.length });
    }
    thread.send({
      uploads,
      missing,
      till: tillVersion,
      migration: snapshot.migration,
      takenAt: new Date(takenAt).toISOString(),
    });
    const packed = await thread.next();
    if (packed.type !== 'done') throw new Error(`the backup's thread answered ${packed.type}`);
    const size = (await stat(archive)).size;
    tell({ step: 'store', done: 0, total: size });
    const name = backupName(takenAt);
    await parts.store.save(name, archive);
    const removed = await prune(parts.store, parts.keep);
    return { name, size, takenAt, manifest: packed.manifest, removed, archiveSyncs: packed.archiveSyncs };
  } finally {
    try {
      await Promise.all([thread?.stop(), copying?.stop()]);
      // What of the staged copy is not on the disk yet is written now, while the writer does not
      // checkpoint itself: its first sync after the release would otherwise wait for it.
      await syncFiles(staging).catch(() => undefined);
    } finally {
      releaseCheckpoints();
    }
    // Then removed a few megabytes at a time: freed at once, a copy of the database made the
    // writer's next sync wait for the disk to discard all of it (docs/decisions/020).
    await removeGradually(staging);
  }
}

/** Writes every file under `path` to the disk (on the thread pool). */
async function syncFiles(path: string): Promise<void> {
  for (const entry of await readdir(path, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) await syncFile(join(entry.parentPath, entry.name));
}

/** Removes the oldest backups beyond the latest `keep`; answers their names. */
async function prune(store: BackupStore, keep: number): Promise<string[]> {
  const old = (await store.list()).slice(keep).map((b) => b.name);
  for (const name of old) await store.remove(name);
  return old;
}
