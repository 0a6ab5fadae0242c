import type { CompiledQuery, DatabaseConnection, DialectAdapter, Driver, QueryResult } from 'kysely';
import { SelectQueryNode, SqliteDialect } from 'kysely';
import { allowDirectStatements, type DirectConnections } from './direct-statements.js';
import { EVERY_TABLE, writtenTables, type CountedApart } from './written-tables.js';

// The driver's parts live beside it; their importers may keep importing them from here.
export { directStatements, runDirect } from './direct-statements.js';
export { writtenTables, type CountedApart } from './written-tables.js';

/** What the driver needs of a better-sqlite3 database: cached statements and its transaction state. */
export interface SqliteHandle {
  prepare(sql: string): {
    reader: boolean;
    readonly: boolean;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  };
  readonly inTransaction: boolean;
  close(): void;
}

/**
 * How long a batch stays open and how many transactions it takes before it commits anyway. A batch
 * of at most one ({@link EACH_ON_ITS_OWN}) is no batch: each transaction is a database transaction of
 * its own, without a savepoint, committed before it resolves.
 */
export interface GroupCommitLimits {
  maxMembers: number;
  maxOpenMs: number;
}

const DEFAULT_LIMITS: GroupCommitLimits = { maxMembers: 64, maxOpenMs: 4 };
/** Group commit off (`SQLITE_GROUP_COMMIT=off`): every transaction commits on its own. */
export const EACH_ON_ITS_OWN: GroupCommitLimits = { maxMembers: 1, maxOpenMs: 0 };
const MEMBER = 'till_member';

interface Member {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** One holder of the connection, from acquire to release (Kysely's connection for that span). */
class Lease implements DatabaseConnection {
  inTransaction = false;
  released = false;
  constructor(private readonly driver: GroupCommitDriver) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, query);
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on SQLite here');
  }
}

/**
 * Kysely's SQLite driver with group commit. SQLite has one writer, so transactions already ran one
 * after another on one connection; what each paid on its own was the commit, which writes every page
 * it changed to the WAL and was the largest single cost of a purchase. Here a finished transaction
 * releases its savepoint inside one open database transaction and hands the connection on; the batch
 * commits once the event loop has taken in the requests that arrived meanwhile and nobody is inside a
 * transaction (or when it holds `maxMembers`, or has been open `maxOpenMs`).
 *
 * What does not change: each transaction runs alone, in arrival order, on the data of those before it;
 * one that fails rolls back to its savepoint and takes nothing of the others with it; and its
 * `execute` resolves only after the COMMIT that made it durable, so no caller answers before its
 * writes are on disk and visible to other connections. What does: if the COMMIT itself fails (a full
 * disk, a deferred constraint), every transaction of the batch fails with it and none of their writes
 * remain; and a transaction that awaits something besides the database keeps the batch before it
 * waiting too. A write outside any transaction commits the open batch before it runs; a read outside
 * any transaction goes to the read connection and sees what is committed. Why:
 * docs/decisions/001-group-commit-one-process-per-sqlite-file.md.
 *
 * With {@link EACH_ON_ITS_OWN} limits (`SQLITE_GROUP_COMMIT=off`) there are no batches: each
 * transaction begins and commits a database transaction of its own, while the read connection, the
 * commits counted per table and the direct statements work as with batches.
 */
export class GroupCommitDriver implements Driver, DirectConnections {
  private readonly waiting: Array<(lease: Lease) => void> = [];
  private holder: Lease | undefined;
  private batch: Member[] = [];
  private batchOpen = false;
  private batchStartedAt = 0;
  private commitScheduled = false;
  /** How many transactions the open batch held when the loop last came round to commit it. */
  private membersAtLastTurn = 0;
  /** Commits and transactions committed, for tests and measurements. */
  readonly stats = { commits: 0, transactions: 0 };
  /** Commits per table written ({@link EVERY_TABLE} for writes whose tables cannot be named). */
  private readonly tableChanges = new Map<string, number>();
  /** What the open batch has written, counted when it commits. */
  private readonly batchTables = new Set<string>();
  /** The tables each query writes ({@link writtenTables}), by query: a prepared query is the same object every run. */
  private readonly writes = new WeakMap<object, readonly string[]>();
  /** Group commit off: each transaction begins and commits the database transaction itself. */
  private readonly alone: boolean;

