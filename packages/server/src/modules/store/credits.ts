import { sql, type Selectable, type Transaction } from 'kysely';
import type { CreditEntry } from '@till/protocol';
import type { CreditLedgerTable, Database } from '../../db/schema.js';
import { AbortTransaction, fail } from '../../errors.js';
import { iso, MAX_INT, pageOf, type Executor } from '../../db/rows.js';
import type { StoreDeps } from './deps.js';
import { newId } from './ids.js';
import { prepared } from '../../db/prepared.js';

/** Why credits moved; shown to the buyer in their history. */
export type CreditReason = 'purchase' | 'spend' | 'coupon' | 'refund' | 'adjustment';

export interface CreditMove {
  userId: string;
  /** Positive to give, negative to take. */
  amount: number;
  reason: CreditReason;
  reference: string | null;
  now: number;
}

export function toCreditEntry(row: Selectable<CreditLedgerTable>): CreditEntry {
  return {
    id: row.id,
    amount: row.amount,
    reason: row.reason,
    reference: row.reference,
    balanceAfter: row.balance_after,
    createdAt: iso(row.created_at),
  };
}

/** The guarded balance change of {@link moveCredits}: only when the result stays within 0..MAX_INT. */
const changeBalance = prepared<{ userId: string; amount: number }, { credits: number }>((db, p) =>
  db
    .updateTable('credit_balances')
    .set({ credits: sql<number>`credits + ${p('amount')}` })
    .where('user_id', '=', p('userId'))
    // Summed as 64-bit, so the check itself cannot overflow PostgreSQL's 32-bit integer.
    .where(sql<number>`CAST(credits AS BIGINT) + ${p('amount')}`, '>=', 0)
    .where(sql<number>`CAST(credits AS BIGINT) + ${p('amount')}`, '<=', MAX_INT)
    .returning('credits'),
);

const balanceRow = prepared<{ userId: string }, { credits: number }>((db, p) =>
  db.selectFrom('credit_balances').select('credits').where('user_id', '=', p('userId')),
);

/**
 * Opens a new account's balance at zero, in the transaction that creates the account: a balance row
 * exists exactly while its user does (the accounts module calls this through the port the app gives
 * it). Opening one twice changes nothing.
 */
export async function openBalance(trx: Executor, userId: string): Promise<void> {
  await trx
    .insertInto('credit_balances')
    .values({ user_id: userId, credits: 0 })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/** A user's balance, or undefined for an unknown user. */
export async function balanceOf(x: Executor, userId: string): Promise<number | undefined> {
  return (await balanceRow(x, { userId })).rows[0]?.credits;
}

/** Balances of several users at once (a user without a row is left out). */
export async function balancesOf(x: Executor, userIds: readonly string[]): Promise<Map<string, number>> {
  if (!userIds.length) return new Map();
  const rows = await x
    .selectFrom('credit_balances')
    .select(['user_id', 'credits'])
    .where('user_id', 'in', [...new Set(userIds)])
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.credits]));
}

/**
 * Holds the buyer's balance row until `trx` ends and answers the balance (undefined for an unknown
 * user). The no-op write takes the row lock on PostgreSQL, so what is decided from the balance next
 * (a reversal's take, a subscription's start) cannot race another purchase of the same buyer; SQLite
 * runs one writer at a time anyway.
 */
export async function holdBalance(trx: Transaction<Database>, userId: string): Promise<number | undefined> {
  const row = await trx
    .updateTable('credit_balances')
    .set({ credits: sql<number>`credits` })
    .where('user_id', '=', userId)
    .returning('credits')
    .executeTakeFirst();
  return row?.credits;
}

type LedgerRow = Selectable<CreditLedgerTable>;
const insertLedgerEntry = prepared<LedgerRow, never>((db, p) =>
  db.insertInto('credit_ledger').values({
    id: p('id'),
    user_id: p('user_id'),
    amount: p('amount'),
    reason: p('reason'),
    reference: p('reference'),
    balance_after: p('balance_after'),
    created_at: p('created_at'),
  }),
);

/**
 * An entry as its buyer sees it: a correction keeps the administrator's note but not who made it
 * (the administrator's id is an internal value; the ledger keeps it for administrators).
 */
export function forBuyer(entry: CreditEntry): CreditEntry {
  if (entry.reason !== 'adjustment' || !entry.reference) return entry;
  return { ...entry, reference: entry.reference.replace(/\s*\(by [^()]*\)$/, '') || null };
}

/**
 * Moves credits and writes the ledger entry, inside the caller's transaction, so that the balance and
 * the ledger never disagree.
 *
 * The balance changes by one conditional update (`credits + amount >= 0`), never by a read and a
 * write: on PostgreSQL concurrent moves queue on the row lock and each re-checks the condition
 * against the committed balance, so fifty spends racing for ten purchases' worth of credits get
 * exactly ten. The CHECK on `credit_balances.credits` would refuse a negative balance even if this guard
 * were wrong. Throws {@link AbortTransaction} with 909 (or 904 for an unknown user).
 */
export async function moveCredits(trx: Transaction<Database>, move: CreditMove): Promise<CreditEntry> {
  // Balances are an integer column: a move that would pass its top is refused like one below zero.
  if (Math.abs(move.amount) > MAX_INT) throw new AbortTransaction(fail.invalidInput('amount', 'too_long'));
  const updated = (await changeBalance(trx, { userId: move.userId, amount: move.amount })).rows[0];
  if (!updated) {
    const balance = await balanceOf(trx, move.userId);
    if (balance !== undefined && balance + move.amount > MAX_INT)
      throw new AbortTransaction(fail.invalidInput('amount', 'too_long'));
    throw new AbortTransaction(
      balance !== undefined ? fail.notEnoughCredits(balance, -move.amount) : fail.notFound('userId'),
    );
  }
  const row: LedgerRow = {
    // The id orders the ledger. It is taken now, after the guarded update, which holds the balance row
    // until commit: a move that started earlier but reached the balance later sorts after the one
    // that got there first, as its `balance_after` does. The request's own time would not.
    id: newId(Date.now()),
    user_id: move.userId,
    amount: move.amount,
    reason: move.reason,
    reference: move.reference,
    balance_after: updated.credits,
    created_at: move.now,
  };
  await insertLedgerEntry(trx, row);
  return toCreditEntry(row);
}

/** A user's balance and ledger, newest first. */
export async function creditHistory(
  deps: StoreDeps,
  userId: string,
  page: { page: number; pageSize: number },
  x: Executor = deps.db,
): Promise<{ balance: number; entries: CreditEntry[]; total: number } | undefined> {
  const balance = await balanceOf(x, userId);
  if (balance === undefined) return undefined;
  const { offset, limit } = pageOf(page);
  const rows = await x
    .selectFrom('credit_ledger')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  const count = await x
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { balance, entries: rows.map(toCreditEntry), total: Number(count.n) };
}
