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

/** Epoch millis (how times are stored) as the ISO text the protocol shows. */
export function iso(millis: number): string {
  return new Date(millis).toISOString();
}

/** The offset and limit of a 1-based page. */
export function pageOf(input: { page: number; pageSize: number }): { offset: number; limit: number } {
  return { offset: (input.page - 1) * input.pageSize, limit: input.pageSize };
}
