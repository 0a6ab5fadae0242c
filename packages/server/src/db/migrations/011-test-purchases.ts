import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `orders.sandbox`: 1 for an order a store paid with a test purchase (Apple's sandbox, a Google Play
 * license tester), which took no money; administrators tell these from sales.
 */
export const testPurchasesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('orders')
      .addColumn('sandbox', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`sandbox IN (0, 1)`),
      )
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('orders').dropColumn('sandbox').execute();
  },
};
