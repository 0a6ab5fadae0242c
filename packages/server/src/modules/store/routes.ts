import {
  cancelOrderData,
  cancelOrderRequest,
  dataResponse,
  doCheckoutData,
  doCheckoutRequest,
  getCheckoutFormData,
  getCheckoutFormRequest,
  getCouponData,
  getCouponRequest,
  Level,
  orderStatusData,
  orderStatusRequest,
  payWithCreditsData,
  payWithCreditsRequest,
  redeemCouponData,
  redeemCouponRequest,
  storeCreditsData,
  storeCreditsRequest,
  storeEntitlementsData,
  storeEntitlementsRequest,
  storeOrdersData,
  storeOrdersRequest,
  storeProductData,
  storeProductRequest,
  storeProductsData,
  storeProductsRequest,
} from '@till/protocol';
import { runInTransaction } from '../../db/transaction.js';
import { Failure, fail, type Outcome } from '../../errors.js';
import type { CallRegistry } from '../../http/calls.js';
import type { StoreServices } from './services.js';
import { creditHistory } from './credits.js';
import { listEntitlements } from './grants.js';
import { listOrders } from './order-queries.js';
import { closeOrder, loadOrder } from './orders.js';
import { toProduct } from './catalog.js';

const tag = 'store';

/** Store answers carry their payload in `data`. */
export function asData<T extends object>(outcome: Outcome<T>): Outcome<{ data: T }> {
  return outcome instanceof Failure ? outcome : { data: outcome };
}

/** The buyer's store calls: the protocol's, then the catalog, orders, entitlements and credits. */
export function registerBuyerRoutes(calls: CallRegistry, s: StoreServices): void {
  const { deps } = s;
  calls.define({
    path: '/api/store/getCoupon',
    summary: 'A coupon, if this buyer can use it now (908 with the reason otherwise).',
    tag,
    auth: Level.Registered,
    request: getCouponRequest,
    response: dataResponse(getCouponData),
    handler: async (input, ctx) => asData(await s.coupons.getCoupon(ctx.caller.userId, input.couponCode)),
  });
  calls.define({
    path: '/api/store/redeemCoupon',
    summary: 'Redeem a grant coupon: its credits and products, once.',
    tag,
    auth: Level.Registered,
    request: redeemCouponRequest,
    response: dataResponse(redeemCouponData),
    handler: async (input, ctx) => asData(await s.coupons.redeem(ctx.caller.userId, input.couponCode)),
  });
  calls.define({
    path: '/api/auth/payWithCredits',
    summary: 'Buy with credits (`products` and `dataObj` are JSON text); the order comes back paid.',
    tag,
    auth: Level.Registered,
    request: payWithCreditsRequest,
    response: dataResponse(payWithCreditsData),
    handler: async (input, ctx) => asData(await s.checkout.payWithCredits(ctx.caller.userId, input)),
  });
  calls.define({
    path: '/api/store/doCheckout',
    summary: 'A new order from `products` (ids joined with `;`) and `couponCode`, or how to pay `pastOrder`.',
    tag,
    auth: Level.Registered,
    request: doCheckoutRequest,
    response: dataResponse(doCheckoutData),
    handler: async (input, ctx) => asData(await s.checkout.doCheckout(ctx.caller.userId, input)),
  });
  calls.define({
    path: '/api/store/getCheckoutForm',
    summary: 'The cart (ids joined with `,`), its total and the configured ways to pay.',
    tag,
    request: getCheckoutFormRequest,
    response: dataResponse(getCheckoutFormData),
    handler: async (input) => asData(await s.checkout.getCheckoutForm(input.products)),
  });
  calls.define({
    path: '/api/store/orderStatus',
    summary: "One of the buyer's orders; polled until it is no longer pending.",
    tag,
    auth: Level.Registered,
    request: orderStatusRequest,
    response: dataResponse(orderStatusData),
    handler: async (input, ctx) => {
      const found = await loadOrder(deps.db, input.iden);
      if (!found || found.row.user_id !== ctx.caller.userId) return fail.notFound('iden');
      return { data: { status: found.order.status, order: found.order } };
    },
  });
  calls.define({
    path: '/api/store/cancelOrder',
    summary: 'Give up a pending order (its coupon use is given back).',
    tag,
    auth: Level.Registered,
    request: cancelOrderRequest,
    response: dataResponse(cancelOrderData),
    handler: async (input, ctx) => {
      const found = await loadOrder(deps.db, input.iden);
      if (!found || found.row.user_id !== ctx.caller.userId) return fail.notFound('iden');
      const order = await runInTransaction(deps.db, (trx) => closeOrder(trx, input.iden, 'cancelled', deps.now()));
      return asData(order instanceof Failure ? order : { order });
    },
  });
  calls.define({
    path: '/api/store/products',
    summary: 'The active catalog (no token needed).',
    tag,
    request: storeProductsRequest,
    response: dataResponse(storeProductsData),
    handler: async () => ({ data: { products: await s.catalog.listActive() } }),
  });
  calls.define({
    path: '/api/store/product',
    summary: 'One product by id or alias (no token needed).',
    tag,
    request: storeProductRequest,
    response: dataResponse(storeProductData),
    handler: async (input) => {
      const row = await s.catalog.find(input.id);
      return row ? { data: { product: toProduct(row) } } : fail.notFound('id');
    },
  });
  calls.define({
    path: '/api/store/orders',
    summary: "The buyer's orders, newest first.",
    tag,
    auth: Level.Registered,
    request: storeOrdersRequest,
    response: dataResponse(storeOrdersData),
    handler: async (input, ctx) => ({
      data: await listOrders(deps.db, { userId: ctx.caller.userId, status: input.status }, input),
    }),
  });
  calls.define({
    path: '/api/store/entitlements',
    summary: 'What the buyer owns and the subscriptions they have.',
    tag,
    auth: Level.Registered,
    request: storeEntitlementsRequest,
    response: dataResponse(storeEntitlementsData),
    handler: async (_input, ctx) => ({ data: { entitlements: await listEntitlements(deps, ctx.caller.userId) } }),
  });
  calls.define({
    path: '/api/store/credits',
    summary: "The buyer's balance and credits ledger, newest first.",
    tag,
    auth: Level.Registered,
    request: storeCreditsRequest,
    response: dataResponse(storeCreditsData),
    handler: async (input, ctx) => {
      const history = await creditHistory(deps, ctx.caller.userId, input);
      return history ? { data: history } : fail.invalidToken();
    },
  });
}
