import { sql, type Transaction } from 'kysely';
import { ProductType, type Order, type OrderSubscription } from '@till/protocol';
import { iso, readJson, type Executor } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';
import { AbortTransaction, fail } from '../../errors.js';
import type { StoreDeps } from './deps.js';

/** The routes whose subscriptions renew by themselves until stopped: Stripe's, and the stores'. */
const RENEWING = new Set(['card', 'appstore', 'googleplay']);

/** Where the App Store lets a buyer stop a subscription renewing. */
export const APPLE_SUBSCRIPTIONS_URL = 'https://apps.apple.com/account/subscriptions';

/** An order row's fields that say whether its subscription renews. */
interface RenewalFacts {
  status: string;
  provider: string;
  subscription_ended_at: number | null;
  period_end_requested_at: number | null;
}

/**
 * Whether a paid order's subscription renews at the end of its period: paid through a route that
 * renews, not ended by the provider, and not asked by the buyer to end at the period's end.
 */
export function renews(row: RenewalFacts): boolean {
  return (
    row.status === 'paid' &&
    RENEWING.has(row.provider) &&
    row.subscription_ended_at == null &&
    row.period_end_requested_at == null
  );
}

/** Google Play's subscription settings, at the product's subscription where it is known. */
function playSubscriptionsUrl(sku: string | undefined, packageName: string | undefined): string {
  const url = new URL('https://play.google.com/store/account/subscriptions');
  if (sku && packageName) {
    url.searchParams.set('sku', sku);
    url.searchParams.set('package', packageName);
  }
  return url.toString();
}

/**
 * The paid orders that started a subscription, with where it stands (`subscription`): until when
 * it runs (the buyer's latest time on the product), whether it renews, and how it is stopped. Four
 * queries, whatever the number of orders; other orders come back as they were.
 */
export async function withSubscriptions(deps: StoreDeps, x: Executor, orders: Order[]): Promise<Order[]> {
  const paid = orders.filter((o) => o.status === 'paid').map((o) => o.iden);
  if (!paid.length) return orders;
  const lines = await x
    .selectFrom('order_items')
    .innerJoin('products', 'products.id', 'order_items.product_id')
    .select(['order_items.order_id', 'order_items.product_id', 'products.store_ids'])
    .where('order_items.order_id', 'in', paid)
    .where('order_items.type', '=', ProductType.Subscription)
    .orderBy('order_items.line')
    .execute();
  if (!lines.length) return orders;
  const idens = [...new Set(lines.map((l) => l.order_id))];
  const rows = await x
    .selectFrom('orders')
    .select(['id', 'user_id', 'status', 'provider', 'subscription_ended_at', 'period_end_requested_at'])
    .where('id', 'in', idens)
    .execute();
  const times = await x
    .selectFrom('entitlements')
    .select(['user_id', 'product_id', (eb) => eb.fn.max('expires_at').as('until')])
    .where('kind', '=', 'subscription')
    .where('revoked_at', 'is', null)
    .where('user_id', 'in', [...new Set(rows.map((r) => r.user_id))])
    .where('product_id', 'in', [...new Set(lines.map((l) => l.product_id))])
    .groupBy(['user_id', 'product_id'])
    .execute();
  const packageName = deps.config.payments.googleplay?.packageName;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return orders.map((o) => {
    const row = byId.get(o.iden);
    const line = lines.find((l) => l.order_id === o.iden);
    if (!row || !line) return o;
    const until = times.find((t) => t.user_id === row.user_id && t.product_id === line.product_id)?.until;
    const renewing = renews(row) && until != null && Number(until) > deps.now();
    const sku = readJson<{ googleplay?: string }>(line.store_ids, {}).googleplay;
    const subscription: OrderSubscription = {
      until: until != null ? iso(Number(until)) : null,
      renews: renewing,
      manage: !renewing ? null : row.provider === 'card' ? 'cancel' : 'store',
      manageUrl: !renewing
        ? null
        : row.provider === 'appstore'
          ? APPLE_SUBSCRIPTIONS_URL
          : row.provider === 'googleplay'
            ? playSubscriptionsUrl(sku, packageName)
            : null,
    };
    return { ...o, subscription };
  });
}

/**
 * Notes, in the caller's transaction, that the buyer asked the subscription of a paid order to end
 * at its period's end: one conditional update, so asking twice notes it once. 912 when the order is
 * no longer paid or its subscription no longer renews.
 */
export async function notePeriodEnd(trx: Transaction<Database>, iden: string, now: number): Promise<void> {
  const done = await trx
    .updateTable('orders')
    .set({ period_end_requested_at: now, updated_at: now })
    .where('id', '=', iden)
    .where('status', '=', 'paid')
    .where('subscription_ended_at', 'is', null)
    .where(sql<boolean>`period_end_requested_at is null`)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) {
    const row = await trx
      .selectFrom('orders')
      .select(['status', 'period_end_requested_at'])
      .where('id', '=', iden)
      .executeTakeFirst();
    if (!row) throw new AbortTransaction(fail.notFound('iden'));
    // Asked before: done already.
    if (row.status === 'paid' && row.period_end_requested_at != null) return;
    throw new AbortTransaction(fail.conflict(row.status, 'not_renewing'));
  }
}
