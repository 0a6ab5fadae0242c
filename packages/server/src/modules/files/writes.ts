import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Liveness } from '../../db/liveness.js';
import type { Database } from '../../db/schema.js';
import type { ObjectStorage } from './storage/storage.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Objects written to storage before their file rows exist. An upload stores each file as it
 * arrives and records them all at the end, so a crash in between leaves objects no row names; in a
 * bucket shared by several instances those cannot be told from another instance's upload under way
 * by looking at the bucket. So each write is recorded, with its instance, before it begins, and
 * forgotten in the transaction that records the file (or once its object is removed): a recorded
 * write whose instance is no longer running is a leftover, and {@link removeAbandoned} removes it.
 */
export class StorageWrites {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly storage: ObjectStorage,
    private readonly liveness: Liveness,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number,
  ) {}

  /** Records that this instance is about to write `key`. */
  async begin(key: string): Promise<void> {
    await this.db
      .insertInto('storage_writes')
      .values({ key, holder: this.liveness.id, started_at: this.now() })
      .execute();
  }

  /** The writes are done with: their objects are recorded as files, or removed. */
  async forget(keys: string[], trx: Executor = this.db): Promise<void> {
    if (keys.length) await trx.deleteFrom('storage_writes').where('key', 'in', keys).execute();
  }

  /**
   * Removes the objects of writes whose instance has stopped without finishing them (a crash, a
   * SIGKILL, a lost machine): at start, and on a schedule for instances that die meanwhile. Answers
   * how many were removed.
   */
  async removeAbandoned(): Promise<number> {
    const rows = await this.db
      .selectFrom('storage_writes')
      .select(['key', 'holder'])
      .where('holder', '!=', this.liveness.id)
      .execute();
    const holders = new Map<string, string[]>();
    for (const row of rows) holders.set(row.holder, [...(holders.get(row.holder) ?? []), row.key]);
    let removed = 0;
    for (const [holder, keys] of holders) {
      if (await this.liveness.alive(holder)) continue;
      for (const key of keys) {
        // Forgotten in the transaction that records the file, so a recorded one is never here;
        // the check keeps a file from ever losing its bytes should that change.
        const recorded = await this.db
          .selectFrom('files')
          .select('id')
          .where('storage_key', '=', key)
          .executeTakeFirst();
        if (!recorded) await this.storage.delete(key);
        await this.forget([key]);
        removed += 1;
      }
    }
    if (removed) this.log.info({ removed }, 'removed uploads left unfinished by a stopped instance');
    return removed;
  }
}
