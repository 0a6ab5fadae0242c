import type { AdminOrder, Order, OrderStatusValue } from '@till/protocol';
import { sql } from 'kysely';
import { iso, pageOf, type Executor } from '../../db/rows.js';
import type { StoreAccounts, StoreDeps } from './deps.js';
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
  /** The order's number as buyers see it (`#30310E`, any case) or part of the buyer's e-mail address. */
  query?: string | undefined;
}

/** The number buyers see for an order, `#` left out: the last six characters of its iden (the web app's `orderRef`). */
const ORDER_NUMBER = /^#?([0-9a-z]{6})$/i;

/** A LIKE pattern that finds `text` as itself (`%`, `_` and `\` included), inside or at the end. */
function likePattern(text: string, where: 'inside' | 'end'): string {
  const escaped = text.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`);
  return where === 'end' ? `%${escaped}` : `%${escaped}%`;
}

function filtered(x: Executor, f: OrderFilters, accounts?: StoreAccounts) {
  let q = x.selectFrom('orders');
  if (f.userId) q = q.where('orders.user_id', '=', f.userId);
  if (f.status) q = q.where('orders.status', '=', f.status);
  if (f.provider) q = q.where('orders.provider', '=', f.provider);
  if (f.couponCode) q = q.where('orders.coupon_code', '=', f.couponCode.toUpperCase());
  if (f.from) q = q.where('orders.created_at', '>=', Date.parse(f.from));
  if (f.to) q = q.where('orders.created_at', '<', Date.parse(f.to));
  if (f.query) {
    const email = likePattern(f.query, 'inside');
    const number = ORDER_NUMBER.exec(f.query)?.[1];
    q = q.where((eb) =>
      eb.or([
        ...(accounts ? [accounts.emailLike(eb.ref('orders.user_id'), email)] : []),
        ...(number ? [eb(sql<string>`lower(orders.id)`, 'like', likePattern(number, 'end'))] : []),
      ]),
    );
  }
  return q;
}

/** A page of orders, newest first, with the number of all that match. */
export async function listOrders(
  x: Executor,
  f: OrderFilters,
  page: { page: number; pageSize: number },
  accounts?: StoreAccounts,
): Promise<{ orders: Order[]; total: number }> {
  const { offset, limit } = pageOf(page);
  const rows = await filtered(x, f, accounts)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  const count = await filtered(x, f, accounts)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { orders: await withItems(x, rows), total: Number(count.n) };
}

/** Where administrators' order views find buyers and payments, which other modules own. */
export type AdminPorts = Pick<StoreDeps, 'accounts' | 'paymentRefs'>;

/** Orders with their buyers, payments and refunds, for administrators (five queries, whatever the page size). */
export async function listAdminOrders(
  x: Executor,
  f: OrderFilters,
  page: { page: number; pageSize: number },
  ports: AdminPorts,
): Promise<{ orders: AdminOrder[]; total: number }> {
  const { orders, total } = await listOrders(x, f, page, ports.accounts);
  return { orders: await withBuyersAndPayments(x, orders, ports), total };
}

/** One order with its buyer and payment, for administrators. */
export async function adminOrderOf(x: Executor, order: Order, ports: AdminPorts): Promise<AdminOrder> {
  const [admin] = await withBuyersAndPayments(x, [order], ports);
  if (!admin) throw new Error(`order ${order.iden} vanished`);
  return admin;
}

async function withBuyersAndPayments(x: Executor, orders: Order[], ports: AdminPorts): Promise<AdminOrder[]> {
  if (!orders.length) return [];
  const idens = orders.map((o) => o.iden);
  const rows = await x
    .selectFrom('orders')
    .select([
      'orders.id',
      'orders.user_id',
      'orders.refund_requested_at',
      'orders.shortfall_credits',
      'orders.subscription_ended_at',
      'orders.refunded_amount',
      'orders.sandbox',
    ])
    .where('orders.id', 'in', idens)
    .execute();
  const refs = (await ports.paymentRefs?.(x, idens)) ?? [];
  const refunds = await x
    .selectFrom('order_refunds')
    .select(['order_id', 'amount', 'currency', 'keeps_grants', 'reason', 'created_at', 'admin_id'])
    .where('order_refunds.order_id', 'in', idens)
    .orderBy('order_refunds.created_at')
    .orderBy('order_refunds.id')
    .execute();
  const people = [...rows.map((r) => r.user_id), ...refunds.flatMap((r) => (r.admin_id ? [r.admin_id] : []))];
  const emails = (await ports.accounts?.emailsOf(x, people)) ?? new Map<string, { email: string; deleted: boolean }>();
  const byOrder = new Map(rows.map((r) => [r.id, r]));
  return orders.map((o) => {
    const row = byOrder.get(o.iden);
    return {
      ...o,
      userId: row?.user_id ?? '',
      email: (row && emails.get(row.user_id)?.email) ?? '',
      payment: {
        refs: refs.filter((r) => r.order_id === o.iden).map((r) => ({ kind: r.kind, ref: r.ref })),
        refundRequestedAt: row?.refund_requested_at != null ? iso(row.refund_requested_at) : null,
        shortfallCredits: row?.shortfall_credits ?? 0,
        subscriptionEndedAt: row?.subscription_ended_at != null ? iso(row.subscription_ended_at) : null,
        refundedAmount: row?.refunded_amount ?? 0,
        sandbox: row?.sandbox === 1,
      },
      refundHistory: refunds
        .filter((r) => r.order_id === o.iden)
        .map((r) => ({
          amount: { amount: r.amount, currency: r.currency },
          keptGrants: r.keeps_grants === 1,
          reason: r.reason,
          by: byAdmin(r.admin_id ? emails.get(r.admin_id) : undefined),
          at: iso(r.created_at),
        })),
    };
  });
}

/** Who made a refund, as administrators see it: their address, or nobody once their account is gone. */
function byAdmin(admin: { email: string; deleted: boolean } | undefined): string | null {
  return admin && !admin.deleted ? admin.email : null;
}
