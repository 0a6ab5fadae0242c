import type { Kysely, Transaction } from 'kysely';
import type { Order, OrderStatusValue, Provider } from '@till/protocol';
import type { Database } from '../../db/schema.js';
import { runInTransaction } from '../../db/transaction.js';
import { AbortTransaction, Failure, fail } from '../../errors.js';
import type { Line } from './catalog.js';
import { releaseCouponUse } from './coupon-uses.js';
import type { Executor } from '../../db/rows.js';
import { applyGrants, type GrantLine } from './grants.js';
import { newId } from './ids.js';
import { allParams, prepared, preparedInsert } from '../../db/prepared.js';
import { toOrder, type OrderItemRow, type OrderRow } from './order-view.js';

/**
 * Every change of status an order may make. A change that is not here is refused (912), never
 * written: a paid order cannot fail, a refunded one cannot be paid again.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatusValue, readonly OrderStatusValue[]>> = {
  // A provider may confirm a refund or chargeback before its payment: the money came and went back,
  // and nothing was granted.
  pending: ['paid', 'failed', 'cancelled', 'refunded'],
  paid: ['refunded'],
  failed: [],
  cancelled: [],
  refunded: [],
};

/** The statuses an order may be in to move to `to`. */
export function sourcesOf(to: OrderStatusValue): OrderStatusValue[] {
  return (Object.keys(ORDER_TRANSITIONS) as OrderStatusValue[]).filter((from) => ORDER_TRANSITIONS[from].includes(to));
}

export interface NewOrder {
  /** Given when the caller needs the iden before the order exists (a ledger reference). */
  id?: string;
  userId: string;
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  creditsSpent: number;
  couponCode: string | null;
  provider: Provider;
  data: string | null;
  lines: Line[];
  /** Paid by a store's test purchase. */
  sandbox?: boolean;
}

/** A pending order just written, with its rows, so that the caller need not read them back. */
export interface InsertedOrder {
  row: OrderRow;
  items: OrderItemRow[];
}

const insertOrderRow = prepared<OrderRow, never>((db, p) =>
  db.insertInto('orders').values(
    allParams(p, {
      id: 1,
      user_id: 1,
      status: 1,
      currency: 1,
      subtotal: 1,
      discount: 1,
      total: 1,
      credits_spent: 1,
      coupon_code: 1,
      provider: 1,
      data: 1,
      note: 1,
      created_at: 1,
      updated_at: 1,
      paid_at: 1,
      closed_at: 1,
      refund_requested_at: 1,
      shortfall_credits: 1,
      subscription_ended_at: 1,
      period_end_requested_at: 1,
      refunded_amount: 1,
      sandbox: 1,
    }),
  ),
);

const insertItemRows = preparedInsert<OrderItemRow>('order_items', {
  order_id: 1,
  line: 1,
  product_id: 1,
  alias: 1,
  title: 1,
  type: 1,
  price_amount: 1,
  price_currency: 1,
  credit_price: 1,
  quantity: 1,
  grant_credits: 1,
  grant_period: 1,
});

/**
 * Writes an order and its items (with a copy of what each product grants): pending, or already paid
 * when `paid` (an order made and paid in one transaction, such as a purchase with credits: nobody
 * else can see it before the commit, so there is no race for its status to settle).
 */
export async function insertOrder(
  trx: Transaction<Database>,
  order: NewOrder,
  now: number,
  { paid = false }: { paid?: boolean } = {},
): Promise<InsertedOrder> {
  const row: OrderRow = {
    id: order.id ?? newId(now),
    user_id: order.userId,
    status: paid ? 'paid' : 'pending',
    currency: order.currency,
    subtotal: order.subtotal,
    discount: order.discount,
    total: order.total,
    credits_spent: order.creditsSpent,
    coupon_code: order.couponCode,
    provider: order.provider,
    data: order.data,
    note: null,
    created_at: now,
    updated_at: now,
    paid_at: paid ? now : null,
    closed_at: null,
    refund_requested_at: null,
    shortfall_credits: 0,
    subscription_ended_at: null,
    period_end_requested_at: null,
    refunded_amount: 0,
    sandbox: order.sandbox ? 1 : 0,
  };
  const items: OrderItemRow[] = order.lines.map(({ product: p, quantity }, line) => ({
    order_id: row.id,
    line,
    product_id: p.id,
    alias: p.alias,
    title: p.title,
    type: p.type,
    price_amount: p.price_amount,
    price_currency: p.price_currency,
    credit_price: p.credit_price,
    quantity,
    grant_credits: p.grant_credits,
    grant_period: p.grant_period,
  }));
  await insertOrderRow(trx, row);
  await insertItemRows(trx, items);
  return { row, items };
}

