import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** The largest integer both databases store in an `integer` column (PostgreSQL's is 32 bits). */
export const MAX_INT = 2_147_483_647;

/** A query runner: the database, or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** Reads a JSON column that the server itself wrote; a damaged value reads as the fallback. */
export function readJson<T>(text: string | null, fallback: T): T {
  if (text == null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from there on (and before 1970) the Date object formats. */
const YEAR_10000_MS = 253_402_300_800_000;
const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * Epoch millis (how times are stored) as the ISO text the protocol shows, exactly as
 * `Date.prototype.toISOString` writes it. Computed here for 1970 to 9999, a third of the Date
 * object's time: every answer with a time formats one or more (days to a civil date after Howard
 * Hinnant's `civil_from_days`).
 */
export function iso(millis: number): string {
  if (!(millis >= 0 && millis < YEAR_10000_MS) || !Number.isInteger(millis)) return new Date(millis).toISOString();
  const days = Math.floor(millis / DAY_MS);
  let rest = millis - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const ms = rest - seconds * 1000;
  // Days since 0000-03-01, in 400-year eras; the year then starts in March, so that leap days come last.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(ms)}Z`;
}

/** The offset and limit of a 1-based page. */
export function pageOf(input: { page: number; pageSize: number }): { offset: number; limit: number } {
  return { offset: (input.page - 1) * input.pageSize, limit: input.pageSize };
}

/**
 * Whether `error` is the database refusing a row because `table.column` must be unique (or, with
 * more columns, that combination of them, as the key names them in order). Answers from the refusal
 * itself: when two writers race, the loser cannot count on reading the winner's row yet (on SQLite
 * the winner's commit may still be waiting for its batch).
 */
export function isUniqueViolation(error: unknown, table: string, ...columns: [string, ...string[]]): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; table?: unknown; detail?: unknown };
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    // "UNIQUE constraint failed: social_identities.provider, social_identities.subject"
    const key = columns.map((c) => `${table}.${c}`).join(', ');
    return typeof e.message === 'string' && e.message.endsWith(`: ${key}`);
  }
  // PostgreSQL's unique_violation names the table and, in its detail, the key: "Key (email)=(…) already exists."
  return (
    e.code === '23505' &&
    e.table === table &&
    typeof e.detail === 'string' &&
    e.detail.startsWith(`Key (${columns.join(', ')})=`)
  );
}
