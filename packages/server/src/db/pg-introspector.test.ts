import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDb, dialects, type TestDb } from '@till/test-support/db';
import { migrateToLatest } from './migrate.js';

describe.runIf(dialects.includes('postgres'))('migrations on a PostgreSQL server shared with other schemas', () => {
  let ours: TestDb;
  let theirs: TestDb;
  beforeAll(async () => {
    [ours, theirs] = await Promise.all([createTestDb('postgres', 2), createTestDb('postgres', 2)]);
    await migrateToLatest(ours.kysely, 'postgres');
  });
  afterAll(async () => {
    await Promise.all([ours.drop(), theirs.drop()]);
  });

  it("sees only its own schema's tables", async () => {
    const mine = await ours.kysely.introspection.getTables();
    expect(mine.map((t) => t.name)).toContain('users');
    expect(mine.every((t) => t.schema === mine[0]?.schema)).toBe(true);
    const users = mine.find((t) => t.name === 'users');
    expect(users?.columns.find((c) => c.name === 'email')).toMatchObject({ dataType: 'text', isNullable: false });
    expect(mine.map((t) => t.name)).not.toContain('kysely_migration');
    const withBookkeeping = await ours.kysely.introspection.getTables({ withInternalKyselyTables: true });
    expect(withBookkeeping.map((t) => t.name)).toContain('kysely_migration');
    // The other schema is empty, though the server holds our tables.
    expect(await theirs.kysely.introspection.getTables()).toEqual([]);
  });

  it('migrates while another schema on the server renames its columns', async () => {
    // Another application keeps changing its own table, in its own schema, on the same server.
    const churn = new pg.Client({ connectionString: theirs.url });
    await churn.connect();
    await churn.query('create table churn (a integer, b integer, c integer)');
    let stop = false;
    let renames = 0;
    const churning = (async () => {
      const names = ['a', 'b', 'c'];
      while (!stop) {
        // Each round moves every column to a new name, so a look at the catalog between two
        // statements finds names that no longer exist.
        for (const n of names) await churn.query(`alter table churn rename column ${n} to ${n}_x`);
        for (const n of names) await churn.query(`alter table churn rename column ${n}_x to ${n}`);
        renames += 6;
      }
    })();
    try {
      // Each run finds the bookkeeping tables by introspection, then sees nothing left to apply.
      for (let i = 0; i < 40; i++) await migrateToLatest(ours.kysely, 'postgres');
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
    expect(renames).toBeGreaterThan(0);
  });
});
