import { ProductType, type AdminOrder, type AdminUser, type Order, type Product } from '@till/protocol';

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

/** An order of one "100 credits" pack, pending on the sandbox route, changed by `over`. */
export function testOrder(over: Partial<Order> = {}): Order {
  const status = over.status ?? 'pending';
  return {
    iden: 'o1',
    status,
    items: [
      {
        productId: 'credits-100',
        alias: 'credits-100',
        title: '100 credits',
        price: { amount: 199, currency: 'USD' },
        creditPrice: null,
        quantity: 1,
      },
    ],
    subtotal: { amount: 199, currency: 'USD' },
    discount: { amount: 0, currency: 'USD' },
    total: { amount: 199, currency: 'USD' },
    creditsSpent: 0,
    couponCode: null,
    provider: 'default',
    createdAt: '2026-01-01T00:00:00.000Z',
    paidAt: status === 'paid' || status === 'refunded' ? '2026-01-01T00:01:00.000Z' : null,
    ...over,
  };
}

/** An order as administrators list it, with its buyer and payment, changed by `over`. */
export function testAdminOrder(over: Partial<AdminOrder> = {}): AdminOrder {
  return {
    ...testOrder({ status: 'paid', provider: 'card' }),
    userId: 'u1',
    email: 'ada@example.test',
    payment: {
      refs: [],
      refundRequestedAt: null,
      shortfallCredits: 0,
      subscriptionEndedAt: null,
      refundedAmount: 0,
      sandbox: false,
    },
    refundHistory: [],
    ...over,
  };
}

/** A user as administrators list them, changed by `over`. */
export function testAdminUser(over: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 'u1',
    email: 'ada@example.test',
    name: 'Ada',
    level: 2,
    emailConfirmed: true,
    credits: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    flaggedAt: null,
    flagReason: null,
    ...over,
  };
}

/**
 * Makes the screen wide (a desktop) or narrow (a phone) for `matchMedia`, which jsdom lacks: only
 * the width and height conditions of a query are read.
 */
export function setScreen(size: { width: number; height: number }): void {
  window.matchMedia = ((query: string) => {
    const holds = [...query.matchAll(/\((min|max)-(width|height):\s*(\d+)px\)/g)].every(([, edge, side, px]) => {
      const value = side === 'width' ? size.width : size.height;
      return edge === 'min' ? value >= Number(px) : value <= Number(px);
    });
    return {
      matches: holds,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    } satisfies MediaQueryList;
  }) as typeof window.matchMedia;
}