/**
 * Writes an order already paid, with its grants, in the caller's transaction: what {@link payOrder}
 * does for an order made earlier, without the status change (see {@link insertOrder}).
 */
export async function insertPaidOrder(
  trx: Transaction<Database>,
  order: NewOrder,
  now: number,
  options: Pick<PayOptions, 'refuseOwned'> = {},
): Promise<Order> {
  return grantPaidOrder(trx, await insertOrder(trx, order, now, { paid: true }), now, options);
}

/**
 * The grants of an order just written paid by {@link insertOrder}, in the same transaction. Apart
 * from {@link insertPaidOrder} for a caller with work between the two (a purchase with credits spends
 * between them, so that the spend is checked before a grant adds credits, and the order's rows are
 * written before the spend locks the buyer's balance).
 */
export async function grantPaidOrder(
  trx: Transaction<Database>,
  { row, items }: InsertedOrder,
  now: number,
  { refuseOwned = false }: Pick<PayOptions, 'refuseOwned'> = {},
): Promise<Order> {
  await applyGrants(trx, grantLinesOf(items), {
    userId: row.user_id,
    orderId: row.id,
    source: `order:${row.id}`,
    creditReason: 'purchase',
    reference: row.id,
    now,
    refuseOwned,
  });
  return toOrder(row, items);
}

type TransitionParams = { iden: string; now: number; note: string | null };
const transitions = new Map<string, ReturnType<typeof prepared<TransitionParams, OrderRow>>>();

/** The conditional update of {@link transitionOrder}, one prepared query per target, sources and note. */
function transitionQuery(to: OrderStatusValue, allowed: readonly OrderStatusValue[], withNote: boolean) {
  const key = `${to}|${allowed.join(',')}|${withNote ? 'note' : ''}`;
  let query = transitions.get(key);
  if (!query) {
    query = prepared<TransitionParams, OrderRow>((db, p) =>
      db
        .updateTable('orders')
        .set({
          status: to,
          updated_at: p('now'),
          ...(to === 'paid' ? { paid_at: p('now') } : { closed_at: p('now') }),
          ...(withNote ? { note: p('note') } : {}),
        })
        .where('id', '=', p('iden'))
        .where('status', 'in', allowed)
        .returningAll(),
    );
    transitions.set(key, query);
  }
  return query;
}

const itemsQuery = prepared<{ iden: string }, OrderItemRow>((db, p) =>
  db.selectFrom('order_items').selectAll().where('order_id', '=', p('iden')).orderBy('line'),
);

/**
 * Moves an order to `to` in one conditional update (`WHERE status IN (allowed sources)`), so that
 * of two requests racing to pay, fail or refund the same order exactly one wins; the other gets 912
 * with the status it found.
 */
export async function transitionOrder(
  trx: Transaction<Database>,
  iden: string,
  to: OrderStatusValue,
  now: number,
  note?: string,
  /** Narrows the table's sources (an administrator refunds only what was paid). */
  from: readonly OrderStatusValue[] = sourcesOf(to),
): Promise<OrderRow> {
  const allowed = from.filter((s) => sourcesOf(to).includes(s));
  const row = (await transitionQuery(to, allowed, Boolean(note))(trx, { iden, now, note: note || null })).rows[0];
  if (row) return row;
  const current = await trx.selectFrom('orders').select('status').where('id', '=', iden).executeTakeFirst();
  throw new AbortTransaction(current ? fail.conflict(current.status) : fail.notFound('iden'));
}

export function grantLinesOf(items: OrderItemRow[]): GrantLine[] {
  return items.map((i) => ({
    productId: i.product_id,
    type: i.type,
    quantity: i.quantity,
    grantCredits: i.grant_credits,
    grantPeriod: i.grant_period,
  }));
}

