import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_TEST_TIMEOUT, runCli } from '@till/test-support/cli';
import { dialects } from '@till/test-support/db';
import { startFilesApp, type FilesTestApp } from '@till/test-support/files';
import { stockShop } from '@till/test-support/shop';
import { checkData, type Finding } from './check-data.js';

describe.each(dialects)('the data check on %s', { timeout: COMMAND_TEST_TIMEOUT }, (dialect) => {
  let t: FilesTestApp;
  let shop: Awaited<ReturnType<typeof stockShop>>;
  const check = () => checkData(t.ctx.db.kysely, t.storage);
  const db = () => t.ctx.db.kysely;

  /** Plants a fault, answers what the check found, and undoes the fault; the shop is clean again after. */
  async function planted(plant: () => Promise<unknown>, undo: () => Promise<unknown>): Promise<Finding[]> {
    await plant();
    try {
      return await check();
    } finally {
      await undo();
      expect(await check()).toEqual([]);
    }
  }

  beforeAll(async () => {
    t = await startFilesApp(dialect, 'local');
    shop = await stockShop(t);
  });
  afterAll(() => t.close());

  it('finds nothing wrong in a shop that went through purchases, a coupon and an upload', async () => {
    expect(await check()).toEqual([]);
  });

  it('finds a balance that differs from its ledger', async () => {
    const found = await planted(
      () =>
        db()
          .updateTable('credit_balances')
          .set({ credits: sql`credits + 7` })
          .where('user_id', '=', shop.buyer.userId)
          .execute(),
      () =>
        db()
          .updateTable('credit_balances')
          .set({ credits: sql`credits - 7` })
          .where('user_id', '=', shop.buyer.userId)
          .execute(),
    );
    expect(found).toEqual([
      {
        check: 'balance',
        detail: expect.stringMatching(new RegExp(`user ${shop.buyer.userId} has a balance of \\d+ but a ledger of`)),
      },
    ]);
  });

  it('finds a user without a balance', async () => {
    const rows = await db()
      .selectFrom('credit_balances')
      .selectAll()
      .where('user_id', '=', shop.buyer.userId)
      .execute();
    expect(rows).toHaveLength(1);
    const found = await planted(
      () => db().deleteFrom('credit_balances').where('user_id', '=', shop.buyer.userId).execute(),
      () => db().insertInto('credit_balances').values(rows).execute(),
    );
    expect(found).toEqual([{ check: 'balance', detail: `user ${shop.buyer.userId} has no balance` }]);
  });

  it('finds a paid order whose ownership was never granted', async () => {
    const rows = await db().selectFrom('entitlements').selectAll().where('order_id', '=', shop.unlockOrder).execute();
    expect(rows).toHaveLength(1);
    const found = await planted(
      () => db().deleteFrom('entitlements').where('order_id', '=', shop.unlockOrder).execute(),
      () => db().insertInto('entitlements').values(rows).execute(),
    );
    expect(found).toEqual([
      { check: 'grants', detail: `paid order ${shop.unlockOrder} did not grant ownership of pro-unlock` },
    ]);
  });

  it('finds a paid order whose subscription was never granted', async () => {
    const rows = await db().selectFrom('entitlements').selectAll().where('order_id', '=', shop.monthlyOrder).execute();
    const found = await planted(
      () => db().deleteFrom('entitlements').where('order_id', '=', shop.monthlyOrder).execute(),
      () => db().insertInto('entitlements').values(rows).execute(),
    );
    expect(found).toEqual([
      { check: 'grants', detail: `paid order ${shop.monthlyOrder} did not grant its subscription to monthly` },
    ]);
  });

  it('finds a paid order whose credits were never granted', async () => {
    const rows = await db().selectFrom('credit_ledger').selectAll().where('reference', '=', shop.creditOrder).execute();
    expect(rows).toHaveLength(1);
    // The ledger entry and the balance go together, so the books still balance: only the grant is missing.
    const found = await planted(
      async () => {
        await db().deleteFrom('credit_ledger').where('reference', '=', shop.creditOrder).execute();
        await db()
          .updateTable('credit_balances')
          .set({ credits: sql`credits - 100` })
          .where('user_id', '=', shop.buyer.userId)
          .execute();
      },
      async () => {
        await db().insertInto('credit_ledger').values(rows).execute();
        await db()
          .updateTable('credit_balances')
          .set({ credits: sql`credits + 100` })
          .where('user_id', '=', shop.buyer.userId)
          .execute();
      },
    );
    expect(found).toEqual([{ check: 'grants', detail: `paid order ${shop.creditOrder} granted 0 of its 100 credits` }]);
  });

  it('finds a pending order that granted something', async () => {
    const found = await planted(
      () =>
        db()
          .insertInto('entitlements')
          .values({
            id: 'planted-grant',
            user_id: shop.buyer.userId,
            product_id: 'monthly',
            kind: 'subscription',
            source: `order:${shop.pendingOrder}`,
            order_id: shop.pendingOrder,
            starts_at: 0,
            expires_at: 1,
            revoked_at: null,
            created_at: 0,
          })
          .execute(),
      () => db().deleteFrom('entitlements').where('id', '=', 'planted-grant').execute(),
    );
    expect(found).toEqual([{ check: 'grants', detail: `pending order ${shop.pendingOrder} granted monthly` }]);
  });

  it('finds a coupon whose counter differs from its uses', async () => {
    const found = await planted(
      () =>
        db()
          .updateTable('coupons')
          .set({ used: sql`used + 1` })
          .where('code', '=', shop.coupon)
          .execute(),
      () =>
        db()
          .updateTable('coupons')
          .set({ used: sql`used - 1` })
          .where('code', '=', shop.coupon)
          .execute(),
    );
    expect(found).toEqual([{ check: 'coupons', detail: `coupon ${shop.coupon} counts 2 uses but its buyers have 1` }]);
  });

  it('finds a file row without its object, and an object without its row', async () => {
    const row = await db()
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', shop.file.id)
      .executeTakeFirstOrThrow();
    const body = async () => Buffer.concat(await (await t.storage.get(row.storage_key))!.toArray());
    const kept = await body();
    const missing = await planted(
      () => t.storage.delete(row.storage_key),
      () => t.storage.put(row.storage_key, Readable.from([kept]), 'text/plain'),
    );
    expect(missing).toEqual([{ check: 'files', detail: `file ${shop.file.id} has no object at ${row.storage_key}` }]);
    const stray = 'f/zz/zzstray';
    const orphan = await planted(
      () => t.storage.put(stray, Readable.from([Buffer.from('stray')]), 'text/plain'),
      () => t.storage.delete(stray),
    );
    expect(orphan).toEqual([{ check: 'files', detail: `object ${stray} has no row` }]);
  });

  it('finds a quota that differs from the sizes of its files', async () => {
    const found = await planted(
      () =>
        db()
          .updateTable('file_usage')
          .set({ used_bytes: sql`used_bytes + 3` })
          .where('user_id', '=', shop.buyer.userId)
          .execute(),
      () =>
        db()
          .updateTable('file_usage')
          .set({ used_bytes: sql`used_bytes - 3` })
          .where('user_id', '=', shop.buyer.userId)
          .execute(),
    );
    expect(found).toEqual([
      {
        check: 'quota',
        detail: `user ${shop.buyer.userId} counts ${shop.file.size + 3} bytes used but has files of ${shop.file.size}`,
      },
    ]);
  });

  it('runs as a command beside the live server: exit 0 when clean, 1 with the finding printed when not', async () => {
    const env = { DATABASE_URL: t.db.url, STORAGE_URL: t.ctx.config.storageUrl };
    const clean = await runCli('check-data', [], env);
    expect(clean).toEqual({ code: 0, output: 'the data is consistent\n' });
    await db()
      .updateTable('coupons')
      .set({ used: sql`used + 1` })
      .where('code', '=', shop.coupon)
      .execute();
    try {
      const off = await runCli('check-data', [], env);
      expect(off).toEqual({
        code: 1,
        output: `coupons: coupon ${shop.coupon} counts 2 uses but its buyers have 1\n1 thing is off\n`,
      });
    } finally {
      await db()
        .updateTable('coupons')
        .set({ used: sql`used - 1` })
        .where('code', '=', shop.coupon)
        .execute();
    }
    const nowhere = await runCli('check-data', [], { ...env, DATABASE_URL: 'sqlite:/nonexistent/till.db' });
    expect(nowhere).toEqual({ code: 2, output: expect.stringMatching(/^the database cannot be read: /) });
  });
});
