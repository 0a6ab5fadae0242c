import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely } from 'kysely';
import { SearchPathPostgresDialect } from './pg-introspector.js';
import { BackgroundCheckpoints } from './checkpoints.js';
import { EACH_ON_ITS_OWN, GroupCommitDriver, GroupCommitSqliteDialect } from './group-commit.js';
import type { Database } from './schema.js';

/** Which engine a {@link Db} talks to; the few queries that differ branch on it. */
export type Dialect = 'sqlite' | 'postgres';

/** A Kysely instance with the engine it runs on. */
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * Runs a read-only compiled query (SQL text plus new parameters) outside any transaction. On SQLite
   * it goes to a separate read connection: WAL lets it read committed data while a write transaction
   * holds the main connection, so the hot reads (the session check of every authenticated call) never
   * queue behind store transactions, and they skip Kysely's per-query overhead.
   */
  read<T>(query: CompiledQuery, parameters: readonly unknown[]): Promise<T[]>;
  /**
   * SQLite in a file: a number that changes with every commit to it that wrote any of `tables` (or
   * tables it cannot name, such as raw SQL). This process is the file's only writer ({@link connect}
   * refuses a second), so what {@link read} answered from those tables is still the answer while the
   * number is unchanged. Absent on PostgreSQL.
   */
  version?: (tables: readonly string[]) => number;
  /**
   * Where {@link version} is counted: makes an UPDATE that sets nothing but some of `columns` of
   * `table` count as a change of `table.column` for each, not of `table`, so that values kept from the
   * rest of the row stay good through it (docs/decisions/003-values-kept-between-commits.md). Modules
   * register their own columns when they are built; the platform names no table.
   */
  countApart?: (table: string, columns: readonly string[]) => void;
  /**
   * A connection of its own beside the pool (PostgreSQL), for state that lives as long as a session:
   * an advisory lock held while the process runs ({@link Liveness}).
   */
  openSession?: () => Promise<SessionConnection>;
  /** The connection pool's counts, where there is a pool (PostgreSQL). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** SQLite in a file: its path (what a backup copies). */
  file?: string;
  /** SQLite in a file: the worker that checkpoints the WAL off the server's thread once writes go on. */
  checkpoints?: BackgroundCheckpoints;
  close(): Promise<void>;
}

/** A single database connection outside the pool. */
export interface SessionConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Called once if the connection breaks (the server restarted, the network went). */
  onLost(listener: (error: Error) => void): void;
  end(): Promise<void>;
}

const STATEMENT_CACHE = 500;

const requireHere = createRequire(import.meta.url);
const SqliteDriver = requireHere('better-sqlite3') as typeof SqliteDatabase;

/**
 * better-sqlite3 compiles a statement on every `prepare`, which Kysely calls for every query: the
 * profile of getUserInfo under load showed it as the largest single cost. Kysely's SQL text is stable
 * per query shape, so compiled statements are kept by text (bounded, oldest dropped first). Reuse is
 * safe because Kysely runs one query at a time on its single SQLite connection.
 */
