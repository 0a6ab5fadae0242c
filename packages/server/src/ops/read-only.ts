import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { connect } from '../db/connect.js';
import type { Database } from '../db/schema.js';

const SqliteDriver = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;

/**
 * Opens the database a URL names for reading only. A SQLite file is opened read-only, without taking
 * the server's lock: WAL lets a reader see what is committed while the server that owns the file goes
 * on writing (docs/decisions/001-group-commit-one-process-per-sqlite-file.md).
 */
export async function openForReading(url: string): Promise<{ kysely: Kysely<Database>; close(): Promise<void> }> {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const sqlite = new SqliteDriver(file, { readonly: true, fileMustExist: true });
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { kysely, close: () => kysely.destroy() };
  }
  const db = await connect(url, { poolSize: 2 });
  return { kysely: db.kysely, close: () => db.close() };
}
