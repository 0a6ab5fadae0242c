import { ProductType } from '@till/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** One thing the data check found wrong: which rule, and what breaks it. */
export interface Finding {
  check: 'balance' | 'grants' | 'coupons' | 'files' | 'quota';
  detail: string;
}

/** What the check needs of the object storage: the keys it holds. */
export interface StoredKeys {
  list(prefix?: string): Promise<string[]>;
}

/**
 * Checks the books and the uploads against each other: every balance equals its ledger and none is
 * below zero; every paid order has its grants and no unpaid one has any; every coupon's counter equals
 * its uses; every file row has its object and every object a row; every quota equals its files' sizes.
 * It reads only, so it may run beside a live server; what is in flight there (an upload between its
 * object and its row) is recorded in `storage_writes` and not taken for an orphan.
 */
export async function checkData(db: Kysely<Database>, storage: StoredKeys): Promise<Finding[]> {
  return [
    ...(await checkBalances(db)),
    ...(await checkGrants(db)),
    ...(await checkCoupons(db)),
    ...(await checkFiles(db, storage)),
    ...(await checkQuotas(db)),
  ];
}

async function checkBalances(db: Kysely<Database>): Promise<Finding[]> {
  const users = await db
    .selectFrom('users')
    .leftJoin('credit_balances', 'credit_balances.user_id', 'users.id')
    .select(['users.id', 'credit_balances.credits'])
    .execute();
  const sums = await db
    .selectFrom('credit_ledger')
    .select(['user_id', (eb) => eb.fn.sum<number | string>('amount').as('total')])
    .groupBy('user_id')
    .execute();
  const ledger = new Map(sums.map((s) => [s.user_id, Number(s.total)]));
  const found: Finding[] = [];
  for (const u of users) {
    const sum = ledger.get(u.id) ?? 0;
    ledger.delete(u.id);
    if (u.credits === null) {
      found.push({ check: 'balance', detail: `user ${u.id} has no balance` });
      continue;
    }
    if (u.credits < 0) found.push({ check: 'balance', detail: `user ${u.id} has a negative balance of ${u.credits}` });
    if (sum !== u.credits)
      found.push({ check: 'balance', detail: `user ${u.id} has a balance of ${u.credits} but a ledger of ${sum}` });
  }
  for (const [userId, sum] of ledger)
    found.push({ check: 'balance', detail: `ledger entries of ${sum} for user ${userId}, who does not exist` });
  return found;
}

/** An order's credit grants are `purchase` entries referring to it (renewals: `IDEN (EVENT)`). */
const orderOfReference = (reference: string) => reference.replace(/ \(.*\)$/, '');

async function checkGrants(db: Kysely<Database>): Promise<Finding[]> {
  const orders = await db.selectFrom('orders').select(['id', 'user_id', 'status']).execute();
  const items = await db
    .selectFrom('order_items')
    .select(['order_id', 'product_id', 'type', 'quantity', 'grant_credits', 'grant_period'])
    .execute();
  const entitlements = await db
    .selectFrom('entitlements')
    .select(['user_id', 'product_id', 'kind', 'order_id', 'revoked_at'])
    .execute();
  const purchases = await db
    .selectFrom('credit_ledger')
    .select(['reference', 'amount'])
    .where('reason', '=', 'purchase')
    .where('reference', 'is not', null)
    .execute();

  const itemsOf = groupBy(items, (i) => i.order_id);
  const grantsOf = groupBy(entitlements, (e) => e.order_id ?? '');
  const owned = new Set(entitlements.filter((e) => e.kind === 'ownership').map((e) => `${e.user_id}|${e.product_id}`));
  const credited = new Map<string, number>();
  for (const p of purchases) {
    const order = orderOfReference(p.reference ?? '');
    credited.set(order, (credited.get(order) ?? 0) + p.amount);
  }

  const found: Finding[] = [];
  for (const order of orders) {
    const lines = itemsOf.get(order.id) ?? [];
    const grants = grantsOf.get(order.id) ?? [];
    const credits = credited.get(order.id) ?? 0;
    if (order.status === 'paid') {
      const due = lines.reduce((sum, l) => sum + (l.grant_credits ?? 0) * l.quantity, 0);
      if (due > 0 && credits < due)
        found.push({ check: 'grants', detail: `paid order ${order.id} granted ${credits} of its ${due} credits` });
      for (const line of lines) {
        // A non-consumable the buyer already owned is not granted twice: owning it is what counts.
        if (line.type === ProductType.NonConsumable && !owned.has(`${order.user_id}|${line.product_id}`))
          found.push({
            check: 'grants',
            detail: `paid order ${order.id} did not grant ownership of ${line.product_id}`,
          });
        if (
          line.type === ProductType.Subscription &&
          line.grant_period &&
          !grants.some((g) => g.kind === 'subscription' && g.product_id === line.product_id)
        )
          found.push({
            check: 'grants',
            detail: `paid order ${order.id} did not grant its subscription to ${line.product_id}`,
          });
      }
    } else if (order.status === 'refunded') {
      // Refunded after it was paid: what it granted is revoked (its credits were taken back in the ledger).
      if (grants.some((g) => g.revoked_at === null))
        found.push({ check: 'grants', detail: `refunded order ${order.id} still grants ${liveProducts(grants)}` });
    } else {
      if (grants.length)
        found.push({ check: 'grants', detail: `${order.status} order ${order.id} granted ${liveProducts(grants)}` });
      if (credits !== 0)
        found.push({ check: 'grants', detail: `${order.status} order ${order.id} granted ${credits} credits` });
    }
  }
  return found;
}

