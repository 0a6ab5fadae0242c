import { CompiledQuery, type Kysely, type Selectable, type Transaction } from 'kysely';
import { CommitMemo } from '../../db/commit-memo.js';
import type { Db } from '../../db/connect.js';
import { prepared, preparedInsert } from '../../db/prepared.js';
import type { Database, LinkTokensTable, SessionsTable, UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type LinkTokenRow = Selectable<LinkTokensTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** A user as read with their session: everything but the password hash, which no caller needs. */
export type SessionUser = Omit<UserRow, 'password_hash'>;

/** The session columns that come with a user from {@link AccountsRepo.findSession}. */
export interface SessionFields {
  session_id: string;
  user_id: string;
  expires_at: number;
  last_seen_at: number | null;
}

/** At most this many sessions are kept by {@link AccountsRepo.findSession} between commits. */
const SESSION_MEMO_SIZE = 10_000;
/** The tables the session lookup reads: a commit that wrote either empties the memo. */
const SESSION_TABLES = ['sessions', 'users'] as const;
type KeptSession = Readonly<SessionUser & SessionFields>;

// The statements of every sign-up and sign-in, prepared (see `prepared`): while sign-ins keep the cores
// hashing, building a query took the event loop longer than running it.
const insertUserRow = preparedInsert<UsersTable>('users', {
  id: 1,
  email: 1,
  name: 1,
  lang: 1,
  level: 1,
  email_confirmed: 1,
  password_hash: 1,
  pending_email: 1,
  avatar_file_id: 1,
  avatar_key: 1,
  created_at: 1,
  updated_at: 1,
  flagged_at: 1,
  flag_reason: 1,
  deleted_at: 1,
});

const userByEmail = prepared<{ email: string }, UserRow>((db, p) =>
  db.selectFrom('users').selectAll().where('email', '=', p('email')),
);

const insertSessionRow = preparedInsert<SessionsTable>('sessions', {
  id: 1,
  user_id: 1,
  token_hash: 1,
  created_at: 1,
  expires_at: 1,
  last_seen_at: 1,
  user_agent: 1,
  ip: 1,
  step_up_at: 1,
});

const insertLinkTokenRow = preparedInsert<LinkTokensTable>('link_tokens', {
  token_hash: 1,
  user_id: 1,
  kind: 1,
  new_email: 1,
  created_at: 1,
  expires_at: 1,
  used_at: 1,
});

/** SQL for users, sessions and link tokens. Every method takes an optional transaction. */
export class AccountsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly read: Db['read'] = (query, parameters) =>
      db.executeQuery<never>(CompiledQuery.raw(query.sql, [...parameters])).then((r) => [...r.rows]),
    version?: Db['version'],
  ) {
    this.memo = new CommitMemo(version, SESSION_TABLES, SESSION_MEMO_SIZE);
  }

  private x(trx?: Executor): Executor {
    return trx ?? this.db;
  }

  async insertUser(row: UsersTable, trx?: Executor): Promise<void> {
    await insertUserRow(this.x(trx), [row]);
  }

  async findUserByEmail(email: string, trx?: Executor): Promise<UserRow | undefined> {
    return (await userByEmail(this.x(trx), { email: email.toLowerCase() })).rows[0];
  }

  findUserById(id: string, trx?: Executor): Promise<UserRow | undefined> {
    return this.x(trx).selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async updateUser(id: string, changes: Partial<Omit<UsersTable, 'id' | 'created_at'>>, trx?: Executor): Promise<void> {
    await this.x(trx)
      .updateTable('users')
      .set({ ...changes, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Replaces a password hash with one of the same password made with other settings, only while the
   * account still holds `from`: a password changed or reset meanwhile stays. Not a change the user
   * made, so `updated_at` stays too. True when it replaced.
   */
  async replacePasswordHash(id: string, from: string, to: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ password_hash: to })
      .where('id', '=', id)
      .where('password_hash', '=', from)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async insertSession(row: SessionsTable, trx?: Executor): Promise<void> {
    await insertSessionRow(this.x(trx), [row]);
  }

  private sessionLookup: CompiledQuery | undefined;
  /** Sessions found, by token hash, until a commit writes sessions or users (SQLite only). */
  private readonly memo: CommitMemo<KeptSession>;

  /**
   * The live session with this token hash, with its user, in one query. It runs on every
   * authenticated call, so its SQL is compiled once and reused with new parameters (token hash,
   * then time): building the query anew each time cost more than running it.
   *
   * Where the database has a version ({@link Db.version}, SQLite), a session found is kept and
   * answered again for as long as nothing was committed to sessions or users since (or to tables the
   * driver cannot name, such as raw SQL): a sign-out, a password change, a deletion, a purchase or a
   * level change empties the memo, so a revocation takes effect on the next call exactly as without
   * it. The version counts this process's commits, and a SQLite file has one server process
   * (`connect` refuses a second); the lookup it saves was the largest share of the lightest
   * authenticated calls. Balances are the store's (`credit_balances`): a purchase keeps the memo.
   */
  findSession(
    tokenHash: string,
    now: number,
  ): (SessionUser & SessionFields) | undefined | Promise<(SessionUser & SessionFields) | undefined> {
    // Read before the lookup, so that a commit during it is not missed.
    const version = this.memo.begin();
    const kept = this.memo.get(tokenHash);
    // A kept session is answered at once, not through a promise: the lightest calls read it.
    if (kept && kept.expires_at > now) return kept;
    return this.lookUpSession(tokenHash, now, version);
  }

  private async lookUpSession(
    tokenHash: string,
    now: number,
    version: number | undefined,
  ): Promise<(SessionUser & SessionFields) | undefined> {
    this.sessionLookup ??= this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'users.id',
        'users.email',
        'users.name',
        'users.lang',
        'users.level',
        'users.email_confirmed',
        'users.pending_email',
        'users.avatar_file_id',
        'users.avatar_key',
        'users.created_at',
        'users.updated_at',
        'sessions.id as session_id',
        'sessions.expires_at',
        'sessions.last_seen_at',
        'users.id as user_id',
      ])
      .where('sessions.token_hash', '=', '')
      .where('sessions.expires_at', '>', 0)
      // A session that slipped in while its account was being deleted opens nothing.
      .where('users.deleted_at', 'is', null)
      .compile();
    const rows = await this.read<SessionUser & SessionFields>(this.sessionLookup, [tokenHash, now]);
    const found = rows[0];
    if (found) this.memo.keep(tokenHash, Object.freeze(found), version);
    return found;
  }

  /**
   * Whether the account is still live, holding its row in `trx` until the end (a write that changes
   * nothing): its deletion updates the same row, so what commits beside a deletion waits for it.
   */
  async holdLiveUser(userId: string, trx: Executor): Promise<boolean> {
    const res = await trx
      .updateTable('users')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Whether some user shows this avatar copy now. */
  async isCurrentAvatar(key: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('avatar_key', '=', key).executeTakeFirst();
    return Boolean(row);
  }

  async avatarKeyOf(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('avatar_key').where('id', '=', userId).executeTakeFirst();
    return row?.avatar_key ?? null;
  }

  async touchSession(id: string, now: number): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
  }

  /** The user's live sessions: not past their end, and used since `idleBefore`. */
  listSessions(userId: string, now: number, idleBefore: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .where('last_seen_at', '>=', idleBefore)
      .orderBy('created_at', 'desc')
      .execute();
  }

  async deleteSession(id: string, trx?: Executor): Promise<void> {
    await this.x(trx).deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Ends every session of the user except `keepId` (all of them when it is null); answers how many. */
  async deleteOtherSessions(userId: string, keepId: string | null, trx?: Executor): Promise<number> {
    let q = this.x(trx).deleteFrom('sessions').where('user_id', '=', userId);
    if (keepId) q = q.where('id', '!=', keepId);
    const res = await q.executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /**
   * Removes sessions past their end or unused since `idleBefore`, and link tokens past theirs or
   * used; answers how many went.
   */
  async purgeExpired(now: number, idleBefore: number): Promise<number> {
    const sessions = await this.db
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([eb('expires_at', '<=', now), eb('last_seen_at', 'is', null), eb('last_seen_at', '<', idleBefore)]),
      )
      .executeTakeFirst();
    const links = await this.db
      .deleteFrom('link_tokens')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null)]))
      .executeTakeFirst();
    return Number(sessions.numDeletedRows) + Number(links.numDeletedRows);
  }

  async insertLinkToken(row: LinkTokensTable, trx?: Executor): Promise<void> {
    await insertLinkTokenRow(this.x(trx), [row]);
  }

  /** Whether a link token is live (known, unused, not expired), without spending it. */
  async findLiveLinkToken(tokenHash: string, kind: LinkTokenRow['kind'], now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('link_tokens')
      .select('token_hash')
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Marks a link token used and answers it, in one statement, so that two clicks racing on the same
   * link cannot both succeed: only the update that finds `used_at` still null gets a row.
   */
  async consumeLinkToken(
    tokenHash: string,
    kind: LinkTokenRow['kind'],
    now: number,
    trx?: Executor,
  ): Promise<LinkTokenRow | undefined> {
    const row = await this.x(trx)
      .updateTable('link_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    return row;
  }

  /** Voids the user's unused links of a kind (a new reset link replaces the old one). */
  async voidLinkTokens(userId: string, kind: LinkTokenRow['kind'], now: number, trx?: Executor): Promise<void> {
    await this.x(trx)
      .updateTable('link_tokens')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .execute();
  }
}
