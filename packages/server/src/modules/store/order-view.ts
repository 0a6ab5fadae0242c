import type { Selectable } from 'kysely';
import type { Order, Provider } from '@till/protocol';
import { iso, type Executor } from '../../db/rows.js';
import type { OrderItemsTable, OrdersTable } from '../../db/schema.js';

export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;

/** The order as the protocol shows it. */
export function toOrder(row: OrderRow, items: OrderItemRow[]): Order {
  const money = (amount: number) => ({ amount, currency: row.currency });
  return {
    iden: row.id,
    status: row.status,
    items: items.map((i) => ({
      productId: i.product_id,
      alias: i.alias,
      title: i.title,
      price: i.price_amount != null && i.price_currency ? { amount: i.price_amount, currency: i.price_currency } : null,
      creditPrice: i.credit_price,
      quantity: i.quantity,
    })),
    subtotal: money(row.subtotal),
    discount: money(row.discount),
    total: money(row.total),
    creditsSpent: row.credits_spent,
    couponCode: row.coupon_code,
    provider: row.provider as Provider,
    createdAt: iso(row.created_at),
    paidAt: row.paid_at != null ? iso(row.paid_at) : null,
  };
}

/** Orders with their items, for list pages (two queries, whatever the page size). */
export async function withItems(x: Executor, rows: OrderRow[]): Promise<Order[]> {
  if (!rows.length) return [];
  const items = await x
    .selectFrom('order_items')
    .selectAll()
    .where(
      'order_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('line')
    .execute();
  return rows.map((r) =>
    toOrder(
      r,
      items.filter((i) => i.order_id === r.id),
    ),
  );
}
