import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Level, type FileInfo } from '@till/protocol';
import type { Config } from '../../config.js';
import type { Database, FilesTable } from '../../db/schema.js';
import { iso, type Executor } from '../../db/rows.js';
import { runInTransaction } from '../../db/transaction.js';
import { AbortTransaction, fail, Failure, type Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import { FileLinks } from './links.js';
import { FilesRepo, type FileRow } from './repo.js';
import type { ObjectStorage } from './storage/storage.js';
import type { StorageWrites } from './writes.js';

export interface FilesDeps {
  db: Kysely<Database>;
  storage: ObjectStorage;
  /** The objects being written, so that a crash's leftovers can be found. */
  writes: StorageWrites;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
  /** The accounts files belong to, which this module does not own. */
  owners: FileOwners;
}

/**
 * What the files module asks of the accounts its files belong to (the accounts module's, handed in
 * by the app): the files module names no table of another module.
 */
export interface FileOwners {
  /**
   * Whether the owner's account is still live, holding its row in `trx` until the end: an account's
   * deletion holds the same row, so on PostgreSQL an upload that commits while a deletion runs waits
   * for it and then sees the account gone, and a deletion that starts while an upload commits waits
   * and then removes that upload's files too; SQLite runs one writer at a time.
   */
  holdLive(userId: string, trx: Executor): Promise<boolean>;
  /** Whether some account shows this avatar copy now. */
  hasAvatar(key: string): Promise<boolean>;
  /** The avatar copy the account shows now, if any. */
  avatarOf(userId: string): Promise<string | null>;
}

/** A file whose bytes are in storage but which has no row yet. */
export interface StagedFile {
  id: string;
  key: string;
  name: string;
  size: number;
  mime: string;
}

/** Storage key of a file: random, sharded by the id's first two characters. */
export function fileKey(id: string): string {
  return `f/${id.slice(0, 2)}/${id}`;
}

/** The rules of files: commit uploads within the quota, list, delete, and turn rows into links. */
export class FilesService {
  readonly repo: FilesRepo;
  readonly links: FileLinks;

  constructor(readonly deps: FilesDeps) {
    this.repo = new FilesRepo(deps.db);
    this.links = new FileLinks(deps.config, deps.now);
  }

  /** The file as the protocol shows it, with a link fit for its viewer. */
  toFile(row: FileRow | FilesTable): FileInfo {
    return {
      id: row.id,
      name: row.name,
      size: row.size,
      mime: row.mime,
      url: this.links.fileUrl(row),
      createdAt: iso(row.created_at),
      public: Boolean(row.public),
    };
  }

  /**
   * Streams an object into storage as a write of this instance: recorded before it begins, so that
   * if the process dies before the file is recorded another instance removes it.
   */
  async store(key: string, body: Readable, mime: string): Promise<void> {
    await this.deps.writes.begin(key);
    try {
      await this.deps.storage.put(key, body, mime);
    } catch (error) {
      // A failed put leaves nothing under the key.
      await this.deps.writes.forget([key]);
      throw error;
    }
  }

  /**
   * Records staged files in one transaction that first reserves their bytes against the quota. On
   * any failure the staged objects are removed, so a refused or failed upload leaves nothing.
   */
  async commit(userId: string, staged: StagedFile[], isPublic: boolean): Promise<Outcome<FileInfo[]>> {
    const now = this.deps.now();
    const rows: FilesTable[] = staged.map((s) => ({
      id: s.id,
      user_id: userId,
      name: s.name,
      size: s.size,
      mime: s.mime,
      storage_key: s.key,
      public: isPublic ? 1 : 0,
      created_at: now,
    }));
    const total = staged.reduce((sum, s) => sum + s.size, 0);
    let outcome: FilesTable[] | Failure;
    try {
      outcome = await runInTransaction(this.deps.db, async (trx) => {
        // An upload that began before its account was deleted must not leave files behind it.
        if (!(await this.deps.owners.holdLive(userId, trx))) throw new AbortTransaction(fail.invalidToken());
        if (!(await this.repo.reserve(userId, total, this.deps.config.upload.quotaBytes, trx))) {
          throw new AbortTransaction(fail.invalidInput('file', 'quota'));
        }
        await this.repo.insertFiles(rows, trx);
        await this.deps.writes.forget(
          staged.map((s) => s.key),
          trx,
        );
        return rows;
      });
    } catch (error) {
      await this.discard(staged);
      throw error;
    }
    if (outcome instanceof Failure) {
      await this.discard(staged);
      return outcome;
    }
    return outcome.map((row) => this.toFile(row));
  }

  /** Removes staged objects that will never get a row. */
  async discard(staged: StagedFile[]): Promise<void> {
    const deleted = await Promise.all(staged.map((s) => this.deleteObject(s.key)));
    // One that could not be deleted stays recorded: it is removed once this instance has stopped.
    await this.deps.writes.forget(staged.filter((_, i) => deleted[i]).map((s) => s.key));
  }

  async list(
    caller: Caller,
    input: { page: number; pageSize: number; userId?: string | undefined },
  ): Promise<Outcome<{ data: { files: FileInfo[]; total: number } }>> {
    const owner = input.userId ?? caller.userId;
    // Another user's files (and so their links) are for administrators only.
    if (owner !== caller.userId && caller.level < Level.Admin) return fail.forbidden(Level.Admin);
    const [rows, total] = await Promise.all([
      this.repo.listByUser(owner, input.pageSize, (input.page - 1) * input.pageSize),
      this.repo.countByUser(owner),
    ]);
    return { data: { files: rows.map((r) => this.toFile(r)), total } };
  }

  /** Deletes a file of the caller (any file, for an administrator): the row, then the object. */
  async remove(caller: Caller, id: string): Promise<Outcome<{ data: object }>> {
    const ownerId = caller.level >= Level.Admin ? undefined : caller.userId;
    const outcome = await runInTransaction(this.deps.db, async (trx) => {
      const row = await this.repo.deleteFile(id, ownerId, trx);
      // Another user's file reads as absent, so ids cannot be probed.
      if (!row) throw new AbortTransaction(fail.notFound('id'));
      await this.repo.release(row.user_id, row.size, trx);
      return row;
    });
    if (outcome instanceof Failure) return outcome;
    // The row goes first: once it is gone the file is no longer served, whatever happens next.
    await this.deleteObject(outcome.storage_key);
    return { data: {} };
  }

  /** Removes an object; answers false (and logs) when the storage refused. */
  async deleteObject(key: string): Promise<boolean> {
    try {
      await this.deps.storage.delete(key);
      return true;
    } catch (error) {
      this.deps.log.error({ key, err: error instanceof Error ? error.message : String(error) }, 'object not deleted');
      return false;
    }
  }
}
