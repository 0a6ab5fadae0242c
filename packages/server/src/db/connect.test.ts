import { readdirSync, readlinkSync } from 'node:fs';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@till/test-support/db';
import { inTransaction } from './transaction.js';

/** Where this process's open files lead (Linux). */
const openFiles = (): string[] =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return []; // closed while being read
    }
  });

describe('SQLite connections', () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb('sqlite');
  });
  afterEach(() => db.drop());

  it('keep a transaction’s statement journal in memory, with no temporary file', async () => {
    // Each transaction runs in a savepoint (see group-commit), so SQLite journals every page it changes
    // a second time; past 64 KiB that journal went to a file of its own, opened and removed again by
    // about half of the sign-ups, for about a tenth of the database's time a sign-up.
    await sql`create table notes (id text primary key, a text, b text, c text)`.execute(db.kysely);
    for (const column of ['a', 'b', 'c']) {
      await sql`create index ${sql.id(`notes_${column}`)} on notes (${sql.id(column)})`.execute(db.kysely);
    }
    const row = (i: number) => `${i}-${'x'.repeat(200)}`;
    for (let i = 0; i < 200; i++) {
      await sql`insert into notes values (${String(i)}, ${row(i)}, ${row(i)}, ${row(i)})`.execute(db.kysely);
    }
    // Changes every page of the table and its indexes: some 200 KiB journalled again.
    const during = await inTransaction(db.kysely, async (trx) => {
      await sql`update notes set a = b || '.', b = c || '.', c = a || '.'`.execute(trx);
      return openFiles();
    });
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((f) => f.includes('etilqs'))).toEqual([]);
    const { n } = (await sql<{ n: number }>`select count(*) as n from notes`.execute(db.kysely)).rows[0]!;
    expect(Number(n)).toBe(200);
    const { a } = (await sql<{ a: string }>`select a from notes where id = '7'`.execute(db.kysely)).rows[0]!;
    expect(a).toBe(`${row(7)}.`);
  });
});
