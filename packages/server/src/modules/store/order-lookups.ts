import { ProductType } from '@till/protocol';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../db/rows.js';
import type { Line } from './catalog.js';
import type { OrderRow } from './order-view.js';

/** What the flows read of orders and what they granted, without naming the store's tables themselves. */

/** An order's row as it is, or undefined. */
export async function findOrderRow(x: Executor, iden: string): Promise<OrderRow | undefined> {
  return x.selectFrom('orders').selectAll().where('id', '=', iden).executeTakeFirst();
}

/** The product ids of an order's lines, in line order. */
export async function productsOf(x: Executor, iden: string): Promise<string[]> {
  const rows = await x
    .selectFrom('order_items')
    .select('product_id')
    .where('order_id', '=', iden)
    .orderBy('line')
    .execute();
  return rows.map((r) => r.product_id);
}

/** The non-consumables among `lines` that the buyer already owns (ids). */
export async function ownedAmong(x: Executor, userId: string, lines: Line[]): Promise<Set<string>> {
  const ids = lines.filter((l) => l.product.type === ProductType.NonConsumable).map((l) => l.product.id);
  if (!ids.length) return new Set();
  const rows = await x
    .selectFrom('entitlements')
    .select('product_id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'ownership')
    .where('revoked_at', 'is', null)
    .where('product_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.product_id));
}

/** When the order's subscription time runs out: the latest end of its live subscription rows. */
export async function subscriptionEndOf(x: Executor, orderId: string): Promise<number | null> {
  const row = await x
    .selectFrom('entitlements')
    .select((eb) => eb.fn.max('expires_at').as('until'))
    .where('order_id', '=', orderId)
    .where('kind', '=', 'subscription')
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.until == null ? null : Number(row.until);
}

/**
 * Paid orders by one of `routes` whose live subscription time ended in `(since, now]`, and for which
 * `untold` (a condition on the order's id, from whoever tells the buyer) holds: at most `limit`.
 */
export async function runOutSubscriptions(
  x: Executor,
  query: {
    routes: readonly string[];
    since: number;
    now: number;
    limit: number;
    untold: (orderId: Expression<string>) => Expression<SqlBool>;
  },
): Promise<{ id: string; user_id: string }[]> {
  // From the entitlements that expired in the window (entitlements_expiry_idx), not from every paid
  // order: an order ran out when one of its live subscriptions ended in the window and none lasts
  // beyond now, which is its latest expiry falling in the window.
  return x
    .selectFrom('entitlements as e')
    .innerJoin('orders as o', 'o.id', 'e.order_id')
    .select(['o.id', 'o.user_id'])
    .distinct()
    .where('e.kind', '=', 'subscription')
    .where('e.revoked_at', 'is', null)
    .where('e.expires_at', '>', query.since)
    .where('e.expires_at', '<=', query.now)
    .where('o.status', '=', 'paid')
    .where('o.provider', 'in', [...query.routes])
    .where(query.untold(sql.ref<string>('o.id')))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('entitlements as later')
            .select('later.id')
            .whereRef('later.order_id', '=', 'o.id')
            .where('later.kind', '=', 'subscription')
            .where('later.revoked_at', 'is', null)
            .where('later.expires_at', '>', query.now),
        ),
      ),
    )
    .limit(query.limit)
    .execute();
}
