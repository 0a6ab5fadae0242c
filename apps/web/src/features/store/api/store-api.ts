import { StorePaths, type Product } from '@till/protocol';
import { useQuery } from '@tanstack/react-query';
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
