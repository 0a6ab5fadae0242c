import type { Kysely, Migration } from 'kysely';

/**
 * The second factor (TOTP secret, recovery codes, login challenges), the devices a user has signed
 * in from, and the per-user security log.
 */
export const securityMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_totp')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      // AES-256-GCM of the base32 secret: a copy of the table alone gives no codes.
      .addColumn('secret_enc', 'text', (c) => c.notNull())
      // Null while set up but not yet confirmed with a code.
      .addColumn('enabled_at', 'bigint')
      // The last time step a code was accepted for: no code of that step or before is taken again.
      .addColumn('last_step', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('recovery_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').column('user_id').execute();

    await db.schema
      .createTable('login_challenges')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('login_challenges_expires_idx').on('login_challenges').column('expires_at').execute();

    await db.schema
      .createTable('known_devices')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('device_hash', 'text', (c) => c.notNull())
      .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'device_hash'])
      .execute();

    // No foreign key: an entry outlives what it tells of (a removed account's last entries stay
    // until the retention job takes them).
    await db.schema
      .createTable('security_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('actor_id', 'text')
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('security_log_user_idx').on('security_log').columns(['user_id', 'at']).execute();
    await db.schema.createIndex('security_log_at_idx').on('security_log').column('at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('security_log').execute();
    await db.schema.dropTable('known_devices').execute();
    await db.schema.dropTable('login_challenges').execute();
    await db.schema.dropTable('recovery_codes').execute();
    await db.schema.dropTable('user_totp').execute();
  },
};
