import { StorePaths, type Product } from '@till/protocol';
import { useQuery } from '@tanstack/react-query';
import { serviceData } from '@/lib/calls';
import { useTill } from '@/lib/till';

export const productsKey = ['store', 'products'] as const;

/** The active products of the catalog (public; no token needed). */
export function useProducts() {
  const till = useTill();
  return useQuery({
    queryKey: productsKey,
    queryFn: async () =>
      (await serviceData<{ products: Product[] }>(till, StorePaths.products, {}, { token: 'optional' })).products,
  });
}

/** One product, by id or alias, out of the catalog. */
export function useProduct(idOrAlias: string) {
  const query = useProducts();
  const product = query.data?.find((p) => p.id === idOrAlias || p.alias === idOrAlias) ?? null;
  return { ...query, product };
}
