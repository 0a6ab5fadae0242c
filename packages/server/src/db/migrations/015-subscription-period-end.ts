import type { Kysely, Migration } from 'kysely';

/**
 * When the buyer asked a subscription to end at the end of the period paid for (Stripe's cancel at
 * period end): it is not renewed after that, and runs until then.
 */
export const subscriptionPeriodEndMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('orders').addColumn('period_end_requested_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('orders').dropColumn('period_end_requested_at').execute();
  },
};
