import { sql, type Kysely, type Migration } from 'kysely';

/**
 * What the shop owner's screens need:
 * - `product_texts`: a product's title and description in the other shop languages, one row per
 *   (product, language). A table rather than columns per language, so that a language is added
 *   without a migration and the catalog stays one row per product; the default language stays on
 *   `products` itself, so every reader that knows nothing of translations still reads a text. An
 *   empty field in a row falls back to the default language's.
 * - `orders.refunded_amount`: money given back so far, raised only by a conditional update that
 *   keeps it within the order's total (the CHECK backs it), so two refunds racing cannot give back
 *   more than was paid.
 * - `order_refunds`: each refund an administrator made, with its amount, whether it left the
 *   grants, and who made it.
 */
export const shopAdminMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('product_texts')
      .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('product_texts_pk', ['product_id', 'lang'])
      .execute();
    await db.schema
      .alterTable('orders')
      .addColumn('refunded_amount', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`refunded_amount >= 0 AND refunded_amount <= total`),
      )
      .execute();
    await db.schema
      .createTable('order_refunds')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('keeps_grants', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('admin_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('order_refunds_order_idx')
      .on('order_refunds')
      .columns(['order_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('order_refunds').execute();
    await db.schema.alterTable('orders').dropColumn('refunded_amount').execute();
    await db.schema.dropTable('product_texts').execute();
  },
};
