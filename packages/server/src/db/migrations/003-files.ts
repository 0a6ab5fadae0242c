import { sql, type Kysely, type Migration } from 'kysely';

export const filesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // The display name only; storage keys never derive from what a client sent.
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull().unique())
      .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('files_user_created_idx').on('files').columns(['user_id', 'created_at']).execute();

    // Bytes each user holds, kept beside the rows so that the quota check is one guarded update
    // (which concurrent uploads cannot both slip through) rather than a SUM that races.
    await db.schema
      .createTable('file_usage')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('used_bytes', 'bigint', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`used_bytes >= 0`),
      )
      .execute();

    // Avatars are served by their key; only a key that is some user's current avatar is served.
    await db.schema.createIndex('users_avatar_key_idx').on('users').column('avatar_key').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('users_avatar_key_idx').execute();
    await db.schema.dropTable('file_usage').execute();
    await db.schema.dropTable('files').execute();
  },
};
