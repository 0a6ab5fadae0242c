import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.js';
import { registerCheckoutPage } from '../payments/providers/default/page.js';
import { DefaultProvider } from '../payments/providers/default/provider.js';
import { ProviderRegistry, type PaymentProvider } from '../payments/provider.js';
import { registerPaymentRoutes } from '../../flows/payment-routes.js';
import { PaymentsService } from '../../flows/apply-payment-event.js';
import { TestValidator } from '../../flows/validate-purchase.js';
import { StoreAdmin } from './admin.js';
import { registerAdminRoutes } from './admin-routes.js';
import { Catalog } from './catalog.js';
import { Checkout } from '../../flows/checkout.js';
import { CouponAdmin } from './coupon-admin.js';
import { Coupons } from './coupons.js';
import { loadDemoData } from './demo-data.js';
import type { StoreDeps } from './deps.js';
import { registerBuyerRoutes } from './routes.js';

/** The store's parts, built once per app. */
export interface StoreServices {
  deps: StoreDeps;
  catalog: Catalog;
  coupons: Coupons;
  couponAdmin: CouponAdmin;
  checkout: Checkout;
  admin: StoreAdmin;
  payments: PaymentsService;
}

/**
 * Builds the store and payments, loads the demo data on a new database (outside production) and
 * registers every store, admin and payment route, and the built-in checkout page.
 */
export async function registerStoreRoutes(app: FastifyInstance, ctx: AppContext): Promise<StoreServices> {
  const deps: StoreDeps = {
    db: ctx.db.kysely,
    dialect: ctx.db.dialect,
    config: ctx.config,
    log: app.log,
    now: ctx.now,
  };
  // The sandbox provider and the TEST platform take no money: production never offers them.
  const sandbox = !ctx.config.production;
  const defaultProvider = new DefaultProvider(ctx.config);
  const providers = new ProviderRegistry(sandbox ? [defaultProvider as PaymentProvider] : []);
  const catalog = new Catalog(deps);
  const payments = new PaymentsService(deps, providers);
  const services: StoreServices = {
    deps,
    catalog,
    coupons: new Coupons(deps),
    couponAdmin: new CouponAdmin(deps),
    checkout: new Checkout(deps, catalog, providers),
    admin: new StoreAdmin(deps, ctx.accounts),
    payments,
  };
  await loadDemoData(deps);
  registerBuyerRoutes(ctx.calls, services);
  registerAdminRoutes(ctx.calls, services);
  registerPaymentRoutes(ctx.calls, payments, new TestValidator(deps, catalog, sandbox));
  if (sandbox) await registerCheckoutPage(app, deps, ctx.config, defaultProvider, payments);
  return services;
}
