import type { Kysely, Migration } from 'kysely';

/**
 * Objects being written to storage and not yet recorded as files, with the server instance writing
 * them: what a crashed instance leaves in a shared bucket can then be told from what a live one is
 * still writing, and removed.
 */
export const storageWritesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('storage_writes')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('storage_writes_holder_idx').on('storage_writes').column('holder').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('storage_writes').execute();
  },
};
