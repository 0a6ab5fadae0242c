import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { ok } from '@till/test-support/store';
import { loadDemoData } from './demo-data.js';

describe.each(dialects)('demo data on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t.close());

  const deps = () => ({
    db: t.ctx.db.kysely,
    dialect,
    config: t.ctx.config,
    log: t.app.log,
    now: Date.now,
  });

  it('holds the demo products and coupons a new user can try at once', async () => {
    const { products } = await ok<{
      products: { id: string; type: number; price: unknown; creditPrice: unknown; grants: unknown }[];
    }>(t, '/api/store/products', {});
    const byId = Object.fromEntries(products.map((p) => [p.id, p]));
    expect(byId['credits-100']).toMatchObject({
      type: 0,
      price: { amount: 199, currency: 'USD' },
      grants: { credits: 100 },
    });
    expect(byId['pro-unlock']).toMatchObject({ type: 1, price: { amount: 499, currency: 'USD' }, creditPrice: 500 });
    expect(byId['monthly']).toMatchObject({
      type: 2,
      price: { amount: 299 },
      creditPrice: 300,
      grants: { period: 'P1M' },
    });
    const coupons = await t.ctx.db.kysely.selectFrom('coupons').selectAll().where('batch', 'is', null).execute();
    expect(coupons.map((c) => c.code).sort()).toEqual(['FREE100', 'ONCE', 'WELCOME10']);
  });

  it('is loaded once: a second start (even after the catalog was emptied) loads nothing', async () => {
    expect(await loadDemoData(deps())).toBe(false);
    await t.ctx.db.kysely.deleteFrom('coupons').where('code', '=', 'WELCOME10').execute();
    expect(await loadDemoData(deps())).toBe(false);
    const left = await t.ctx.db.kysely.selectFrom('coupons').select('code').where('code', '=', 'WELCOME10').execute();
    expect(left).toEqual([]);
  });
});
