import type { Job } from '../../db/jobs.js';
import type { ModuleHost, TillModule } from '../../http/module.js';
import { cancelAbandonedOrders } from './orders.js';
import { registerAdminRoutes } from './admin-routes.js';
import { Balances } from './balances.js';
import { BuyerOrders } from './buyer-orders.js';
import { Catalog } from './catalog.js';
import { CouponAdmin } from './coupon-admin.js';
import { Coupons } from './coupons.js';
import { CreditsAdmin } from './credits-admin.js';
import { loadDemoData, loadDemoTexts } from './demo-data.js';
import type { StoreDeps } from './deps.js';
import type { StoreParts } from './parts.js';
import { registerBuyerRoutes } from './routes.js';

/**
 * The store: catalog, coupons, credits, orders and what they grant. Buying, which also needs a
 * payment route, is the flows layer's: it uses the operations exported below, inside its own
 * transactions.
 */
export class StoreModule implements TillModule {
  readonly name = 'store';
  readonly parts: StoreParts;

  constructor(readonly deps: StoreDeps) {
    this.parts = {
      deps,
      catalog: new Catalog(deps),
      coupons: new Coupons(deps),
      couponAdmin: new CouponAdmin(deps),
      credits: new CreditsAdmin(deps),
      orders: new BuyerOrders(deps),
      balances: new Balances(deps),
    };
  }

  get catalog(): Catalog {
    return this.parts.catalog;
  }

  get coupons(): Coupons {
    return this.parts.coupons;
  }

  /** Balances as other modules ask for them, through ports the app builds (see {@link Balances}). */
  get balances(): Balances {
    return this.parts.balances;
  }

  /** Housekeeping: checkouts abandoned for a day are cancelled, giving their coupon uses back. */
  jobs(): Job[] {
    return [{ name: 'store.abandoned', everyMs: 3_600_000, run: (now) => cancelAbandonedOrders(this.deps.db, now) }];
  }

  /** Registers the store's calls, and fills a new database with demo data outside production. */
  async register({ calls }: ModuleHost): Promise<void> {
    await loadDemoData(this.deps);
    await loadDemoTexts(this.deps);
    registerBuyerRoutes(calls, this.parts);
    registerAdminRoutes(calls, this.parts);
  }
}

export type { StoreDeps } from './deps.js';
export {
  Catalog,
  isProductRef,
  localize,
  parseProductRefs,
  textsIn,
  toProduct,
  type Line,
  type ProductRow,
} from './catalog.js';
export { checkCoupon, Coupons } from './coupons.js';
export { consumeCouponUse } from './coupon-uses.js';
export { balanceOf, moveCredits } from './credits.js';
export { Balances } from './balances.js';
export { revokeGrants } from './grants.js';
export { newId } from './ids.js';
export { adminOrderOf } from './order-queries.js';
export { findOrderRow, ownedAmong, productsOf, runOutSubscriptions, subscriptionEndOf } from './order-lookups.js';
export { toOrder, type OrderItemRow, type OrderRow } from './order-view.js';
export {
  closeOrder,
  expireStaleCouponHolds,
  grantLinesOf,
  grantPaidOrder,
  insertOrder,
  insertPaidOrder,
  itemsOf,
  loadOrder,
  payOrder,
  routeOrder,
  transitionOrder,
} from './orders.js';
export { discountFor, moneySubtotal } from './pricing.js';
export { priceCart, type CartPrice } from './quote.js';
export { toCoupon } from './coupons.js';
export {
  alignSubscription,
  endSubscription,
  markRefundRequested,
  renewSubscription,
  revokePaidTime,
  takeBackGrants,
  takeBackRenewal,
} from './reversals.js';
export { dropRefund, recordRefund, type RefundRecord } from './refunds.js';
export { notePeriodEnd } from './subscriptions.js';
export { forgetBuyerData } from './erase.js';
export { localizeOrder, localizeOrders, titlesIn } from './titles.js';