  /**
   * @param reader a second, read-only connection to the same file (none for a private in-memory
   * database): a SELECT outside any transaction runs there, on what is committed, instead of ending
   * the open batch.
   */
  constructor(
    private readonly db: SqliteHandle,
    private readonly reader?: SqliteHandle,
    private readonly limits: GroupCommitLimits = DEFAULT_LIMITS,
    /** Called for every commit on the writer: a batch's once it is made, a write's of its own as it runs. */
    private readonly afterCommit?: () => void,
  ) {
    this.alone = limits.maxMembers <= 1;
  }

  async init(): Promise<void> {}

  /** Columns whose updates {@link version} counts apart from their table (see {@link writtenTables}), by table. */
  private apart: CountedApart = {};

  /**
   * Counts an update that sets nothing but some of `columns` of `table` as a change of `table.column`
   * for each, not of `table` (see {@link writtenTables}). The modules that keep values between commits
   * register what they need before their first query; the driver itself knows no table.
   */
  countApart(table: string, columns: readonly string[]): void {
    const own = Object.hasOwn(this.apart, table) ? (this.apart[table] ?? []) : [];
    this.apart = { ...this.apart, [table]: [...new Set([...own, ...columns])] };
  }

  /** The lease of the transaction that has just begun, for its direct statements (`direct-statements.ts`). */
  currentTransaction(): DatabaseConnection | undefined {
    return this.holder?.inTransaction ? this.holder : undefined;
  }

  /**
   * A number that changes with every commit made through this driver that wrote any of `tables` (or
   * that wrote tables it cannot name). A column counted apart ({@link countApart}) is named
   * `table.column`: `coupons` does not change when only `coupons.used` did. The file's only writer is this process (see `connect`), so
   * while it is unchanged the read connection sees the same rows of those tables.
   */
  version(tables: readonly string[]): number {
    let sum = this.tableChanges.get(EVERY_TABLE) ?? 0;
    for (const t of tables) sum += this.tableChanges.get(t) ?? 0;
    return sum;
  }

