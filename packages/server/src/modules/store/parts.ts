import type { Balances } from './balances.js';
import type { BuyerOrders } from './buyer-orders.js';
import type { Catalog } from './catalog.js';
import type { CouponAdmin } from './coupon-admin.js';
import type { Coupons } from './coupons.js';
import type { CreditsAdmin } from './credits-admin.js';
import type { StoreDeps } from './deps.js';

/** The store's services, built once per app and handed to its routes. */
export interface StoreParts {
  deps: StoreDeps;
  catalog: Catalog;
  coupons: Coupons;
  couponAdmin: CouponAdmin;
  credits: CreditsAdmin;
  orders: BuyerOrders;
  balances: Balances;
}
