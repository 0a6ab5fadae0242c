import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { adminUser } from './users.js';
import type { Dialect, StoreDeps } from '@till/server/testing';

type Body = Record<string, unknown> & { code: number; data?: Record<string, unknown> };

/** POSTs JSON over real HTTP (the app must be started with `listen`), one connection per request. */
export async function post(t: TestApp, path: string, body: Record<string, unknown>): Promise<Body> {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Body;
}

/** The data of a call that must succeed. */
export async function ok<T = Record<string, unknown>>(
  t: TestApp,
  path: string,
  body: Record<string, unknown>,
): Promise<T> {
  const res = await t.call(path, body);
  if (res.code !== 900) throw new Error(`${path} answered ${JSON.stringify(res)}`);
  return res.data as T;
}

let admin: { token: string } | undefined;
let adminOf: TestApp | undefined;

/** A cached administrator for this app. */
export async function anAdmin(t: TestApp): Promise<{ token: string }> {
  if (!admin || adminOf !== t) {
    admin = await adminUser(t);
    adminOf = t;
  }
  return admin;
}

/** Gives a user credits the way the product does: an administrator's ledger entry. */
export async function giveCredits(t: TestApp, userId: string, amount: number): Promise<void> {
  const { token } = await anAdmin(t);
  await ok(t, '/api/admin/credits/adjust', { token, userId, amount, reason: 'test funds' });
}

/** Every user has a balance, it equals the sum of that user's ledger entries, and none is negative. */
export async function expectLedgerMatchesBalances(t: TestApp): Promise<void> {
  const db = t.ctx.db.kysely;
  const users = await db
    .selectFrom('users')
    .leftJoin('credit_balances', 'credit_balances.user_id', 'users.id')
    .select(['users.id', 'credit_balances.credits'])
    .execute();
  const sums = await db
    .selectFrom('credit_ledger')
    .select(['user_id', (eb) => eb.fn.sum<number>('amount').as('total')])
    .groupBy('user_id')
    .execute();
  const byUser = new Map(sums.map((s) => [s.user_id, Number(s.total)]));
  for (const u of users) {
    expect(u.credits, `balance of ${u.id}`).not.toBeNull();
    expect(u.credits).toBeGreaterThanOrEqual(0);
    expect(byUser.get(u.id) ?? 0, `ledger of ${u.id}`).toBe(u.credits);
  }
}

/** Saves a product through the admin API and answers its id. */
export async function saveProduct(t: TestApp, product: Record<string, unknown>): Promise<string> {
  const { token } = await anAdmin(t);
  const data = await ok<{ product: { id: string } }>(t, '/api/admin/products/save', { token, product });
  return data.product.id;
}

/** Saves a coupon through the admin API. */
export async function saveCoupon(t: TestApp, coupon: Record<string, unknown>): Promise<void> {
  const { token } = await anAdmin(t);
  await ok(t, '/api/admin/coupons/save', { token, coupon });
}

/** The buyer spends `amount` credits on a product made for it: what a refund later cannot take back. */
export async function spendCredits(t: TestApp, buyerToken: string, amount: number): Promise<void> {
  const id = await saveProduct(t, {
    alias: `spend-${amount}-${Math.random().toString(36).slice(2, 10)}`,
    title: `${amount} credits' worth`,
    type: 0,
    creditPrice: amount,
    grants: {},
  });
  await ok(t, '/api/auth/payWithCredits', { token: buyerToken, products: JSON.stringify([id]) });
}

/** The store's dependencies on a test app's database, with its commit counts where it has them (SQLite). */
export function storeDepsOf(t: TestApp, dialect: Dialect): StoreDeps {
  const db = t.ctx.db;
  return {
    db: db.kysely,
    dialect,
    ...(db.version ? { version: db.version } : {}),
    now: () => Date.now(),
  } as StoreDeps;
}
