import { ProductType, type Product } from '@till/protocol';

/** A catalog product as the server sends it: the demo "Pro unlock", changed by `over`. */
export function testProduct(over: Partial<Product> = {}): Product {
  return {
    id: 'pro-unlock',
    alias: 'pro-unlock',
    title: 'Pro unlock',
    description: '',
    type: ProductType.NonConsumable,
    price: { amount: 499, currency: 'USD' },
    creditPrice: 500,
    grants: {},
    imageUrl: null,
    storeIds: {},
    active: true,
    ...over,
  };
}
