import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Payment routes that call out: the provider's references for each order (a checkout session, a
 * payment intent, a subscription), refunds asked of a provider and not yet confirmed, what a
 * reversal could not take back, and users flagged for an administrator.
 */
export const paymentsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // Provider events name the provider's own objects; this finds their order. A reference belongs
    // to one order for good, so the key is the reference itself.
    await db.schema
      .createTable('payment_refs')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('ref', 'text', (c) => c.notNull())
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('payment_refs_pk', ['provider', 'ref'])
      .execute();
    await db.schema.createIndex('payment_refs_order_idx').on('payment_refs').columns(['order_id', 'kind']).execute();

    await db.schema.alterTable('orders').addColumn('refund_requested_at', 'bigint').execute();
    await db.schema
      .alterTable('orders')
      .addColumn('shortfall_credits', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`shortfall_credits >= 0`),
      )
      .execute();
    await db.schema.alterTable('orders').addColumn('subscription_ended_at', 'bigint').execute();
    await db.schema.alterTable('users').addColumn('flagged_at', 'bigint').execute();
    await db.schema.alterTable('users').addColumn('flag_reason', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('flag_reason').execute();
    await db.schema.alterTable('users').dropColumn('flagged_at').execute();
    await db.schema.alterTable('orders').dropColumn('subscription_ended_at').execute();
    await db.schema.alterTable('orders').dropColumn('shortfall_credits').execute();
    await db.schema.alterTable('orders').dropColumn('refund_requested_at').execute();
    await db.schema.dropTable('payment_refs').execute();
  },
};
