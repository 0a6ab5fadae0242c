import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { testProduct } from '@/test/fixtures';
import { productsKey, seedProducts } from './store-api';

function pageWith(text: string | null): Document {
  const doc = document.implementation.createHTMLDocument('Till');
  if (text !== null) {
    const script = doc.createElement('script');
    script.type = 'application/json';
    script.id = 'till-catalog';
    script.textContent = text;
    doc.body.append(script);
  }
  return doc;
}

describe('seedProducts', () => {
  const client = new QueryClient();
  afterEach(() => client.clear());

  it('puts the catalog the page carries into the cache, as fresh as when it was taken', () => {
    const products = [testProduct(), testProduct({ id: 'credits-100', title: '100 credits' })];
    const at = Date.now() - 5_000;
    expect(seedProducts(client, pageWith(JSON.stringify({ at, answer: { code: 900, data: { products } } })))).toBe(
      true,
    );
    expect(client.getQueryData([...productsKey, 'en'])).toEqual(products);
    expect(client.getQueryState([...productsKey, 'en'])?.dataUpdatedAt).toBe(at);
  });

  it('never counts the catalog of a page as taken later than now', () => {
    const before = Date.now();
    const answer = { code: 900, data: { products: [testProduct()] } };
    expect(seedProducts(client, pageWith(JSON.stringify({ at: before + 3_600_000, answer })))).toBe(true);
    const updated = client.getQueryState([...productsKey, 'en'])?.dataUpdatedAt ?? 0;
    expect(updated).toBeGreaterThanOrEqual(before);
    expect(updated).toBeLessThanOrEqual(Date.now());
  });

  it('seeds the catalog under its language, and not at all for an interface in another language', () => {
    const products = [testProduct({ title: 'Pro freischalten' })];
    const text = JSON.stringify({ at: Date.now(), lang: 'de', answer: { code: 900, data: { products } } });
    expect(seedProducts(client, pageWith(text), 'en')).toBe(false);
    expect(client.getQueryData([...productsKey, 'en'])).toBeUndefined();
    expect(seedProducts(client, pageWith(text), 'de')).toBe(true);
    expect(client.getQueryData([...productsKey, 'de'])).toEqual(products);
  });

  it('leaves the cache alone when the page has no catalog or one that does not read right', () => {
    for (const text of [
      null,
      '',
      '{not json',
      JSON.stringify({ at: 1, answer: { code: 905, data: { products: [] } } }),
      JSON.stringify({ at: 1, answer: { code: 900, data: {} } }),
      JSON.stringify({ answer: { code: 900, data: { products: [] } } }),
    ]) {
      expect(seedProducts(client, pageWith(text)), String(text)).toBe(false);
      expect(client.getQueryData([...productsKey, 'en'])).toBeUndefined();
    }
  });
});
