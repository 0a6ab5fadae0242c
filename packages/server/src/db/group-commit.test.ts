import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  directStatements,
  EACH_ON_ITS_OWN,
  GroupCommitDriver,
  GroupCommitSqliteDialect,
  runDirect,
  type GroupCommitLimits,
} from './group-commit.js';

const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;

interface Tables {
  parents: { id: number };
  items: { id: number; parent_id: number | null; note: string };
}

describe('group commit on SQLite', () => {
  let dir: string;
  let file: string;
  let writer: SqliteDatabase.Database;
  let reader: SqliteDatabase.Database;
  /** A third connection: what other processes see, that is, only what is committed. */
  let outside: SqliteDatabase.Database;
  let driver: GroupCommitDriver;
  let db: Kysely<Tables>;

  // Batches close when the event loop has taken in what arrived, or when full; the production limit on
  // how long one stays open (a few milliseconds) would make what joins a batch depend on the machine's
  // speed, so the tests hold it far off.
  const open = (limits: GroupCommitLimits = { maxMembers: 64, maxOpenMs: 60_000 }) => {
    driver = new GroupCommitDriver(writer, reader, limits);
    db = new Kysely<Tables>({ dialect: new GroupCommitSqliteDialect(driver, writer) });
  };
  const committed = (): number[] =>
    (outside.prepare('select id from items order by id').all() as { id: number }[]).map((r) => r.id);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'till-group-commit-'));
    file = join(dir, 'db.sqlite');
    writer = new Driver(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('foreign_keys = ON');
    writer.exec(`create table parents (id integer primary key);
      create table items (id integer primary key, note text not null,
        parent_id integer references parents(id) deferrable initially deferred)`);
    reader = new Driver(file, { readonly: true });
    outside = new Driver(file, { readonly: true });
    open();
  });
  afterEach(async () => {
    await db.destroy();
    reader.close();
    outside.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A transaction writing one item, as many requests arriving together would. */
  const write = (id: number, fail = false) =>
    db.transaction().execute(async (trx) => {
      await trx
        .insertInto('items')
        .values({ id, note: `item ${id}`, parent_id: null })
        .execute();
      if (fail) throw new Error(`transaction ${id} fails`);
      return id;
    });

  it('commits transactions that wait for the connection together, each answered only once it is committed', async () => {
    const seenAtAnswer = new Map<number, boolean>();
    const ids = Array.from({ length: 20 }, (_, i) => i + 1);
    await Promise.all(ids.map((id) => write(id).then(() => seenAtAnswer.set(id, committed().includes(id)))));
    expect(committed()).toEqual(ids);
    expect([...seenAtAnswer.values()].every(Boolean)).toBe(true);
    expect(driver.stats.transactions).toBe(20);
    expect(driver.stats.commits).toBeLessThan(5);
  });

  it('waits another turn of the loop while transactions keep joining, then commits them together', async () => {
    open();
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const first = write(1);
    // The second starts two turns of the loop later, as a request read in a later poll would; the
    // first batch is still open then, since the first turn saw a transaction join it.
    const second = nextTurn()
      .then(nextTurn)
      .then(() => write(2));
    await Promise.all([first, second]);
    expect(committed()).toEqual([1, 2]);
    expect(driver.stats.commits).toBe(1);
    // Once nothing joins for a turn, the batch commits: a lone transaction waits one turn, no more.
    const started = performance.now();
    await write(3);
    expect(driver.stats.commits).toBe(2);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('rolls back a failed transaction alone; the others of its batch commit', async () => {
    const results = await Promise.allSettled([write(1), write(2), write(3, true), write(4), write(5)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(committed()).toEqual([1, 2, 4, 5]);
    expect(driver.stats.commits).toBe(1);
  });

  it('fails every transaction of a batch whose commit fails, and keeps none of their writes', async () => {
    // A deferred foreign key is checked at COMMIT: the batch's commit fails for the one bad row.
    const bad = db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 3, note: 'orphan', parent_id: 99 }).execute();
    });
    const results = await Promise.allSettled([write(1), write(2), bad, write(4)]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committed()).toEqual([]);
    // The connection is usable again, and a later transaction commits on its own.
    await write(5);
    expect(committed()).toEqual([5]);
  });

  it('commits the open batch before a write outside any transaction, which is committed when it resolves', async () => {
    let single: Promise<number[]> | undefined;
    const batch = Promise.all([
      write(1),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 2, note: 'item 2', parent_id: null }).execute();
        // Queued for the connection behind this transaction: it runs while 1 and 2 await their commit.
        single = db
          .insertInto('items')
          .values({ id: 3, note: 'alone', parent_id: null })
          .execute()
          .then(() => committed());
      }),
    ]);
    await batch;
    expect(await single).toEqual([1, 2, 3]);
    expect(driver.stats).toEqual({ commits: 1, transactions: 2 });
  });

  it('answers a read outside any transaction with what is committed, without ending the batch', async () => {
    await write(1);
    let readDuringBatch: number[] = [];
    const batch = Promise.all([
      write(2),
      write(3),
      // Queued behind both: by its turn they are written but wait for the batch's commit.
      db
        .selectFrom('items')
        .select('id')
        .execute()
        .then((rows) => (readDuringBatch = rows.map((r) => r.id))),
    ]);
    await batch;
    expect(readDuringBatch).toEqual([1]);
    expect(committed()).toEqual([1, 2, 3]);
    expect(driver.stats.commits).toBe(2);
  });

  it('inside a transaction, reads see the writes of those before it in the batch', async () => {
    const seen = await Promise.all([
      write(1),
      db.transaction().execute(async (trx) => (await trx.selectFrom('items').select('id').execute()).map((r) => r.id)),
    ]);
    expect(seen[1]).toEqual([1]);
  });

  it('commits at most `maxMembers` transactions at a time', async () => {
    await db.destroy();
    writer = new Driver(file);
    open({ maxMembers: 3, maxOpenMs: 60_000 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => write(i + 1)));
    expect(driver.stats.commits).toBe(4);
    expect(committed()).toHaveLength(10);
  });

  it('keeps the order of arrival', async () => {
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          order.push(i);
          await sql`select 1`.execute(trx);
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('counts commits per table written, and raw SQL as a write to every table', async () => {
    const versions = () => ({ items: driver.version(['items']), parents: driver.version(['parents']) });
    let before = versions();
    await write(1);
    let after = versions();
    expect(after.items).toBeGreaterThan(before.items);
    expect(after.parents).toBe(before.parents);

    before = after;
    await db.insertInto('parents').values({ id: 1 }).execute();
    after = versions();
    expect(after.parents).toBeGreaterThan(before.parents);
    expect(after.items).toBe(before.items);

    // A read changes nothing.
    before = after;
    await db.selectFrom('items').selectAll().execute();
    expect(versions()).toEqual(before);

    await sql`update items set note = 'raw'`.execute(db);
    after = versions();
    expect(after.items).toBeGreaterThan(before.items);
    expect(after.parents).toBeGreaterThan(before.parents);
  });

  describe('with group commit off (SQLITE_GROUP_COMMIT=off)', () => {
    /** The statements the driver runs on the writer, in order. */
    let statements: string[];
    beforeEach(async () => {
      await db.destroy();
      const plain = new Driver(file);
      statements = [];
      const recording = {
        prepare: (text: string) => (statements.push(text), plain.prepare(text)),
        get inTransaction() {
          return plain.inTransaction;
        },
        close: () => plain.close(),
      };
      driver = new GroupCommitDriver(recording, reader, EACH_ON_ITS_OWN);
      db = new Kysely<Tables>({ dialect: new GroupCommitSqliteDialect(driver, recording) });
    });

    it('commits each transaction on its own, without a savepoint, before it is answered', async () => {
      const seenAtAnswer = new Map<number, number[]>();
      const ids = [1, 2, 3, 4, 5];
      await Promise.all(ids.map((id) => write(id).then(() => seenAtAnswer.set(id, committed()))));
      expect(committed()).toEqual(ids);
      for (const id of ids) expect(seenAtAnswer.get(id)).toContain(id);
      expect(driver.stats).toEqual({ commits: 5, transactions: 5 });
      expect(statements.filter((s) => /^(begin|commit)$/.test(s))).toEqual(ids.flatMap(() => ['begin', 'commit']));
      expect(statements.some((s) => /savepoint|release/.test(s))).toBe(false);
    });

    it('fails only the transaction whose own commit fails, or that throws', async () => {
      const orphan = db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 3, note: 'orphan', parent_id: 99 }).execute();
      });
      const results = await Promise.allSettled([write(1), write(2, true), orphan, write(4)]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
      expect(committed()).toEqual([1, 4]);
      expect(driver.stats.commits).toBe(2);
    });

    it('still counts commits per table, reads outside transactions on the read connection, and runs direct statements', async () => {
      const before = { items: driver.version(['items']), parents: driver.version(['parents']) };
      const seen = await Promise.all(
        [1, 2].map((id) =>
          db.transaction().execute(
            directStatements(db, async (trx) => {
              await runDirect(
                trx,
                db
                  .insertInto('items')
                  .values({ id, note: `item ${id}`, parent_id: null })
                  .compile(),
              );
              const { rows } = (await runDirect<{ id: number }>(trx, db.selectFrom('items').select('id').compile()))!;
              return rows.map((r) => r.id);
            }),
          ),
        ),
      );
      expect(seen).toEqual([[1], [1, 2]]);
      expect(driver.version(['items'])).toBe(before.items + 2);
      expect(driver.version(['parents'])).toBe(before.parents);
      statements.length = 0;
      expect((await db.selectFrom('items').select('id').execute()).map((r) => r.id)).toEqual([1, 2]);
      expect(statements).toEqual([]);
    });
  });

  describe('statements straight to a bound transaction', () => {
    const insert = (id: number) =>
      db
        .insertInto('items')
        .values({ id, note: `item ${id}`, parent_id: null })
        .compile();
    const count = () =>
      db
        .selectFrom('items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .compile();

    it('run in the transaction they are given, in its batch, and only there', async () => {
      const seen = await Promise.all(
        [1, 2, 3].map((id) =>
          db.transaction().execute(
            directStatements(db, async (trx) => {
              const direct = runDirect(trx, insert(id));
              expect(direct).toBeInstanceOf(Promise);
              await direct;
              return (await runDirect<{ n: number }>(trx, count()))!.rows[0]!.n;
            }),
          ),
        ),
      );
      // Each saw the writes of those before it in the batch, and its own.
      expect(seen).toEqual([1, 2, 3]);
      expect(committed()).toEqual([1, 2, 3]);
      expect(driver.stats.commits).toBe(1);
      // Anything else goes through Kysely: the database itself, and a transaction that was not bound.
      expect(runDirect(db, count())).toBeUndefined();
      await db.transaction().execute(async (trx) => expect(runDirect(trx, count())).toBeUndefined());
    });

    it('are undone with their transaction', async () => {
      const failed = db.transaction().execute(
        directStatements(db, async (trx) => {
          await runDirect(trx, insert(7));
          throw new Error('undo');
        }),
      );
      await Promise.all([expect(failed).rejects.toThrow('undo'), write(8)]);
      expect(committed()).toEqual([8]);
    });

    it('are refused once their transaction has ended, even while another one holds the connection', async () => {
      let ended: object | undefined;
      await db.transaction().execute(
        directStatements(db, async (trx) => {
          ended = trx;
          await runDirect(trx, insert(1));
        }),
      );
      // Another transaction holds the connection when the ended one tries again.
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('items').values({ id: 2, note: 'second', parent_id: null }).execute();
          await expect(runDirect(ended!, insert(3))).rejects.toThrow('the transaction has already ended');
          throw new Error('roll back the second');
        })
        .catch((error: Error) => expect(error.message).toBe('roll back the second'));
      await expect(runDirect(ended!, insert(4))).rejects.toThrow('the transaction has already ended');
      expect(committed()).toEqual([1]);
    });
  });
});
