import type { Kysely, Migration } from 'kysely';

/**
 * Passkeys (WebAuthn credentials) and their one-time challenges, the mark of a deleted account, and
 * the stored objects still to be removed after an account's deletion.
 */
export const passkeysDeletionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // The authenticator's credential id (base64url): what an assertion names, unique across users.
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('device_type', 'text', (c) => c.notNull())
      .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute();

    await db.schema
      .createTable('webauthn_challenges')
      .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      // Null for a sign-in: the user is known only from the credential the assertion names.
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webauthn_challenges_expires_idx')
      .on('webauthn_challenges')
      .column('expires_at')
      .execute();

    await db.schema.alterTable('users').addColumn('deleted_at', 'bigint').execute();

    await db.schema
      .createTable('object_removals')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('object_removals').execute();
    await db.schema.alterTable('users').dropColumn('deleted_at').execute();
    await db.schema.dropTable('webauthn_challenges').execute();
    await db.schema.dropTable('passkeys').execute();
  },
};
