import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, dialects, type TestDb } from '../test-support/db.js';
import { migrateToLatest } from './migrate.js';
import { allParams, prepared } from './prepared.js';
import type { StoreMetaTable } from './schema.js';

describe.each(dialects)('prepared queries on %s', (dialect) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb(dialect);
    await migrateToLatest(db.kysely, db.dialect);
  });
  afterAll(() => db.drop());

  const put = prepared<StoreMetaTable, never>((k, p) =>
    k.insertInto('store_meta').values(allParams(p, { key: 1, value: 1, updated_at: 1 })),
  );
  const get = prepared<{ key: string }, { value: string }>((k, p) =>
    k.selectFrom('store_meta').select('value').where('key', '=', p('key')),
  );
  // A constant compiled in (the suffix) beside a parameter used twice.
  const append = prepared<{ key: string; tail: string }, { value: string }>((k, p) =>
    k
      .updateTable('store_meta')
      .set({ value: sql<string>`value || ${p('tail')} || ${'!'}` })
      .where('key', '=', p('key'))
      .where('value', '!=', p('tail'))
      .returning('value'),
  );

  it('runs with new parameters every time, keeping constants', async () => {
    await put(db.kysely, { key: 'prepared-a', value: 'one', updated_at: 1 });
    await put(db.kysely, { key: 'prepared-b', value: 'two', updated_at: 2 });
    expect((await get(db.kysely, { key: 'prepared-a' })).rows).toEqual([{ value: 'one' }]);
    expect((await get(db.kysely, { key: 'prepared-b' })).rows).toEqual([{ value: 'two' }]);
    expect((await get(db.kysely, { key: 'none' })).rows).toEqual([]);
    const changed = await append(db.kysely, { key: 'prepared-a', tail: '+' });
    expect(changed.rows).toEqual([{ value: 'one+!' }]);
    expect((await append(db.kysely, { key: 'none', tail: '+' })).rows).toEqual([]);
  });

  it('joins the transaction it is given: a rollback undoes it', async () => {
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await put(trx, { key: 'prepared-rolled-back', value: 'x', updated_at: 3 });
        expect((await get(trx, { key: 'prepared-rolled-back' })).rows).toEqual([{ value: 'x' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await get(db.kysely, { key: 'prepared-rolled-back' })).rows).toEqual([]);
  });

  it('refuses what the database refuses (a duplicate key), like any query', async () => {
    await put(db.kysely, { key: 'prepared-dup', value: '1', updated_at: 4 });
    await expect(put(db.kysely, { key: 'prepared-dup', value: '2', updated_at: 5 })).rejects.toThrow();
  });
});
