import type { Kysely } from 'kysely';
import type { AdminUser } from '@till/protocol';
import { iso, pageOf } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';
import type { AccountsService } from './service.js';

/** Users as administrators list them: newest first, `query` matching part of the e-mail or name. */
export async function listUsers(
  db: Kysely<Database>,
  accounts: AccountsService,
  input: { page: number; pageSize: number; query?: string | undefined },
): Promise<{ users: AdminUser[]; total: number }> {
  // A deleted account's tombstone is no user any more; its orders still show in the orders list.
  let q = db.selectFrom('users').where('deleted_at', 'is', null);
  if (input.query) {
    const like = `%${input.query.toLowerCase().replace(/[%_\\]/g, '')}%`;
    q = q.where((eb) => eb.or([eb('email', 'like', like), eb(eb.fn('lower', ['name']), 'like', like)]));
  }
  const { offset, limit } = pageOf(input);
  const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(offset).limit(limit).execute();
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const users: AdminUser[] = rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    level: accounts.levelOf(row),
    emailConfirmed: Boolean(row.email_confirmed),
    credits: row.credits,
    createdAt: iso(row.created_at),
    flaggedAt: row.flagged_at != null ? iso(row.flagged_at) : null,
    flagReason: row.flag_reason,
  }));
  return { users, total: Number(count.n) };
}
