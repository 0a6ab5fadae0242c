import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { fail, type Failure } from '../errors.js';
import { ownedAmong, type Line } from '../modules/store/index.js';

/**
 * 907 `owned` when the buyer already owns one of the non-consumables in the cart: asked before
 * anything is taken, so that the buyer is told instead of paying for nothing.
 */
export async function refuseOwned(db: Kysely<Database>, userId: string, lines: Line[]): Promise<Failure | undefined> {
  const owned = await ownedAmong(db, userId, lines);
  return owned.size ? fail.invalidInput('products', 'owned') : undefined;
}
