import type { AdminOrder, Order, OrderStatusValue } from '@till/protocol';
import { pageOf, type Executor } from '../../db/rows.js';
import { withItems } from './order-view.js';

/** Filters of order lists; every one is optional. */
export interface OrderFilters {
  userId?: string | undefined;
  status?: OrderStatusValue | undefined;
  provider?: string | undefined;
  couponCode?: string | undefined;
  /** ISO times: created at or after `from`, before `to`. */
  from?: string | undefined;
  to?: string | undefined;
}

function filtered(x: Executor, f: OrderFilters) {
  let q = x.selectFrom('orders');
  if (f.userId) q = q.where('orders.user_id', '=', f.userId);
  if (f.status) q = q.where('orders.status', '=', f.status);
  if (f.provider) q = q.where('orders.provider', '=', f.provider);
  if (f.couponCode) q = q.where('orders.coupon_code', '=', f.couponCode.toUpperCase());
  if (f.from) q = q.where('orders.created_at', '>=', Date.parse(f.from));
  if (f.to) q = q.where('orders.created_at', '<', Date.parse(f.to));
  return q;
}

/** A page of orders, newest first, with the number of all that match. */
export async function listOrders(
  x: Executor,
  f: OrderFilters,
  page: { page: number; pageSize: number },
): Promise<{ orders: Order[]; total: number }> {
  const { offset, limit } = pageOf(page);
  const rows = await filtered(x, f)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  const count = await filtered(x, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { orders: await withItems(x, rows), total: Number(count.n) };
}

/** Orders with their buyers, for administrators. */
export async function listAdminOrders(
  x: Executor,
  f: OrderFilters,
  page: { page: number; pageSize: number },
): Promise<{ orders: AdminOrder[]; total: number }> {
  const { orders, total } = await listOrders(x, f, page);
  const owners = orders.length
    ? await x
        .selectFrom('orders')
        .innerJoin('users', 'users.id', 'orders.user_id')
        .select(['orders.id', 'users.id as user_id', 'users.email'])
        .where(
          'orders.id',
          'in',
          orders.map((o) => o.iden),
        )
        .execute()
    : [];
  const byOrder = new Map(owners.map((o) => [o.id, o]));
  return {
    orders: orders.map((o) => ({
      ...o,
      userId: byOrder.get(o.iden)?.user_id ?? '',
      email: byOrder.get(o.iden)?.email ?? '',
    })),
    total,
  };
}

/** One order with its buyer, for administrators. */
export async function adminOrderOf(x: Executor, order: Order): Promise<AdminOrder> {
  const owner = await x
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .select(['users.id', 'users.email'])
    .where('orders.id', '=', order.iden)
    .executeTakeFirstOrThrow();
  return { ...order, userId: owner.id, email: owner.email };
}
