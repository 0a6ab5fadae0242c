import { CompiledQuery } from 'kysely';
import { CommitMemo } from '../../db/commit-memo.js';
import type { Executor } from '../../db/rows.js';
import { balancesOf, openBalance } from './credits.js';
import type { StoreDeps } from './deps.js';

/** Balances kept at most between commits (emptied when full). */
const BALANCE_MEMO_SIZE = 10_000;
/** The table a kept balance is read from: any commit that wrote it empties the memo. */
const BALANCE_TABLES = ['credit_balances'] as const;

/**
 * Balances as the rest of the server asks for them: the accounts module shows a user's balance with
 * their profile and opens a new account's, through the port the app builds from this. The balance is
 * the store's (`credit_balances`); nothing outside the store reads or writes it.
 *
 * getUserInfo asks for the balance on every call, so on SQLite a balance read is kept until a commit
 * writes `credit_balances` (see `CommitMemo`): a purchase empties what is kept, as it made every kept
 * session's balance stale before balances had a table of their own.
 */
export class Balances {
  private readonly memo: CommitMemo<{ credits: number }>;
  private lookup: CompiledQuery | undefined;

  constructor(private readonly deps: StoreDeps) {
    this.memo = new CommitMemo(deps.version, BALANCE_TABLES, BALANCE_MEMO_SIZE);
  }

  /**
   * A user's balance, or undefined for an unknown user. A kept balance is answered at once, not
   * through a promise (the lightest authenticated calls ask for it).
   */
  of(userId: string): number | undefined | Promise<number | undefined> {
    const version = this.memo.begin();
    const kept = this.memo.get(userId);
    if (kept) return kept.credits;
    return this.load(userId, version);
  }

  private async load(userId: string, version: number | undefined): Promise<number | undefined> {
    this.lookup ??= this.deps.db.selectFrom('credit_balances').select('credits').where('user_id', '=', '').compile();
    const read =
      this.deps.read ??
      (<T>(query: CompiledQuery, parameters: readonly unknown[]) =>
        this.deps.db.executeQuery<T>(CompiledQuery.raw(query.sql, [...parameters])).then((r) => [...r.rows]));
    const rows = await read<{ credits: number }>(this.lookup, [userId]);
    const row = rows[0];
    if (row) this.memo.keep(userId, Object.freeze({ credits: row.credits }), version);
    return row?.credits;
  }

  /** Balances of several users (administrators' lists); a user without one is left out. */
  ofMany(userIds: readonly string[], x: Executor = this.deps.db): Promise<Map<string, number>> {
    return balancesOf(x, userIds);
  }

  /** Opens a new account's balance at zero, inside the transaction that creates the account. */
  open(trx: Executor, userId: string): Promise<void> {
    return openBalance(trx, userId);
  }
}
