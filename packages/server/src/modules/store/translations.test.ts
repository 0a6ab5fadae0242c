import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, ok } from '@till/test-support/store';

interface Product {
  id: string;
  title: string;
  description: string;
  imageUrl: string | null;
}
interface AdminProduct extends Product {
  texts: Record<string, { title: string; description: string }>;
}

/** Product texts per language: saved by administrators, read by buyers in their language. */
describe.each(dialects)('product translations on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    admin = await anAdmin(t);
  });
  afterAll(() => t.close());

  const save = (product: Record<string, unknown>) =>
    ok<{ product: AdminProduct }>(t, '/api/admin/products/save', { token: admin.token, product });
  /** The catalog as a buyer's app asks for it: a `lang` field and/or an Accept-Language header. */
  const catalog = async (body: Record<string, unknown>, acceptLanguage?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/store/products',
      payload: body,
      headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
    });
    return (res.json() as { data: { products: Product[] } }).data.products;
  };
  const one = async (id: string, body: Record<string, unknown>, acceptLanguage?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/store/product',
      payload: { id, ...body },
      headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
    });
    return (res.json() as { data: { product: Product } }).data.product;
  };

  it('gives the demo products German texts', async () => {
    const de = await catalog({ lang: 'de' });
    expect(de.find((p) => p.id === 'pro-unlock')).toMatchObject({
      title: 'Pro freischalten',
      description: 'Schaltet die Pro-Funktionen dauerhaft frei.',
    });
    expect((await catalog({})).find((p) => p.id === 'pro-unlock')?.title).toBe('Pro unlock');
  });

  it("answers the buyer's language from `lang`, else Accept-Language, else the default", async () => {
    await save({
      alias: 'tea',
      title: 'Tea',
      description: 'A cup of tea.',
      type: 0,
      price: { amount: 100, currency: 'EUR' },
      texts: { de: { title: 'Tee', description: 'Eine Tasse Tee.' } },
    });
    const titleOf = (products: Product[]) => products.find((p) => p.id === 'tea')?.title;
    expect(titleOf(await catalog({ lang: 'de' }))).toBe('Tee');
    expect(titleOf(await catalog({}, 'de-CH, en;q=0.5'))).toBe('Tee');
    // The field wins over the header; preferences are read by their weight.
    expect(titleOf(await catalog({ lang: 'en' }, 'de'))).toBe('Tea');
    expect(titleOf(await catalog({}, 'fr;q=0.9, en;q=0.8, de;q=0.7'))).toBe('Tea');
    expect(titleOf(await catalog({}, 'fr, de;q=0.5'))).toBe('Tee');
    // A language the shop does not speak, or none: the default language.
    expect(titleOf(await catalog({ lang: 'fr' }))).toBe('Tea');
    expect(titleOf(await catalog({}))).toBe('Tea');
    expect(await one('tea', { lang: 'de' })).toMatchObject({ title: 'Tee', description: 'Eine Tasse Tee.' });
    expect(await one('tea', {}, 'de-AT')).toMatchObject({ title: 'Tee' });
    expect(await one('tea', {})).toMatchObject({ title: 'Tea', description: 'A cup of tea.' });
  });

  it('falls back field by field: an empty translated description shows the default one', async () => {
    const saved = await save({
      alias: 'coffee',
      title: 'Coffee',
      description: 'Strong and black.',
      type: 0,
      texts: { de: { title: 'Kaffee', description: '' } },
    });
    expect(saved.product.texts).toEqual({ de: { title: 'Kaffee', description: '' } });
    expect(await one('coffee', { lang: 'de' })).toMatchObject({ title: 'Kaffee', description: 'Strong and black.' });
  });

  it('keeps translations with the product for administrators, replaces and removes them on save', async () => {
    const made = await save({
      alias: 'juice',
      title: 'Juice',
      type: 0,
      texts: { de: { title: 'Saft', description: 'Frisch gepresst.' } },
    });
    let listed = await ok<{ products: AdminProduct[] }>(t, '/api/admin/products/list', { token: admin.token });
    expect(listed.products.find((p) => p.id === made.product.id)?.texts).toEqual({
      de: { title: 'Saft', description: 'Frisch gepresst.' },
    });
    // The buyer's product never carries the translations themselves.
    expect(await one('juice', { lang: 'de' })).not.toHaveProperty('texts');
    await save({ id: made.product.id, alias: 'juice', title: 'Fresh juice', type: 0, texts: {} });
    listed = await ok<{ products: AdminProduct[] }>(t, '/api/admin/products/list', { token: admin.token });
    expect(listed.products.find((p) => p.id === made.product.id)?.texts).toEqual({});
    expect(await one('juice', { lang: 'de' })).toMatchObject({ title: 'Fresh juice' });
    const rows = await t.ctx.db.kysely
      .selectFrom('product_texts')
      .select('lang')
      .where('product_id', '=', made.product.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses a language the shop does not translate into, and a translated title too long', async () => {
    expect(
      await t.call('/api/admin/products/save', {
        token: admin.token,
        product: { alias: 'x-fr', title: 'X', type: 0, texts: { fr: { title: 'X' } } },
      }),
    ).toMatchObject({ code: 907, parameter: 'product.texts' });
    expect(
      await t.call('/api/admin/products/save', {
        token: admin.token,
        product: { alias: 'x-long', title: 'X', type: 0, texts: { de: { title: 'x'.repeat(201) } } },
      }),
    ).toEqual({ code: 907, parameter: 'product.texts.de.title', reason: 'too_long' });
  });

  it("takes an uploaded file's path as a product image, and refuses other paths and schemes", async () => {
    const saved = await save({ alias: 'pic', title: 'Pic', type: 0, imageUrl: '/api/files/download/abc123' });
    expect(saved.product.imageUrl).toBe('/api/files/download/abc123');
    for (const imageUrl of ['/etc/passwd', 'javascript:alert(1)', 'ftp://example.test/a.png']) {
      expect(
        await t.call('/api/admin/products/save', {
          token: admin.token,
          product: { alias: 'pic', title: 'Pic', type: 0, imageUrl },
        }),
        imageUrl,
      ).toMatchObject({ code: 907, parameter: 'product.imageUrl' });
    }
  });
});
