import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The store: catalog, coupons, orders, the credits ledger, entitlements and payment events.
 *
 * Races are settled by the database, not by reads in the code: use counters carry CHECKs and are
 * moved by conditional updates, per-buyer uses and provider events have unique keys, and the ledger
 * refuses a negative balance after each entry just as `users.credits` refuses a negative balance.
 */
export const storeMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('products')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('alias', 'text', (c) => c.notNull().unique())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull().check(sql`type IN (0, 1, 2)`))
      .addColumn('price_amount', 'integer', (c) => c.check(sql`price_amount >= 0`))
      .addColumn('price_currency', 'text')
      .addColumn('credit_price', 'integer', (c) => c.check(sql`credit_price >= 0`))
      .addColumn('grant_credits', 'integer', (c) => c.check(sql`grant_credits >= 0`))
      .addColumn('grant_period', 'text')
      .addColumn('image_url', 'text')
      .addColumn('store_ids', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('coupons')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('discount', 'grant')`))
      .addColumn('percent_off', 'integer', (c) => c.check(sql`percent_off BETWEEN 1 AND 100`))
      .addColumn('amount_off', 'integer', (c) => c.check(sql`amount_off >= 0`))
      .addColumn('amount_currency', 'text')
      .addColumn('grant_credits', 'integer', (c) => c.check(sql`grant_credits >= 0`))
      .addColumn('grant_products', 'text')
      .addColumn('applies_to', 'text')
      .addColumn('min_total', 'integer')
      .addColumn('min_total_currency', 'text')
      .addColumn('starts_at', 'bigint')
      .addColumn('ends_at', 'bigint')
      .addColumn('usage_limit', 'integer')
      .addColumn('per_user_limit', 'integer')
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('batch', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      // The last line of defence against a coupon used past its limit.
      .addCheckConstraint('coupons_used_within_limit', sql`used >= 0 AND (usage_limit IS NULL OR used <= usage_limit)`)
      .execute();
    await db.schema.createIndex('coupons_batch_idx').on('coupons').column('batch').execute();

    // One row per (coupon, buyer): the primary key makes two first uses racing collide.
    await db.schema
      .createTable('coupon_uses')
      .addColumn('coupon_code', 'text', (c) => c.notNull().references('coupons.code').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('uses', 'integer', (c) => c.notNull().check(sql`uses >= 0`))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('coupon_uses_pk', ['coupon_code', 'user_id'])
      .execute();

    await db.schema
      .createTable('orders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) =>
        c.notNull().check(sql`status IN ('pending', 'paid', 'failed', 'cancelled', 'refunded')`),
      )
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('subtotal', 'integer', (c) => c.notNull().check(sql`subtotal >= 0`))
      .addColumn('discount', 'integer', (c) => c.notNull().check(sql`discount >= 0`))
      .addColumn('total', 'integer', (c) => c.notNull().check(sql`total >= 0`))
      .addColumn('credits_spent', 'integer', (c) => c.notNull().check(sql`credits_spent >= 0`))
      .addColumn('coupon_code', 'text')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('data', 'text')
      .addColumn('note', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('paid_at', 'bigint')
      .addColumn('closed_at', 'bigint')
      .execute();
    await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('orders_status_idx').on('orders').columns(['status', 'created_at']).execute();

    // Items keep a copy of what the product granted when bought, so a refund reverses exactly that.
    await db.schema
      .createTable('order_items')
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('line', 'integer', (c) => c.notNull())
      .addColumn('product_id', 'text', (c) => c.notNull())
      .addColumn('alias', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('price_amount', 'integer')
      .addColumn('price_currency', 'text')
      .addColumn('credit_price', 'integer')
      .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity >= 1`))
      .addColumn('grant_credits', 'integer')
      .addColumn('grant_period', 'text')
      .addPrimaryKeyConstraint('order_items_pk', ['order_id', 'line'])
      .execute();

    await db.schema
      .createTable('credit_ledger')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount <> 0`))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('reference', 'text')
      .addColumn('balance_after', 'integer', (c) => c.notNull().check(sql`balance_after >= 0`))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('credit_ledger_user_idx').on('credit_ledger').columns(['user_id', 'id']).execute();

    await db.schema
      .createTable('entitlements')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('product_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('ownership', 'subscription')`))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('order_id', 'text')
      .addColumn('starts_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('entitlements_user_idx')
      .on('entitlements')
      .columns(['user_id', 'product_id'])
      .execute();
    await db.schema.createIndex('entitlements_order_idx').on('entitlements').column('order_id').execute();
    // Owning is once: two purchases of one non-consumable racing cannot both grant it.
    await db.schema
      .createIndex('entitlements_owned_once')
      .on('entitlements')
      .columns(['user_id', 'product_id'])
      .unique()
      .where(sql.ref('kind'), '=', 'ownership')
      .where(sql.ref('revoked_at'), 'is', null)
      .execute();

    // A provider's event or transaction id is applied once: the key makes a replay a no-op.
    await db.schema
      .createTable('payment_events')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('order_id', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
      .execute();

    await db.schema
      .createTable('store_meta')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'store_meta',
      'payment_events',
      'entitlements',
      'credit_ledger',
      'order_items',
      'orders',
      'coupon_uses',
      'coupons',
      'products',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
