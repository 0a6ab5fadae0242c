import type { Kysely, Transaction } from 'kysely';
import { AbortTransaction, type Failure } from '../errors.js';
import { directStatements } from './direct-statements.js';
import type { Database } from './schema.js';

/**
 * Runs `work` in one transaction; any error rolls back and propagates. On SQLite its prepared
 * statements go straight to the transaction's connection (see `directStatements`).
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(directStatements(db, work));
}

/**
 * Runs `work` in one transaction. Throwing {@link AbortTransaction} rolls back and returns its
 * failure as a value; any other error rolls back and propagates.
 */
export async function runInTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T | Failure> {
  try {
    return await inTransaction(db, work);
  } catch (error) {
    if (error instanceof AbortTransaction) return error.failure;
    throw error;
  }
}
