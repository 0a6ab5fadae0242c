import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, dialects, type TestDb } from '@till/test-support/db';
import { migrateToLatest } from './migrate.js';
import { allParams, prepared, preparedInsert } from './prepared.js';
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

  const putAll = preparedInsert<StoreMetaTable>('store_meta', { key: 1, value: 1, updated_at: 1 });
  const rowsLike = async (prefix: string) =>
    (
      await db.kysely.selectFrom('store_meta').selectAll().where('key', 'like', `${prefix}%`).orderBy('key').execute()
    ).map((r) => ({ ...r, updated_at: Number(r.updated_at) }));

  it('inserts any number of rows in one statement, each value in its own row and column', async () => {
    const row = (key: string, n: number) => ({ key, value: `v${n}`, updated_at: n });
    await putAll(db.kysely, [row('rows-a', 1), row('rows-b', 2), row('rows-c', 3)]);
    // Another count is another statement; the first count's runs again with new values.
    await putAll(db.kysely, [row('rows-d', 4)]);
    await putAll(db.kysely, [row('rows-e', 5), row('rows-f', 6), row('rows-g', 7)]);
    await putAll(db.kysely, []);
    expect(await rowsLike('rows-')).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => row(`rows-${'abcdefg'[n - 1]}`, n)));
  });

  it('inserts the rows together or not at all, in the transaction it is given', async () => {
    await putAll(db.kysely, [{ key: 'all-taken', value: 'x', updated_at: 1 }]);
    // The second row's key is taken: the first is not written either.
    await expect(
      putAll(db.kysely, [
        { key: 'all-new', value: 'y', updated_at: 2 },
        { key: 'all-taken', value: 'z', updated_at: 3 },
      ]),
    ).rejects.toThrow();
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await putAll(trx, [{ key: 'all-rolled-back', value: 'w', updated_at: 4 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await rowsLike('all-')).toEqual([{ key: 'all-taken', value: 'x', updated_at: 1 }]);
  });

  it('refuses what the database refuses (a duplicate key), like any query', async () => {
    await put(db.kysely, { key: 'prepared-dup', value: '1', updated_at: 4 });
    await expect(put(db.kysely, { key: 'prepared-dup', value: '2', updated_at: 5 })).rejects.toThrow();
  });
});