function liveProducts(grants: { product_id: string }[]): string {
  return [...new Set(grants.map((g) => g.product_id))].join(', ');
}

async function checkCoupons(db: Kysely<Database>): Promise<Finding[]> {
  const coupons = await db.selectFrom('coupons').select(['code', 'used', 'usage_limit', 'per_user_limit']).execute();
  const uses = await db.selectFrom('coupon_uses').select(['coupon_code', 'user_id', 'uses']).execute();
  const total = new Map<string, number>();
  for (const u of uses) total.set(u.coupon_code, (total.get(u.coupon_code) ?? 0) + u.uses);
  const found: Finding[] = [];
  for (const c of coupons) {
    const counted = total.get(c.code) ?? 0;
    if (c.used !== counted)
      found.push({ check: 'coupons', detail: `coupon ${c.code} counts ${c.used} uses but its buyers have ${counted}` });
    if (c.usage_limit !== null && c.used > c.usage_limit)
      found.push({
        check: 'coupons',
        detail: `coupon ${c.code} was used ${c.used} times, past its limit of ${c.usage_limit}`,
      });
  }
  for (const u of uses) {
    const c = coupons.find((x) => x.code === u.coupon_code);
    if (c?.per_user_limit != null && u.uses > c.per_user_limit)
      found.push({
        check: 'coupons',
        detail: `user ${u.user_id} used coupon ${u.coupon_code} ${u.uses} times, past its limit of ${c.per_user_limit}`,
      });
  }
  return found;
}

async function checkFiles(db: Kysely<Database>, storage: StoredKeys): Promise<Finding[]> {
  const rows = await db.selectFrom('files').select(['id', 'storage_key']).execute();
  const avatars = await db
    .selectFrom('users')
    .select(['id', 'avatar_key'])
    .where('avatar_key', 'like', 'avatars/%')
    .execute();
  const inFlight = await db.selectFrom('storage_writes').select('key').execute();
  const dueForRemoval = await db.selectFrom('object_removals').select('key').execute();
  const objects = new Set([...(await storage.list('f/')), ...(await storage.list('avatars/'))]);
  const found: Finding[] = [];
  const known = new Set<string>([...inFlight, ...dueForRemoval].map((r) => r.key));
  for (const row of rows) {
    known.add(row.storage_key);
    if (!objects.has(row.storage_key))
      found.push({ check: 'files', detail: `file ${row.id} has no object at ${row.storage_key}` });
  }
  for (const user of avatars) {
    const key = user.avatar_key ?? '';
    known.add(key);
    if (!objects.has(key))
      found.push({ check: 'files', detail: `the avatar of user ${user.id} has no object at ${user.avatar_key}` });
  }
  for (const key of objects) if (!known.has(key)) found.push({ check: 'files', detail: `object ${key} has no row` });
  return found;
}

async function checkQuotas(db: Kysely<Database>): Promise<Finding[]> {
  const usage = await db.selectFrom('file_usage').select(['user_id', 'used_bytes']).execute();
  const sizes = await db
    .selectFrom('files')
    .select(['user_id', (eb) => eb.fn.sum<number | string>('size').as('bytes')])
    .groupBy('user_id')
    .execute();
  const stored = new Map(sizes.map((s) => [s.user_id, Number(s.bytes)]));
  const found: Finding[] = [];
  for (const u of usage) {
    const bytes = stored.get(u.user_id) ?? 0;
    stored.delete(u.user_id);
    if (Number(u.used_bytes) !== bytes)
      found.push({
        check: 'quota',
        detail: `user ${u.user_id} counts ${u.used_bytes} bytes used but has files of ${bytes}`,
      });
  }
  for (const [userId, bytes] of stored)
    found.push({ check: 'quota', detail: `user ${userId} has files of ${bytes} bytes and no usage counted` });
  return found;
}

function groupBy<T>(list: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of list) {
    const k = key(item);
    const group = map.get(k);
    if (group) group.push(item);
    else map.set(k, [item]);
  }
  return map;
}
