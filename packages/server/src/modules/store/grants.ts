import type { Transaction } from 'kysely';
import { Code, DEFAULT_LANGUAGE, ProductType, type Entitlement, type ShopLanguage } from '@till/protocol';
import type { Database } from '../../db/schema.js';
import { AbortTransaction, fail } from '../../errors.js';
import { holdBalance, moveCredits, type CreditReason } from './credits.js';
import { iso } from '../../db/rows.js';
import type { StoreDeps } from './deps.js';
import { newId } from './ids.js';
import { renews } from './subscriptions.js';
import { titlesIn } from './titles.js';

/** What one line grants, as copied onto an order item (or read from a product for a coupon). */
export interface GrantLine {
  productId: string;
  type: number;
  quantity: number;
  grantCredits: number | null;
  grantPeriod: string | null;
}

/** Where grants come from: an order (reversible by a refund) or a coupon. */
export interface GrantSource {
  userId: string;
  orderId: string | null;
  /** `order:IDEN` or `coupon:CODE`, kept on entitlements. */
  source: string;
  creditReason: CreditReason;
  reference: string;
  now: number;
  /**
   * When the buyer already owns a non-consumable: refuse (907 `owned`, rolling everything back) rather
   * than skip. Set where nothing was taken from outside yet (credits, a free order); a provider that
   * has already taken the money gets the order paid and the refund path instead.
   */
  refuseOwned?: boolean;
}

/** Adds an ISO 8601 period (`P1M`, `P30D`, `P1W`, `P1Y`) `times` times; months keep the day of month where they can. */
export function addPeriod(from: number, period: string, times = 1): number {
  const m = /^P(\d+)([DWMY])$/.exec(period);
  if (!m) throw new Error(`bad period ${period}`);
  const n = Number(m[1]) * times;
  const d = new Date(from);
  if (m[2] === 'D') d.setUTCDate(d.getUTCDate() + n);
  else if (m[2] === 'W') d.setUTCDate(d.getUTCDate() + 7 * n);
  else if (m[2] === 'M') d.setUTCMonth(d.getUTCMonth() + n);
  else d.setUTCFullYear(d.getUTCFullYear() + n);
  return d.getTime();
}

/**
 * Applies what the lines grant: credits to the ledger, ownership, subscription time (added after
 * the end of the time the buyer already has). Runs inside the transaction that made the order paid
 * (or redeemed the coupon), so grants happen exactly when that change commits, and only once.
 */
export async function applyGrants(
  trx: Transaction<Database>,
  lines: GrantLine[],
  from: GrantSource,
): Promise<{ credits: number; products: string[] }> {
  const credits = lines.reduce((sum, l) => sum + (l.grantCredits ?? 0) * l.quantity, 0);
  if (credits > 0) {
    await moveCredits(trx, {
      userId: from.userId,
      amount: credits,
      reason: from.creditReason,
      reference: from.reference,
      now: from.now,
    });
  }
  const products: string[] = [];
  for (const line of lines) {
    products.push(line.productId);
    if (line.type === ProductType.NonConsumable) {
      const granted = await insertEntitlement(trx, from, line.productId, 'ownership', from.now, null);
      if (!granted && from.refuseOwned) throw new AbortTransaction(fail.invalidInput('products', 'owned'));
    } else if (line.type === ProductType.Subscription && line.grantPeriod) {
      // Serialises subscription grants per buyer on PostgreSQL (holding the buyer's balance row), so
      // two purchases committing together both extend the time instead of overlapping.
      await holdBalance(trx, from.userId);
      const last = await trx
        .selectFrom('entitlements')
        .select((eb) => eb.fn.max('expires_at').as('until'))
        .where('user_id', '=', from.userId)
        .where('product_id', '=', line.productId)
        .where('kind', '=', 'subscription')
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      const start = Math.max(from.now, Number(last?.until ?? 0));
      await insertEntitlement(
        trx,
        from,
        line.productId,
        'subscription',
        start,
        addPeriod(start, line.grantPeriod, line.quantity),
      );
    }
  }
  return { credits, products };
}

