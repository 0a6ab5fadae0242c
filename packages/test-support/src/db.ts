import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connect, type Db } from '@till/server';
import type { Dialect } from '@till/server/testing';

// Read once here: test support is the one place besides config that looks at the environment.
const pgUrl = process.env.TEST_DATABASE_URL;
/** The Redis URL for tests of shared counters, when given. */
export const testRedisUrl = process.env.TEST_REDIS_URL;
/**
 * Whether test databases on SQLite commit in groups, as servers do by default: `TEST_SQLITE_GROUP_COMMIT=off`
 * runs the suites with each transaction committed on its own (`SQLITE_GROUP_COMMIT=off`), as
 * `npm test` does for the server and SDK suites in a run of their own.
 */
export const testGroupCommit = parseGroupCommit(process.env.TEST_SQLITE_GROUP_COMMIT);

function parseGroupCommit(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`TEST_SQLITE_GROUP_COMMIT: must be on or off, not ${value}`);
}

/**
 * The engines the suites run against: SQLite always, PostgreSQL when `TEST_DATABASE_URL` is set
 * (CI sets it, so there the PostgreSQL half runs and cannot silently skip).
 */
export const dialects: Dialect[] = pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/** A throwaway database: a temp SQLite file, or a fresh PostgreSQL schema. `drop()` removes it. */
export interface TestDb extends Db {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDb(dialect: Dialect, poolSize = 10): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'till-test-'));
    const url = `sqlite:${join(dir, 'till.db')}`;
    const db = await connect(url, { groupCommit: testGroupCommit });
    return {
      ...db,
      url,
      drop: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!pgUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const sep = pgUrl.includes('?') ? '&' : '?';
  const url = `${pgUrl}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  await admin.end();
  const db = await connect(url, { poolSize });
  return {
    ...db,
    url,
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}
