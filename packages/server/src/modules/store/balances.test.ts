import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrations } from '../../db/migrate.js';
import { createTestDb, dialects, type TestDb } from '@till/test-support/db';

const BEFORE = '015-subscription-period-end';
const BALANCES = '016-credit-balances';

/** Migrates `db` up or down to `target`, a migration's name. */
async function migrateTo(db: TestDb, target: string): Promise<void> {
  const k = db.kysely as unknown as Kysely<unknown>;
  const schema =
    db.dialect === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(k)).rows[0]?.s
      : undefined;
  const migrator = new Migrator({
    db: k,
    provider: { getMigrations: (): Promise<Record<string, Migration>> => Promise.resolve(migrations) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo(target);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

const user = (id: string, credits: number) => ({
  id,
  email: `${id}@example.test`,
  name: id,
  lang: 'en',
  level: 1,
  email_confirmed: 1,
  password_hash: 'x',
  created_at: 1,
  updated_at: 1,
  credits,
});

describe.each(dialects)('balances in a table of the store’s own (%s)', (dialect) => {
  let db: TestDb | undefined;
  afterEach(async () => {
    await db?.drop();
    db = undefined;
  });

  it("moves every user's balance out of users, and back when undone", async () => {
    db = await createTestDb(dialect);
    const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await migrateTo(db, BEFORE);
    await k
      .insertInto('users')
      .values([user('rich', 2_147_483_647), user('some', 30), user('none', 0)])
      .execute();

    await migrateToLatest(db!.kysely, dialect);
    const moved = await k.selectFrom('credit_balances').selectAll().orderBy('user_id').execute();
    expect(moved).toEqual([
      { user_id: 'none', credits: 0 },
      { user_id: 'rich', credits: 2_147_483_647 },
      { user_id: 'some', credits: 30 },
    ]);
    const row = await k.selectFrom('users').selectAll().where('id', '=', 'some').executeTakeFirstOrThrow();
    expect(row).not.toHaveProperty('credits');
    // The CHECK moved with the balance: the database refuses a negative one even if the code tried.
    await expect(
      k.updateTable('credit_balances').set({ credits: -1 }).where('user_id', '=', 'none').execute(),
    ).rejects.toThrow();
    // A balance belongs to a user who exists.
    await expect(k.insertInto('credit_balances').values({ user_id: 'nobody', credits: 0 }).execute()).rejects.toThrow();

    await k.updateTable('credit_balances').set({ credits: 31 }).where('user_id', '=', 'some').execute();
    await migrateTo(db, BEFORE);
    const back = await k.selectFrom('users').select(['id', 'credits']).orderBy('id').execute();
    expect(back).toEqual([
      { id: 'none', credits: 0 },
      { id: 'rich', credits: 2_147_483_647 },
      { id: 'some', credits: 31 },
    ]);
    expect(Object.keys(migrations)).toContain(BALANCES);
  });
});