export async function itemsOf(x: Executor, iden: string): Promise<OrderItemRow[]> {
  return (await itemsQuery(x, { iden })).rows;
}

/** How {@link payOrder} goes about it. */
export interface PayOptions {
  /** The order's items when the caller has them (an order made in the same transaction). */
  items?: OrderItemRow[];
  /** Refuse (907 `owned`) rather than skip a non-consumable the buyer owns already (see `GrantSource`). */
  refuseOwned?: boolean;
}

/** pending -> paid, and the grants, once: only the transaction whose update moved the order grants. */
export async function payOrder(
  trx: Transaction<Database>,
  iden: string,
  now: number,
  { items: known, refuseOwned = false }: PayOptions = {},
): Promise<Order> {
  const row = await transitionOrder(trx, iden, 'paid', now);
  const items = known ?? (await itemsOf(trx, iden));
  await applyGrants(trx, grantLinesOf(items), {
    userId: row.user_id,
    orderId: iden,
    source: `order:${iden}`,
    creditReason: 'purchase',
    reference: iden,
    now,
    refuseOwned,
  });
  return toOrder(row, items);
}

/** pending -> failed or cancelled; the coupon use the order held is given back. */
export async function closeOrder(
  trx: Transaction<Database>,
  iden: string,
  to: 'failed' | 'cancelled',
  now: number,
): Promise<Order> {
  const row = await transitionOrder(trx, iden, to, now);
  if (row.coupon_code) await releaseCouponUse(trx, row.coupon_code, row.user_id, now);
  return toOrder(row, await itemsOf(trx, iden));
}

/**
 * Names another payment route on an order that is still pending (a buyer paying a past order another
 * way); an order paid, failed or cancelled meanwhile stays as it was. True when it changed.
 */
export async function routeOrder(x: Executor, iden: string, provider: string, now: number): Promise<boolean> {
  const result = await x
    .updateTable('orders')
    .set({ provider, updated_at: now })
    .where('id', '=', iden)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function loadOrder(x: Executor, iden: string): Promise<{ row: OrderRow; order: Order } | undefined> {
  const row = await x.selectFrom('orders').selectAll().where('id', '=', iden).executeTakeFirst();
  if (!row) return undefined;
  return { row, order: toOrder(row, await itemsOf(x, iden)) };
}

/** How long a pending order may hold a coupon use before someone else may take it back. */
export const PENDING_COUPON_HOLD_MS = 24 * 3_600_000;

const staleHoldsQuery = prepared<{ code: string; before: number }, { id: string }>((db, p) =>
  db
    .selectFrom('orders')
    .select('id')
    .where('coupon_code', '=', p('code'))
    .where('status', '=', 'pending')
    .where('created_at', '<', p('before'))
    .limit(100),
);

/**
 * Cancels this coupon's pending orders older than {@link PENDING_COUPON_HOLD_MS}, giving their uses
 * back, so that checkouts abandoned on the payment page do not use a limited coupon up for good.
 * Each is its own conditional transition: an order paid meanwhile stays paid.
 */
export async function expireStaleCouponHolds(db: Kysely<Database>, code: string, now: number): Promise<void> {
  const stale = await staleHoldsQuery(db, { code: code.toUpperCase(), before: now - PENDING_COUPON_HOLD_MS });
  for (const { id } of stale.rows) await runInTransaction(db, (trx) => closeOrder(trx, id, 'cancelled', now));
}

/**
 * Cancels pending orders older than {@link PENDING_COUPON_HOLD_MS}, giving back the coupon uses they
 * held: checkouts abandoned on a payment page. Each is its own conditional transition, so an order
 * paid meanwhile stays paid. At most `limit` a turn; answers how many were cancelled.
 */
export async function cancelAbandonedOrders(db: Kysely<Database>, now: number, limit = 500): Promise<number> {
  const stale = await db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'pending')
    .where('created_at', '<', now - PENDING_COUPON_HOLD_MS)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  let cancelled = 0;
  for (const { id } of stale) {
    const done = await runInTransaction(db, (trx) => closeOrder(trx, id, 'cancelled', now));
    if (!(done instanceof Failure)) cancelled += 1;
  }
  return cancelled;
}
