import { sql, type Kysely, type Migration } from 'kysely';

export const accountsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('pending_email', 'text')
      .addColumn('avatar_file_id', 'text')
      .addColumn('avatar_key', 'text')
      // The balance is kept beside the ledger; the CHECK makes the database refuse a negative one
      // even if a bug in the code tried.
      .addColumn('credits', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`credits >= 0`),
      )
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint')
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('link_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('new_email', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('link_tokens_user_idx').on('link_tokens').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('link_tokens').execute();
    await db.schema.dropTable('sessions').execute();
    await db.schema.dropTable('users').execute();
  },
};