  /** Counts a commit that wrote `tables`. */
  private changed(tables: Iterable<string>): void {
    for (const t of tables) this.tableChanges.set(t, (this.tableChanges.get(t) ?? 0) + 1);
    this.afterCommit?.();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.holder) {
      this.holder = new Lease(this);
      return Promise.resolve(this.holder);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!this.batchOpen) {
      this.run('begin');
      this.batchOpen = true;
      this.batchStartedAt = performance.now();
    }
    if (!this.alone) this.run(`savepoint ${MEMBER}`);
    lease.inTransaction = true;
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!this.alone) this.run(`release ${MEMBER}`);
    lease.inTransaction = false;
    // Alone, the batch is this transaction, and it is at its limit: it commits now.
    const done = new Promise<void>((resolve, reject) => this.batch.push({ resolve, reject }));
    if (this.batchAtLimit()) this.commitBatch();
    // The connection goes on to the next transaction now; this one's answer waits for the commit.
    this.handOn(lease);
    return done;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // Kysely also rolls back after a failed commit; by then the batch was rolled back as a whole and
    // the connection has moved on to other transactions.
    if (!lease.inTransaction) return;
    lease.inTransaction = false;
    if (!this.db.inTransaction) {
      // SQLite rolled back the whole transaction itself (a full disk, an I/O error): the batch is gone.
      this.failBatch(new Error('the database rolled back the transaction'));
      return;
    }
    try {
      if (this.alone) {
        this.closeBatch();
        this.run('rollback');
        return;
      }
      this.run(`rollback to ${MEMBER}`);
      this.run(`release ${MEMBER}`);
    } catch (error) {
      this.failBatch(error);
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.handOn(connection as Lease);
  }

  async destroy(): Promise<void> {
    if (this.batchOpen) this.commitBatch();
    this.db.close();
  }

  /** Runs one query for the lease that holds the connection. */
  execute<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      // A transaction's statement after its commit or rollback: the connection is someone else's.
      if (lease.released) throw new Error('the transaction has already ended');
      if (!lease.inTransaction) {
        // A read of its own sees what is committed, as it would on this connection between transactions.
        if (this.reader && SelectQueryNode.is(query.query))
          return Promise.resolve({ rows: this.reader.prepare(query.sql).all(query.parameters) as R[] });
        // A write of its own must not join the batch: it would be answered before its commit.
        if (this.batchOpen) this.commitBatch();
      }
      const stmt = this.db.prepare(query.sql);
      // An INSERT ... RETURNING is a reader that writes. A write of its own is committed as it runs;
      // one in a transaction counts when its batch commits.
      if (!stmt.readonly) {
        const tables = this.tablesWrittenBy(query);
        if (!lease.inTransaction) this.changed(tables);
        else for (const t of tables) this.batchTables.add(t);
      }
      if (stmt.reader) return Promise.resolve({ rows: stmt.all(query.parameters) as R[] });
      const { changes, lastInsertRowid } = stmt.run(query.parameters);
      return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private tablesWrittenBy(query: CompiledQuery): readonly string[] {
    let tables = this.writes.get(query.query);
    if (!tables) {
      tables = writtenTables(query.query, this.apart) ?? [EVERY_TABLE];
      this.writes.set(query.query, tables);
    }
    return tables;
  }

  private run(sql: string): void {
    this.db.prepare(sql).run();
  }

  /** Passes the connection to the next waiter, or frees it. */
  private handOn(lease: Lease): void {
    if (lease.released) return;
    lease.released = true;
    const next = this.waiting.shift();
    this.holder = next ? new Lease(this) : undefined;
    if (this.batchOpen) this.scheduleCommit();
    if (next && this.holder) next(this.holder);
  }

  /**
   * Commits the open batch once the event loop has taken in what arrived meanwhile: better-sqlite3
   * is synchronous, so a transaction runs within one turn of the loop, and the requests that would
   * join its batch are only read in the loop's next poll for I/O. While transactions keep joining
   * from one turn to the next, the commit waits another turn (up to `maxOpenMs`): under load a batch
   * then holds about every request in flight, and the commit, which costs as much as the rest of a
   * purchase's statements, is shared by all of them. An idle server loses one turn, microseconds.
   */
  private scheduleCommit(): void {
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    setImmediate(() => {
      this.commitScheduled = false;
      // A transaction still running (it awaits something besides the database) commits the batch
      // when it ends, through another schedule.
      if (!this.batchOpen || this.holder?.inTransaction) return;
      if (this.batch.length > this.membersAtLastTurn && !this.batchAtLimit()) {
        this.membersAtLastTurn = this.batch.length;
        this.scheduleCommit();
        return;
      }
      this.commitBatch();
    });
  }

  /** Whether the open batch holds `maxMembers` transactions or has been open `maxOpenMs`: it commits now. */
  private batchAtLimit(): boolean {
    return (
      this.batch.length >= this.limits.maxMembers || performance.now() - this.batchStartedAt >= this.limits.maxOpenMs
    );
  }

  private commitBatch(): void {
    const { members, tables } = this.closeBatch();
    try {
      this.run('commit');
    } catch (error) {
      // Nothing of the batch was written.
      this.rejectAll(members, error);
      return;
    }
    this.changed(tables);
    this.stats.commits += 1;
    this.stats.transactions += members.length;
    for (const m of members) m.resolve();
  }

  private failBatch(error: unknown): void {
    this.rejectAll(this.closeBatch().members, error);
  }

  /** Ends the open batch's bookkeeping: its members and the tables it wrote, handed to the caller. */
  private closeBatch(): { members: Member[]; tables: string[] } {
    const closed = { members: this.batch, tables: [...this.batchTables] };
    this.batch = [];
    this.batchTables.clear();
    this.batchOpen = false;
    this.membersAtLastTurn = 0;
    return closed;
  }

  private rejectAll(members: Member[], error: unknown): void {
    this.rollbackAll();
    for (const m of members) m.reject(error);
  }

  private rollbackAll(): void {
    try {
      if (this.db.inTransaction) this.run('rollback');
    } catch {
      // Nothing is left to undo: SQLite ended the transaction itself.
    }
  }
}

/** Kysely's SQLite dialect on a {@link GroupCommitDriver}, whose transactions may run direct statements. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  constructor(
    private readonly driver: GroupCommitDriver,
    database: SqliteHandle,
  ) {
    super({ database: database as never });
  }
  override createDriver(): Driver {
    return this.driver;
  }
  override createAdapter(): DialectAdapter {
    const adapter = super.createAdapter();
    allowDirectStatements(adapter, this.driver);
    return adapter;
  }
}
