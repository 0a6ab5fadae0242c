import type { Job } from '../../db/jobs.js';
import type { Executor } from '../../db/rows.js';
import type { FilesService } from './service.js';

/** How many recorded removals one turn of the job retries. */
const BATCH = 200;

/**
 * Removing a deleted account's stored objects. Their rows go in the deletion's transaction, and each
 * object's key is recorded in `object_removals` there too; once the transaction has committed the
 * objects are removed from storage and their records dropped. A removal that fails (storage down)
 * keeps its record, with the attempt counted and the error's message, and the `files.removals` job
 * retries it every few minutes until it succeeds: the keys are never lost between the commit and
 * the storage.
 */
export class ObjectRemovals {
  constructor(private readonly files: FilesService) {}

  /**
   * In `trx`: deletes the user's file rows and usage, and records their objects (and `extraKeys`,
   * such as the avatar copy) for removal. Answers the keys to remove after the commit.
   */
  async queueUserObjects(userId: string, extraKeys: string[], reason: string, trx: Executor): Promise<string[]> {
    const rows = await trx.deleteFrom('files').where('user_id', '=', userId).returning('storage_key').execute();
    await trx.deleteFrom('file_usage').where('user_id', '=', userId).execute();
    const keys = [...new Set([...rows.map((r) => r.storage_key), ...extraKeys])];
    const now = this.files.deps.now();
    for (let i = 0; i < keys.length; i += BATCH) {
      await trx
        .insertInto('object_removals')
        .values(keys.slice(i, i + BATCH).map((key) => ({ key, reason, created_at: now })))
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    }
    return keys;
  }

  /** Removes recorded objects from storage; answers how many went. Failures stay recorded for the job. */
  async remove(keys: string[]): Promise<number> {
    let removed = 0;
    for (const key of keys) {
      try {
        await this.files.deps.storage.delete(key);
        await this.files.deps.db.deleteFrom('object_removals').where('key', '=', key).execute();
        removed += 1;
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        this.files.deps.log.error({ key, err: message }, 'object not removed; retried later');
        await this.files.deps.db
          .updateTable('object_removals')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: message }))
          .where('key', '=', key)
          .execute();
      }
    }
    return removed;
  }

  /** The job that retries removals still recorded. */
  job(): Job {
    return {
      name: 'files.removals',
      everyMs: 5 * 60_000,
      run: async () => {
        const due = await this.files.deps.db
          .selectFrom('object_removals')
          .select('key')
          .orderBy('created_at')
          .limit(BATCH)
          .execute();
        return this.remove(due.map((r) => r.key));
      },
    };
  }
}
