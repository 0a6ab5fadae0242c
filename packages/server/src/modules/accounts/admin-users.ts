import { sql, type Kysely, type Selectable } from 'kysely';
import {
  adminUserClearFlagData,
  adminUserClearFlagRequest,
  adminUserGetData,
  adminUserGetRequest,
  adminUserSetLevelData,
  adminUserSetLevelRequest,
  adminUsersListData,
  adminUsersListRequest,
  dataResponse,
  Level,
  type AdminUser,
  type AdminUserGetData,
} from '@till/protocol';
import { iso, pageOf } from '../../db/rows.js';
import type { Database, UsersTable } from '../../db/schema.js';
import { fail, type Outcome } from '../../errors.js';
import { asData, type CallRegistry } from '../../http/calls.js';
import type { AccountsService } from './service.js';

type UserRow = Selectable<UsersTable>;

function toAdminUser(accounts: AccountsService, row: UserRow, credits: number): AdminUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    level: accounts.levelOf(row),
    emailConfirmed: Boolean(row.email_confirmed),
    credits,
    createdAt: iso(row.created_at),
    flaggedAt: row.flagged_at != null ? iso(row.flagged_at) : null,
    flagReason: row.flag_reason,
  };
}

/** Users as administrators list them: newest first, `query` matching part of the e-mail or name. */
export async function listUsers(
  db: Kysely<Database>,
  accounts: AccountsService,
  input: { page: number; pageSize: number; query?: string | undefined },
): Promise<{ users: AdminUser[]; total: number }> {
  // A deleted account's tombstone is no user any more; its orders still show in the orders list.
  let q = db.selectFrom('users').where('deleted_at', 'is', null);
  if (input.query) {
    // `%`, `_` and `\` in the query are searched for as themselves (e-mail addresses have `_`).
    const like = `%${input.query.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where(sql<boolean>`(lower(email) like ${like} escape '\\' or lower(name) like ${like} escape '\\')`);
  }
  const { offset, limit } = pageOf(input);
  const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(offset).limit(limit).execute();
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const balances = await accounts.balancesOf(rows.map((row) => row.id));
  return {
    users: rows.map((row) => toAdminUser(accounts, row, balances.get(row.id) ?? 0)),
    total: Number(count.n),
  };
}

/** The users administrators look after: one user in detail, their level and their flag. */
export class AdminUsers {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accounts: AccountsService,
    private readonly adminEmails: readonly string[],
    private readonly now: () => number,
  ) {}

  private row(userId: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** A user with their live sessions; 904 `userId` when there is none. */
  async get(userId: string): Promise<Outcome<AdminUserGetData>> {
    const row = await this.row(userId);
    if (!row) return fail.notFound('userId');
    return {
      user: toAdminUser(this.accounts, row, await this.accounts.balanceOf(userId)),
      levelFixed: this.adminEmails.includes(row.email),
      sessions: await this.accounts.liveSessions(userId),
    };
  }

  /**
   * Makes a confirmed user an administrator or a member. The level is read from the user's row on
   * every call (never kept in the session or the token), so it applies on their next call, without
   * a new sign-in, both ways.
   */
  async setLevel(callerId: string, userId: string, level: 2 | 9): Promise<Outcome<{ user: AdminUser }>> {
    if (userId === callerId) return fail.invalidInput('userId', 'invalid');
    const row = await this.row(userId);
    if (!row) return fail.notFound('userId');
    if (!row.email_confirmed) return fail.invalidInput('userId', 'unconfirmed');
    if (this.adminEmails.includes(row.email)) return fail.invalidInput('userId', 'configured');
    const now = this.now();
    // The change and its entry in the user's security log commit together.
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ level, updated_at: now }).where('id', '=', userId).execute();
      if (row.level !== level) {
        await this.accounts.securityLog.write(
          { userId, kind: 'admin_level_changed', actorId: callerId, detail: { level, from: row.level } },
          trx,
        );
      }
    });
    return {
      user: toAdminUser(this.accounts, { ...row, level, updated_at: now }, await this.accounts.balanceOf(userId)),
    };
  }

  /** Clears a user's flag (a refund or chargeback that could not take everything back) once looked at. */
  async clearFlag(userId: string): Promise<Outcome<{ user: AdminUser }>> {
    const row = await this.row(userId);
    if (!row) return fail.notFound('userId');
    await this.db.updateTable('users').set({ flagged_at: null, flag_reason: null }).where('id', '=', userId).execute();
    return {
      user: toAdminUser(
        this.accounts,
        { ...row, flagged_at: null, flag_reason: null },
        await this.accounts.balanceOf(userId),
      ),
    };
  }

  register(calls: CallRegistry): void {
    const tag = 'admin';
    const auth = Level.Admin;
    calls.define({
      path: '/api/admin/users/list',
      summary: 'Users with their balances, paged; `query` matches part of the e-mail or name.',
      tag,
      auth,
      request: adminUsersListRequest,
      response: dataResponse(adminUsersListData),
      handler: async (input) => ({ data: await listUsers(this.db, this.accounts, input) }),
    });
    calls.define({
      path: '/api/admin/users/get',
      summary: 'One user with their sessions (904 `userId`).',
      tag,
      auth,
      request: adminUserGetRequest,
      response: dataResponse(adminUserGetData),
      handler: async (input) => asData(await this.get(input.userId)),
    });
    calls.define({
      path: '/api/admin/users/setLevel',
      summary: 'Make a confirmed user an administrator (9) or a member (2); applies on their next call.',
      tag,
      auth,
      stepUp: true,
      request: adminUserSetLevelRequest,
      response: dataResponse(adminUserSetLevelData),
      handler: async (input, ctx) => asData(await this.setLevel(ctx.caller.userId, input.userId, input.level)),
    });
    calls.define({
      path: '/api/admin/users/clearFlag',
      summary: "Clear a user's flag once an administrator has looked at it.",
      tag,
      auth,
      request: adminUserClearFlagRequest,
      response: dataResponse(adminUserClearFlagData),
      handler: async (input) => asData(await this.clearFlag(input.userId)),
    });
  }
}
