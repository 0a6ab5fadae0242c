import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

/** Which engine a {@link Db} talks to; the few queries that differ branch on it. */
export type Dialect = 'sqlite' | 'postgres';

/** A Kysely instance with the engine it runs on. */
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// int8 (bigint) comes back from pg as a string; every bigint here is epoch millis or a count that fits.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

const STATEMENT_CACHE = 500;

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

/**
 * Opens the database a URL names: `sqlite:PATH` (`sqlite::memory:` for a throwaway one) or
 * `postgres://...`.
 */
export function connect(url: string, options: { poolSize?: number } = {}): Db {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    // WAL lets readers go on while one writer commits; NORMAL sync is safe with WAL.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
    return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
}
