import { Code, type Product } from '@till/protocol';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n-react';
import { sharedStoreQueries, storeKeys } from '@/lib/store-queries';
import { useTill, type Till } from '@/lib/till';

export const productsKey = storeKeys.products;

/** The store's queries. */
export const storeQueries = {
  /** The catalog's query in one language (the same entry the orders name grants from). */
  products: (till: Till, lang: string) => sharedStoreQueries.products(till, lang),
};

/** The catalog's query in one language: the products of the store (public; no token needed). */
export const productsQuery = storeQueries.products;

/** The active products of the catalog, with their texts in the interface's language. */
export function useProducts() {
  const { i18n } = useTranslation();
  return useQuery(storeQueries.products(useTill(), i18n.language));
}

/** One product, by id or alias, out of the catalog. */
export function useProduct(idOrAlias: string) {
  const query = useProducts();
  const product = query.data?.find((p) => p.id === idOrAlias || p.alias === idOrAlias) ?? null;
  return { ...query, product };
}

/**
 * Puts the catalog that the server wrote into a store page (`<script type="application/json"
 * id="till-catalog">`, the products call's answer and when it was taken) into the cache, so that
 * the catalog renders without asking first. Answers false when the page has none (a page the
 * service worker served from its cache, a server without a database) or it does not read right.
 */
export function seedProducts(client: QueryClient, doc: Document, lang = 'en'): boolean {
  const text = doc.getElementById('till-catalog')?.textContent;
  if (!text) return false;
  try {
    const {
      at,
      answer,
      lang: written = 'en',
    } = JSON.parse(text) as {
      at?: unknown;
      lang?: unknown;
      answer?: { code?: unknown; data?: { products?: unknown } };
    };
    const products = answer?.data?.products;
    if (answer?.code !== Code.Ok || !Array.isArray(products) || typeof at !== 'number') return false;
    // Product texts in another language than the interface's are not the catalog it shows.
    if (written !== lang) return false;
    // The server's clock: a page from a clock ahead of this one must not count as fresh for longer.
    client.setQueryData(storeKeys.productsIn(lang), products as Product[], { updatedAt: Math.min(at, Date.now()) });
    return true;
  } catch {
    return false;
  }
}
