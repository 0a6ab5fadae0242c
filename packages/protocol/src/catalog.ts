import { z } from 'zod';
import { productSchema } from './objects.js';

const token = z.string().min(1).max(512);

/**
 * The buyer's language for product texts (`en`, `de`); left out, the request's `Accept-Language`
 * header decides, else the default language. Any other tag is read as far as it goes (`de-AT` is `de`).
 */
const lang = z.string().trim().max(35).optional();

/** POST /api/store/products (no token): the active catalog. @example storeProductsRequest.parse({ lang: 'de' }) */
export const storeProductsRequest = z.object({ token: token.optional(), lang });
export const storeProductsData = z.object({ products: z.array(productSchema) });
export type StoreProductsData = z.infer<typeof storeProductsData>;

/** POST /api/store/product: one product by id or alias. @example storeProductRequest.parse({ id: 'pro-unlock' }) */
export const storeProductRequest = z.object({ id: z.string().trim().min(1).max(64), token: token.optional(), lang });
export const storeProductData = z.object({ product: productSchema });
export type StoreProductData = z.infer<typeof storeProductData>;
