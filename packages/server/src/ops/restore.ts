import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import * as tar from 'tar';
import { connect } from '../db/connect.js';
import { migrateToLatest, migrations } from '../db/migrate.js';
import { ARCHIVE, digestOf, tillVersion, type ArchivedFile, type Manifest } from './backup.js';

const SqliteDriver = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;

/** The form of the storage keys the server makes (`f/ab/ID`, `avatars/ID`). */
const STORAGE_KEY = /^[a-z]+(\/[A-Za-z0-9_-]{1,64}){1,3}$/;

/** A restore that was refused, and why: the message is for the operator. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

export interface RestoreOptions {
  archive: string;
  /** The data folder: the database goes to `till.db` in it, the uploads to `uploads/`. */
  dataDir: string;
  /** Replace what the folder holds (never while a server has its database open). */
  force?: boolean;
}

export interface Restored {
  manifest: Manifest;
  databaseFile: string;
  uploadsDir: string;
  /** Migrations applied after the restore because the archive was older than this Till. */
  migrated: string[];
}

/**
 * Restores a backup archive into a data folder: checks that the archive is whole (gzip and tar
 * framing, then every file's size and SHA-256 against the manifest), that this Till knows every
 * migration its database had, then puts the database and the uploads in place and runs the newer
 * migrations. Refuses a folder that holds data unless `force`, and a database a server has open.
 */
export async function restoreArchive(options: RestoreOptions): Promise<Restored> {
  const dataDir = resolve(options.dataDir);
  const databaseFile = join(dataDir, 'till.db');
  const uploadsDir = join(dataDir, 'uploads');
  await clearDataDir(dataDir, databaseFile, options.force ?? false);
  if (!existsSync(options.archive)) throw new RestoreRefused(`${options.archive} does not exist`);

  await mkdir(dirname(dataDir), { recursive: true });
  const staging = await mkdtemp(join(dirname(dataDir), '.till-restore-'));
  try {
    await extract(options.archive, staging);
    const manifest = await readManifest(staging);
    await verify(staging, manifest);
    const applied = appliedMigrations(join(staging, ARCHIVE.database));
    const unknown = applied.filter((m) => !(m in migrations));
    if (unknown.length) {
      throw new RestoreRefused(
        `the archive is from a newer Till (${manifest.till}, migration ${unknown.at(-1)}), and this Till (${tillVersion}) ` +
          `knows migrations up to ${Object.keys(migrations).at(-1)}: restore it with that Till or a newer one`,
      );
    }
    await mkdir(dataDir, { recursive: true });
    await rename(join(staging, ARCHIVE.database), databaseFile);
    await mkdir(uploadsDir, { recursive: true });
    for (const upload of manifest.uploads) {
      const target = join(uploadsDir, upload.key);
      await mkdir(dirname(target), { recursive: true });
      await rename(join(staging, upload.path), target);
    }
    const db = await connect(`sqlite:${databaseFile}`);
    try {
      await migrateToLatest(db.kysely, db.dialect);
    } finally {
      await db.close();
    }
    const migrated = appliedMigrations(databaseFile).filter((m) => !applied.includes(m));
    return { manifest, databaseFile, uploadsDir, migrated };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Refuses a folder with data in it unless forced; forced, removes the database and uploads once no server has them open. */
async function clearDataDir(dataDir: string, databaseFile: string, force: boolean): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!entries.length) return;
  if (!force)
    throw new RestoreRefused(
      `${dataDir} is not empty: restore into an empty folder, or pass --force to replace its data`,
    );
  if (existsSync(databaseFile)) {
    // The server's lock on the file (decision 001): taking it proves that no server has it open.
    try {
      const db = await connect(`sqlite:${databaseFile}`);
      await db.close();
    } catch (error) {
      throw new RestoreRefused(
        `${databaseFile} is open: stop the server before restoring over it (${(error as Error).message})`,
      );
    }
  }
  for (const name of ['till.db', 'till.db-wal', 'till.db-shm', 'till.db-owner', 'uploads'])
    await rm(join(dataDir, name), { recursive: true, force: true });
}

async function extract(archive: string, into: string): Promise<void> {
  try {
    await tar.x({ file: archive, cwd: into, strict: true });
  } catch (error) {
    const e = error as { message?: string; code?: string };
    if (
      /unexpected end of file/i.test(e.message ?? '') ||
      e.code === 'Z_BUF_ERROR' ||
      /truncated/i.test(e.message ?? '')
    )
      throw new RestoreRefused(`the archive is truncated: it ends before its last file (${e.message})`);
    throw new RestoreRefused(`the archive is corrupt: ${e.message ?? String(error)}`);
  }
}

async function readManifest(staging: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(staging, ARCHIVE.manifest), 'utf8')) as Manifest;
  } catch (error) {
    throw new RestoreRefused(`the archive is corrupt: it has no readable manifest (${(error as Error).message})`);
  }
  if (manifest.format !== 1 || !manifest.database || !Array.isArray(manifest.uploads))
    throw new RestoreRefused('the archive is corrupt: its manifest is not one Till writes');
  return manifest;
}

/** Every file the manifest lists is there, with its size and checksum. */
async function verify(staging: string, manifest: Manifest): Promise<void> {
  for (const upload of manifest.uploads) {
    // A key is one the server could have made, and its file sits where the archive puts uploads: a
    // manifest cannot send a file anywhere else.
    if (!STORAGE_KEY.test(upload.key) || upload.path !== `${ARCHIVE.uploads}/${upload.key}`)
      throw new RestoreRefused(`the archive is corrupt: its manifest names an upload ${JSON.stringify(upload.key)}`);
  }
  if (manifest.database.path !== ARCHIVE.database)
    throw new RestoreRefused('the archive is corrupt: its manifest puts the database elsewhere');
  const files: ArchivedFile[] = [manifest.database, ...manifest.uploads];
  for (const file of files) {
    const path = join(staging, file.path);
    if (!path.startsWith(staging + '/')) throw new RestoreRefused(`the archive is corrupt: ${file.path} is outside it`);
    let found: { size: number; sha256: string };
    try {
      await stat(path);
      found = await digestOf(path);
    } catch {
      throw new RestoreRefused(`the archive is truncated: ${file.path} is missing`);
    }
    if (found.size !== file.size)
      throw new RestoreRefused(
        `the archive is corrupt: ${file.path} has ${found.size} bytes, its manifest says ${file.size}`,
      );
    if (found.sha256 !== file.sha256)
      throw new RestoreRefused(`the archive is corrupt: the checksum of ${file.path} does not match its manifest`);
  }
}

/** The migrations a database has had, in order. */
function appliedMigrations(file: string): string[] {
  const db = new SqliteDriver(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all() as string[];
  } finally {
    db.close();
  }
}
