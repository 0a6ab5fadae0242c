import type { CompiledQuery, DatabaseConnection, Kysely, QueryResult, Transaction } from 'kysely';

/**
 * What a driver offers the direct path: the connection of the transaction that has just begun on it
 * (undefined when none has), which refuses queries once that transaction has ended.
 */
export interface DirectConnections {
  currentTransaction(): DatabaseConnection | undefined;
}

/** The driver of each Kysely that allows direct statements, by its adapter (shared with its transactions). */
const sources = new WeakMap<object, DirectConnections>();
/** The connection of each transaction bound by {@link directStatements}. */
const bound = new WeakMap<object, DatabaseConnection>();

/** Lets the transactions of every Kysely built with `adapter` run statements straight on `driver`'s connection. */
export function allowDirectStatements(adapter: object, driver: DirectConnections): void {
  sources.set(adapter, driver);
}

/**
 * `work` for `db.transaction().execute`, with the transaction's statements allowed to go straight to
 * its connection (see {@link runDirect}); `work` itself on any other database.
 */
export function directStatements<DB, T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<T>,
): (trx: Transaction<DB>) => Promise<T> {
  const driver = sources.get(db.getExecutor().adapter);
  if (!driver) return work;
  return (trx) => {
    const connection = driver.currentTransaction();
    if (connection) bound.set(trx, connection);
    return work(trx);
  };
}

/**
 * Runs a compiled query of a transaction bound by {@link directStatements} on its connection at once,
 * or answers undefined (not such a transaction: the caller goes through Kysely). Kysely would pass the
 * query through five asynchronous layers that check, in turn, that the transaction is still open and
 * that its queries run one at a time; better-sqlite3 runs each query to its end before returning, and
 * the driver refuses a connection that has been handed back, so the same holds here at a fraction of
 * the cost (a tenth of a purchase's CPU time under load: docs/decisions/002-direct-prepared-statements.md).
 */
export function runDirect<R>(x: object, query: CompiledQuery): Promise<QueryResult<R>> | undefined {
  return bound.get(x)?.executeQuery<R>(query);
}
