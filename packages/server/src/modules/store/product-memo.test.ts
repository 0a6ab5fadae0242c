import { Code } from '@till/protocol';
import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { giveCredits, ok, saveProduct, storeDepsOf } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import { Catalog } from './catalog.js';

// Products looked up outside a transaction are kept between commits to products on SQLite only.
describe.each(dialects)('product lookups kept between commits on %s', (dialect) => {
  let t: TestApp;
  let catalog: Catalog;
  let buyer: { token: string; userId: string };
  let product: string;

  beforeEach(async () => {
    t = await startTestApp({ dialect });
    catalog = new Catalog(storeDepsOf(t, dialect));
    buyer = await registerUser(t);
    await giveCredits(t, buyer.userId, 1_000);
    product = await saveProduct(t, { alias: 'memo-gem', title: 'Gem', type: 0, creditPrice: 5, grants: {} });
  });
  afterEach(() => t.close());
  /** A write outside any transaction, as an operator's change makes one. */
  const write = (sql: string) => t.ctx.db.kysely.executeQuery(CompiledQuery.raw(sql));
  const buy = () => t.call('/api/auth/payWithCredits', { token: buyer.token, products: '["memo-gem"]' });

  it('answers the same row again while nothing wrote products (SQLite), a fresh one otherwise', async () => {
    const first = await catalog.find('memo-gem');
    const again = await catalog.find('memo-gem');
    expect(again).toEqual(first);
    if (dialect === 'sqlite') {
      expect(again).toBe(first);
      expect(Object.isFrozen(again)).toBe(true);
    } else {
      expect(again).not.toBe(first);
    }
    // Purchases write orders, users and the ledger, not products: the kept row stays.
    await ok(t, '/api/auth/payWithCredits', { token: buyer.token, products: '["memo-gem"]' });
    expect((await catalog.find(product)) === (await catalog.find(product))).toBe(dialect === 'sqlite');
  });

  it("reads a cart's products that are not kept in one query, ids before aliases", async () => {
    const other = await saveProduct(t, { alias: 'memo-other', title: 'Other', type: 0, creditPrice: 1, grants: {} });
    const shadow = await saveProduct(t, { alias: 'memo-shadow', title: 'Shadow', type: 0, creditPrice: 1, grants: {} });
    // A product whose alias is another product's id (saving refuses that; an operator's write does not):
    // asked for by that text, the id wins.
    await write(`update products set alias = 'memo-other-alias' where id = '${other}'`);
    await write(`update products set alias = '${other}' where id = '${shadow}'`);
    expect(shadow).not.toBe(other);
    let queries = 0;
    const counting = new Catalog({
      ...storeDepsOf(t, dialect),
      db: t.ctx.db.kysely.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: (args) => {
          queries += 1;
          return Promise.resolve(args.result);
        },
      }),
    });
    const found = await counting.findAll([other, 'memo-gem', 'memo-other-alias', 'nothing', 'memo-gem']);
    expect(queries).toBe(1);
    expect([...found].map(([ref, row]) => [ref, row.title])).toEqual([
      [other, 'Other'],
      ['memo-gem', 'Gem'],
      ['memo-other-alias', 'Other'],
    ]);
    // Kept on SQLite: asked again, nothing is read; elsewhere the one query again.
    expect((await counting.findAll([other, 'memo-gem'])).get(other)?.title).toBe('Other');
    expect(queries).toBe(dialect === 'sqlite' ? 1 : 2);
    // One product not kept is looked up as `find` looks it up.
    expect((await counting.findAll([shadow])).get(shadow)?.title).toBe('Shadow');
    expect(queries).toBe(dialect === 'sqlite' ? 2 : 3);
  });

  it('charges a new price saved by an administrator on the very next purchase', async () => {
    expect(((await buy()).data as { balance: number }).balance).toBe(995);
    await saveProduct(t, { id: product, alias: 'memo-gem', title: 'Gem', type: 0, creditPrice: 7, grants: {} });
    expect(((await buy()).data as { balance: number }).balance).toBe(988);
  });

  it('refuses a product switched off by a write outside any transaction on the very next purchase', async () => {
    expect((await buy()).code).toBe(900);
    await write(`update products set active = 0 where id = '${product}'`);
    expect(await buy()).toMatchObject({ code: Code.InvalidInput, reason: 'inactive' });
  });

  it('reads inside a transaction what the transaction wrote, whatever is kept', async () => {
    expect((await catalog.find('memo-gem'))?.credit_price).toBe(5);
    await t.ctx.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('products').set({ credit_price: 9 }).where('id', '=', product).execute();
      expect((await catalog.find('memo-gem', trx))?.credit_price).toBe(9);
    });
    expect((await catalog.find('memo-gem'))?.credit_price).toBe(9);
  });
});
