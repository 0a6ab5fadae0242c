import type { Kysely, Migration } from 'kysely';

/**
 * Device tokens: a device that signed in to an account keeps a failure budget of its own there, so
 * that guesses from elsewhere cannot lock the owner out (see `modules/accounts/device-tokens.ts`).
 */
export const deviceTokensMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('device_tokens')
      // SHA-256 of the token: a copy of the table gives no tokens.
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('device_tokens_user_idx').on('device_tokens').column('user_id').execute();
    await db.schema.createIndex('device_tokens_used_idx').on('device_tokens').column('last_used_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('device_tokens').execute();
  },
};
