import type { Provider } from '@till/protocol';
import type { Executor } from '../../db/rows.js';

/**
 * Links a provider's reference to an order, so that later events naming only the reference find
 * it. Linking the same reference again changes nothing.
 */
export async function linkRef(
  x: Executor,
  link: { provider: Provider; ref: string; orderId: string; kind: string },
  now: number,
): Promise<void> {
  await x
    .insertInto('payment_refs')
    .values({ provider: link.provider, ref: link.ref, order_id: link.orderId, kind: link.kind, created_at: now })
    .onConflict((oc) => oc.columns(['provider', 'ref']).doNothing())
    .execute();
}

/** The order a reference was linked to, if any. */
export async function orderOfRef(x: Executor, provider: Provider, ref: string): Promise<string | undefined> {
  const row = await x
    .selectFrom('payment_refs')
    .select('order_id')
    .where('provider', '=', provider)
    .where('ref', '=', ref)
    .executeTakeFirst();
  return row?.order_id;
}

/** An order's references of one kind, oldest first (a checkout session per attempt, say). */
export async function refsOf(x: Executor, provider: Provider, orderId: string, kind: string): Promise<string[]> {
  const rows = await x
    .selectFrom('payment_refs')
    .select('ref')
    .where('provider', '=', provider)
    .where('order_id', '=', orderId)
    .where('kind', '=', kind)
    .orderBy('created_at')
    .orderBy('ref')
    .execute();
  return rows.map((r) => r.ref);
}

/** Every reference of the orders, oldest first: what administrators' order views show. */
export async function refsOfOrders(
  x: Executor,
  orderIds: readonly string[],
): Promise<{ order_id: string; kind: string; ref: string }[]> {
  if (!orderIds.length) return [];
  return x
    .selectFrom('payment_refs')
    .select(['order_id', 'kind', 'ref'])
    .where('order_id', 'in', [...orderIds])
    .orderBy('created_at')
    .orderBy('ref')
    .execute();
}
