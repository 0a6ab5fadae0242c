import type { Kysely, Migration } from 'kysely';

/**
 * Leases of scheduled jobs: a job runs on the instance that holds its lease, so that any number of
 * server copies on one database run each job once per turn.
 */
export const jobsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('job_leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('last_run_at', 'bigint')
      .execute();
    await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();
    await db.schema.createIndex('link_tokens_expires_idx').on('link_tokens').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('link_tokens_expires_idx').execute();
    await db.schema.dropIndex('sessions_expires_idx').execute();
    await db.schema.dropTable('job_leases').execute();
  },
};
