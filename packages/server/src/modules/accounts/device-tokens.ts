import type { Kysely } from 'kysely';
import type { Executor } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';
import { hashToken, newToken } from '../../security/tokens.js';

/**
 * Device tokens (OWASP's "device cookies"): a sign-in answers a random token that the client keeps
 * and sends with its later logins to that account. A login with a live token for the account spends
 * that device's failure budget instead of the account's, so guesses from anywhere else cannot lock
 * the owner's known devices out. The token opens nothing by itself; only its hash is stored.
 */

/** The hash of `token` when it is live for the account of `email`, else undefined. */
export async function knownDevice(
  db: Kysely<Database>,
  token: string | undefined,
  email: string,
): Promise<string | undefined> {
  if (!token) return undefined;
  const hash = hashToken(token);
  const row = await db
    .selectFrom('device_tokens')
    .innerJoin('users', 'users.id', 'device_tokens.user_id')
    .select('device_tokens.token_hash')
    .where('device_tokens.token_hash', '=', hash)
    .where('users.email', '=', email)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.token_hash;
}

/**
 * The device token to answer with a sign-in (in `trx`): the known one again, marked used, or a new
 * one for a device the account has not given one yet.
 */
export async function deviceTokenFor(
  trx: Executor,
  userId: string,
  presented: { token: string; hash: string } | undefined,
  now: number,
): Promise<string> {
  if (presented) {
    await trx
      .updateTable('device_tokens')
      .set({ last_used_at: now })
      .where('token_hash', '=', presented.hash)
      .execute();
    return presented.token;
  }
  const token = newToken();
  await trx
    .insertInto('device_tokens')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, last_used_at: now })
    .execute();
  return token;
}

/** Forgets every device token of the user: after a password reset, known devices are known no more. */
export async function forgetDeviceTokens(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('device_tokens').where('user_id', '=', userId).execute();
}

/** Forgets tokens not used since `before` (with the security log's retention). */
export async function purgeDeviceTokens(db: Kysely<Database>, before: number): Promise<number> {
  const res = await db.deleteFrom('device_tokens').where('last_used_at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
