import { Code, StorePaths, type Product } from '@till/protocol';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { serviceData } from '@/lib/calls';
import { useTill, type Till } from '@/lib/till';

export const productsKey = ['store', 'products'] as const;

/** The catalog's query: the products of the store (public; no token needed). */
export function productsQuery(till: Till) {
  return {
    queryKey: productsKey,
    queryFn: async () =>
      (await serviceData<{ products: Product[] }>(till, StorePaths.products, {}, { token: 'optional' })).products,
  };
}

/** The active products of the catalog. */
export function useProducts() {
  return useQuery(productsQuery(useTill()));
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
export function seedProducts(client: QueryClient, doc: Document): boolean {
  const text = doc.getElementById('till-catalog')?.textContent;
  if (!text) return false;
  try {
    const { at, answer } = JSON.parse(text) as {
      at?: unknown;
      answer?: { code?: unknown; data?: { products?: unknown } };
    };
    const products = answer?.data?.products;
    if (answer?.code !== Code.Ok || !Array.isArray(products) || typeof at !== 'number') return false;
    // The server's clock: a page from a clock ahead of this one must not count as fresh for longer.
    client.setQueryData(productsKey, products as Product[], { updatedAt: Math.min(at, Date.now()) });
    return true;
  } catch {
    return false;
  }
}
