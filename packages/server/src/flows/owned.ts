import { ProductType } from '@till/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { fail, type Failure } from '../errors.js';
import type { Line } from '../modules/store/index.js';

/** The non-consumables among `lines` that the buyer already owns (ids). */
export async function ownedAmong(db: Kysely<Database>, userId: string, lines: Line[]): Promise<Set<string>> {
  const ids = lines.filter((l) => l.product.type === ProductType.NonConsumable).map((l) => l.product.id);
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('entitlements')
    .select('product_id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'ownership')
    .where('revoked_at', 'is', null)
    .where('product_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.product_id));
}

/**
 * 907 `owned` when the buyer already owns one of the non-consumables in the cart: asked before
 * anything is taken, so that the buyer is told instead of paying for nothing.
 */
export async function refuseOwned(db: Kysely<Database>, userId: string, lines: Line[]): Promise<Failure | undefined> {
  const owned = await ownedAmong(db, userId, lines);
  return owned.size ? fail.invalidInput('products', 'owned') : undefined;
}
