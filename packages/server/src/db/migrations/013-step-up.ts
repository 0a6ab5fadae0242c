import type { Kysely, Migration } from 'kysely';

/** When a session last proved its password (and second factor) again: credential changes need it recent. */
export const stepUpMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('step_up_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').dropColumn('step_up_at').execute();
  },
};
