import type { Kysely, Migration } from 'kysely';

/**
 * Apple's server-to-server notifications (`modules/accounts/apple-notifications.ts`): when the
 * person turns mail forwarding off for an app, Apple's relay address stops delivering; the linked
 * identity records since when (null: it delivers).
 */
export const appleRelayDeliveryMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('social_identities').addColumn('email_disabled_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('social_identities').dropColumn('email_disabled_at').execute();
  },
};
