import { queryOptions } from '@tanstack/react-query';
import { StorePaths, type Product } from '@till/protocol';
import { unwrap } from './api-error';
import { serviceData } from './calls';
import type { Till } from './till';

/**
 * Every cache entry of the store, under one root so that a purchase can mark them all stale at
 * once. The features' api files build their queries on these keys; no component writes a key.
 */
export const storeKeys = {
  all: ['store'] as const,
  products: ['store', 'products'] as const,
  productsIn: (lang: string) => ['store', 'products', lang] as const,
  orders: ['store', 'orders'] as const,
  order: ['store', 'order'] as const,
  orderOf: (iden: string) => ['store', 'order', iden] as const,
  checkoutForm: (ids: readonly string[]) => ['store', 'checkout-form', ids.join(',')] as const,
  checkoutPreview: (ids: readonly string[], couponCode: string) =>
    ['store', 'checkout-preview', ids.join(';'), couponCode] as const,
  coupon: (code: string) => ['store', 'coupon', code] as const,
  entitlements: ['store', 'entitlements'] as const,
};

/**
 * The queries two features read (features do not import each other): the catalog, which the
 * store shows and the orders name grants from, and the checkout form, which the checkout offers
 * routes from and a pending order is paid again by. One entry each, fetched once for both.
 */
export const sharedStoreQueries = {
  /** The catalog in one language: the products of the store (public; no token needed). */
  products: (till: Till, lang: string) =>
    queryOptions({
      queryKey: storeKeys.productsIn(lang),
      queryFn: async () =>
        (await serviceData<{ products: Product[] }>(till, StorePaths.products, { lang }, { token: 'optional' }))
          .products,
    }),
  /** Products, total and payment routes for products (ids repeated by quantity; public). */
  checkoutForm: (till: Till, ids: readonly string[]) =>
    queryOptions({
      queryKey: storeKeys.checkoutForm(ids),
      queryFn: async () => unwrap(await till.store.getCheckoutForm([...ids])).data,
    }),
};
