import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, FilesTable } from '../../db/schema.js';

export type FileRow = Selectable<FilesTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** SQL for files and the bytes each user holds. Every method takes an optional transaction. */
export class FilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private x(trx?: Executor): Executor {
    return trx ?? this.db;
  }

  async insertFiles(rows: FilesTable[], trx?: Executor): Promise<void> {
    if (rows.length) await this.x(trx).insertInto('files').values(rows).execute();
  }

  findById(id: string, trx?: Executor): Promise<FileRow | undefined> {
    return this.x(trx).selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** One page of a user's files, newest first. */
  listByUser(userId: string, limit: number, offset: number): Promise<FileRow[]> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countByUser(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Deletes a file row and answers it; `ownerId` limits the delete to that owner's files. */
  deleteFile(id: string, ownerId: string | undefined, trx?: Executor): Promise<FileRow | undefined> {
    let q = this.x(trx).deleteFrom('files').where('id', '=', id);
    if (ownerId) q = q.where('user_id', '=', ownerId);
    return q.returningAll().executeTakeFirst();
  }

  async usedBytes(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('file_usage')
      .select('used_bytes')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.used_bytes ?? 0);
  }

  /**
   * Adds `bytes` to the user's usage only if the total stays within `quota`; answers whether it
   * did. One guarded UPDATE: on PostgreSQL the row lock makes a concurrent upload wait and then
   * re-check the new total; SQLite runs one writer at a time.
   */
  async reserve(userId: string, bytes: number, quota: number, trx?: Executor): Promise<boolean> {
    const x = this.x(trx);
    await x
      .insertInto('file_usage')
      .values({ user_id: userId, used_bytes: 0 })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const res = await x
      .updateTable('file_usage')
      .set((eb) => ({ used_bytes: eb('used_bytes', '+', bytes) }))
      .where('user_id', '=', userId)
      .where((eb) => eb(eb('used_bytes', '+', bytes), '<=', quota))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async release(userId: string, bytes: number, trx?: Executor): Promise<void> {
    await this.x(trx)
      .updateTable('file_usage')
      .set((eb) => ({ used_bytes: eb('used_bytes', '-', bytes) }))
      .where('user_id', '=', userId)
      .execute();
  }
}
