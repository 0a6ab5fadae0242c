import type { AdminOrder, Order, OrderStatusValue } from '@till/protocol';
import { iso, pageOf, type Executor } from '../../db/rows.js';
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

/** Orders with their buyers and payments, for administrators (three queries, whatever the page size). */
export async function listAdminOrders(
  x: Executor,
  f: OrderFilters,
  page: { page: number; pageSize: number },
): Promise<{ orders: AdminOrder[]; total: number }> {
  const { orders, total } = await listOrders(x, f, page);
  return { orders: await withBuyersAndPayments(x, orders), total };
}

/** One order with its buyer and payment, for administrators. */
export async function adminOrderOf(x: Executor, order: Order): Promise<AdminOrder> {
  const [admin] = await withBuyersAndPayments(x, [order]);
  if (!admin) throw new Error(`order ${order.iden} vanished`);
  return admin;
}

async function withBuyersAndPayments(x: Executor, orders: Order[]): Promise<AdminOrder[]> {
  if (!orders.length) return [];
  const idens = orders.map((o) => o.iden);
  const rows = await x
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .select([
      'orders.id',
      'users.id as user_id',
      'users.email',
      'orders.refund_requested_at',
      'orders.shortfall_credits',
      'orders.subscription_ended_at',
      'orders.refunded_amount',
      'orders.sandbox',
    ])
    .where('orders.id', 'in', idens)
    .execute();
  const refs = await x
    .selectFrom('payment_refs')
    .select(['order_id', 'kind', 'ref'])
    .where('order_id', 'in', idens)
    .orderBy('created_at')
    .orderBy('ref')
    .execute();
  const byOrder = new Map(rows.map((r) => [r.id, r]));
  return orders.map((o) => {
    const row = byOrder.get(o.iden);
    return {
      ...o,
      userId: row?.user_id ?? '',
      email: row?.email ?? '',
      payment: {
        refs: refs.filter((r) => r.order_id === o.iden).map((r) => ({ kind: r.kind, ref: r.ref })),
        refundRequestedAt: row?.refund_requested_at != null ? iso(row.refund_requested_at) : null,
        shortfallCredits: row?.shortfall_credits ?? 0,
        subscriptionEndedAt: row?.subscription_ended_at != null ? iso(row.subscription_ended_at) : null,
        refundedAmount: row?.refunded_amount ?? 0,
        sandbox: row?.sandbox === 1,
      },
    };
  });
}