async function insertEntitlement(
  trx: Transaction<Database>,
  from: GrantSource,
  productId: string,
  kind: 'ownership' | 'subscription',
  startsAt: number,
  expiresAt: number | null,
): Promise<boolean> {
  // The only key that can clash is the partial unique index on live ownership.
  const row = await trx
    .insertInto('entitlements')
    .values({
      id: newId(from.now),
      user_id: from.userId,
      product_id: productId,
      kind,
      source: from.source,
      order_id: from.orderId,
      starts_at: startsAt,
      expires_at: expiresAt,
      revoked_at: null,
      created_at: from.now,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes back what a paid order granted and gives back the credits it cost. When the buyer has
 * already spent the credits it granted, the refund is refused with 912 (`credits_spent`) rather than
 * driving the balance below zero.
 */
export async function revokeGrants(
  trx: Transaction<Database>,
  order: { id: string; userId: string; creditsSpent: number; status: string },
  lines: GrantLine[],
  now: number,
): Promise<void> {
  const reference = order.id;
  if (order.creditsSpent > 0) {
    await moveCredits(trx, { userId: order.userId, amount: order.creditsSpent, reason: 'refund', reference, now });
  }
  const granted = lines.reduce((sum, l) => sum + (l.grantCredits ?? 0) * l.quantity, 0);
  if (granted > 0) {
    try {
      await moveCredits(trx, { userId: order.userId, amount: -granted, reason: 'refund', reference, now });
    } catch (error) {
      if (error instanceof AbortTransaction && error.failure.body.code === Code.NotEnoughCredits) {
        throw new AbortTransaction(fail.conflict(order.status, 'credits_spent'));
      }
      throw error;
    }
  }
  await revokeEntitlements(trx, order.id, now);
}

/** Ends what an order granted: its ownership and subscription time. */
export async function revokeEntitlements(trx: Transaction<Database>, orderId: string, now: number): Promise<void> {
  await trx
    .updateTable('entitlements')
    .set({ revoked_at: now })
    .where('order_id', '=', orderId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * What the buyer holds now: owned products, and subscriptions with their end (past ones inactive)
 * and whether they renew then (see {@link renews}).
 */
export async function listEntitlements(
  deps: StoreDeps,
  userId: string,
  lang: ShopLanguage = DEFAULT_LANGUAGE,
): Promise<Entitlement[]> {
  const rows = await deps.db
    .selectFrom('entitlements')
    .innerJoin('products', 'products.id', 'entitlements.product_id')
    .leftJoin('orders', 'orders.id', 'entitlements.order_id')
    .select([
      'entitlements.product_id',
      'entitlements.kind',
      'entitlements.expires_at',
      'products.alias',
      'products.title',
      'orders.status',
      'orders.provider',
      'orders.subscription_ended_at',
      'orders.period_end_requested_at',
    ])
    .where('entitlements.user_id', '=', userId)
    .where('entitlements.revoked_at', 'is', null)
    .execute();
  const now = deps.now();
  const byProduct = new Map<string, Entitlement>();
  for (const row of rows) {
    const seen = byProduct.get(row.product_id);
    if (row.kind === 'ownership') {
      byProduct.set(row.product_id, {
        productId: row.product_id,
        alias: row.alias,
        title: row.title,
        kind: 'ownership',
        expiresAt: null,
        active: true,
      });
    } else if (!seen || (seen.kind === 'subscription' && Date.parse(seen.expiresAt ?? '') < Number(row.expires_at))) {
      const until = Number(row.expires_at);
      byProduct.set(row.product_id, {
        productId: row.product_id,
        alias: row.alias,
        title: row.title,
        kind: 'subscription',
        expiresAt: iso(until),
        active: until > now,
        renews:
          until > now &&
          row.status != null &&
          row.provider != null &&
          renews({ ...row, status: row.status, provider: row.provider }),
      });
    }
  }
  return titlesIn(deps.db, [...byProduct.values()], lang);
}