function cachingStatements(db: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => db.close(),
    get inTransaction() {
      return db.inTransaction;
    },
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

function openSqlite(file: string, readonly: boolean): SqliteDatabase.Database {
  const sqlite = new SqliteDriver(file, { readonly });
  if (!readonly) {
    // WAL lets readers go on while one writer commits; NORMAL sync is safe with WAL.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
  }
  // Temporary storage in memory: each transaction runs in a savepoint (see group-commit), for which
  // SQLite journals every page it changes a second time, and past 64 KiB it put that journal in a file
  // of its own, created and removed again by every sign-up. Till's queries sort and group little.
  // docs/decisions/006-sqlite-temporary-storage-in-memory.md
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

/**
 * Takes the lock that makes this process the only server on a SQLite file: an exclusive lock on a
 * small file beside it (`<file>-owner`), held until the process closes the database or ends. The
 * operating system drops it when the process dies, even by `kill -9`, so a crashed server never
 * blocks the next. Several server processes need PostgreSQL. Why:
 * docs/decisions/001-group-commit-one-process-per-sqlite-file.md.
 */
function holdOwnerLock(file: string): SqliteDatabase.Database {
  const lock = new SqliteDriver(`${file}-owner`, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('begin exclusive');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new Error(
        `${file} is in use by another Till server: SQLite serves one server process (use PostgreSQL to run several)`,
        { cause: error },
      );
    }
    throw error;
  }
  return lock;
}

/**
 * Opens the database a URL names: `sqlite:PATH` (`sqlite::memory:` for a throwaway one) or
 * `postgres://...`. On SQLite, transactions commit in groups unless `groupCommit` is false
 * (`SQLITE_GROUP_COMMIT=off`); then each commits on its own.
 */
export async function connect(
  url: string,
  options: { poolSize?: number; groupCommit?: boolean; onCheckpointFailure?: (error: unknown) => void } = {},
): Promise<Db> {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const memory = file === ':memory:';
    if (!memory) mkdirSync(dirname(file), { recursive: true });
    // One server process per file: its writer knows every commit, and its start-up clean-up may
    // treat records of other instances as left over.
    const owner = memory ? undefined : holdOwnerLock(file);
    const writing = openSqlite(file, false);
    const writer = cachingStatements(writing);
    // A private in-memory database cannot be opened twice; there the reads share the one connection.
    const reader = memory ? undefined : cachingStatements(openSqlite(file, true));
    const checkpoints = memory
      ? undefined
      : new BackgroundCheckpoints(writing, {
          file,
          driver: requireHere.resolve('better-sqlite3'),
          ...(options.onCheckpointFailure ? { onFailure: options.onCheckpointFailure } : {}),
        });
    const driver = new GroupCommitDriver(
      writer,
      reader,
      options.groupCommit === false ? EACH_ON_ITS_OWN : undefined,
      checkpoints && (() => checkpoints.noteCommit()),
    );
    const kysely = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(driver, writer) });
    return {
      kysely,
      dialect: 'sqlite',
      read: <T>(query: CompiledQuery, parameters: readonly unknown[]) =>
        reader
          ? Promise.resolve(reader.prepare(query.sql).all(...parameters) as T[])
          : kysely.executeQuery<T>(CompiledQuery.raw(query.sql, [...parameters])).then((r) => [...r.rows]),
      ...(reader
        ? {
            version: (tables: readonly string[]) => driver.version(tables),
            countApart: (table: string, columns: readonly string[]) => driver.countApart(table, columns),
            file,
          }
        : {}),
      ...(checkpoints ? { checkpoints } : {}),
      close: async () => {
        await checkpoints?.stop();
        await kysely.destroy();
        reader?.close();
        owner?.close();
      },
    };
  }
  // Loaded only for PostgreSQL: a server on SQLite keeps the driver out of its memory.
  const { default: pg } = await import('pg');
  // int8 (bigint) comes back from pg as a string; every bigint here is epoch millis or a count that fits.
  pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  const kysely = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
  return {
    kysely,
    dialect: 'postgres',
    read: <T>(query: CompiledQuery, parameters: readonly unknown[]) =>
      kysely.executeQuery<T>(CompiledQuery.raw(query.sql, [...parameters])).then((r) => [...r.rows]),
    openSession: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      let lost: ((error: Error) => void) | undefined;
      let ended = false;
      const gone = (error: Error) => {
        if (ended) return;
        ended = true;
        lost?.(error);
      };
      client.on('error', gone);
      client.on('end', () => gone(new Error('connection closed')));
      return {
        query: (text, values) => client.query(text, values),
        onLost: (listener) => (lost = listener),
        end: async () => {
          ended = true;
          await client.end();
        },
      };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => kysely.destroy(),
  };
}
