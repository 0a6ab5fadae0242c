import type { Kysely, Migration } from 'kysely';

/**
 * Social sign-in (see `modules/accounts/social.ts`): the providers linked to each account, and the
 * single-use values of a sign-in in progress (a flow's state, a native sign-in's nonce, the ticket
 * the browser comes back with, a pending link and its mailed confirmation).
 */
export const socialIdentitiesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('social_identities')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      // The provider's `sub`: stable for the account at that provider, unlike the address.
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addUniqueConstraint('social_identities_subject_key', ['provider', 'subject'])
      .execute();
    await db.schema.createIndex('social_identities_user_idx').on('social_identities').column('user_id').execute();
    await db.schema
      .createTable('social_flows')
      // SHA-256 of the value handed out: a copy of the table gives none of them.
      .addColumn('value_hash', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      // JSON text: a flow's PKCE verifier and nonce, or the identity a provider vouched for.
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('social_flows_expires_idx').on('social_flows').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('social_flows').execute();
    await db.schema.dropTable('social_identities').execute();
  },
};
