import {
  cancelOrderData,
  cancelOrderRequest,
  dataResponse,
  getCouponData,
  getCouponRequest,
  Level,
  orderStatusData,
  pickLanguage,
  orderStatusRequest,
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
import { fail } from '../../errors.js';
import { asData, type CallContext, type CallRegistry } from '../../http/calls.js';
import { creditHistory, forBuyer } from './credits.js';
import { listEntitlements } from './grants.js';
import type { StoreParts } from './parts.js';

const tag = 'store';

/** The buyer's language for product texts: the app sends its own with every call as `Accept-Language`. */
const buyerLanguage = (ctx: CallContext) => pickLanguage(ctx.request.headers['accept-language']);

/**
 * The buyer's store calls that need no other module: coupons, the catalog, orders, entitlements and
 * credits. Buying (checkout, credits, provider events) is in the flows layer.
 */
export function registerBuyerRoutes(calls: CallRegistry, s: StoreParts): void {
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
    path: '/api/store/orderStatus',
    summary: "One of the buyer's orders; polled until it is no longer pending.",
    tag,
    auth: Level.Registered,
    request: orderStatusRequest,
    response: dataResponse(orderStatusData),
    handler: async (input, ctx) => asData(await s.orders.status(ctx.caller.userId, input.iden, buyerLanguage(ctx))),
  });
  calls.define({
    path: '/api/store/cancelOrder',
    summary: 'Give up a pending order (its coupon use is given back).',
    tag,
    auth: Level.Registered,
    request: cancelOrderRequest,
    response: dataResponse(cancelOrderData),
    handler: async (input, ctx) => asData(await s.orders.cancel(ctx.caller.userId, input.iden, buyerLanguage(ctx))),
  });
  calls.define({
    path: '/api/store/products',
    summary: 'The active catalog (no token needed).',
    tag,
    request: storeProductsRequest,
    response: dataResponse(storeProductsData),
    handler: async (input, ctx) => ({
      data: { products: await s.catalog.listActive(pickLanguage(input.lang, ctx.request.headers['accept-language'])) },
    }),
  });
  calls.define({
    path: '/api/store/product',
    summary: 'One product by id or alias (no token needed).',
    tag,
    request: storeProductRequest,
    response: dataResponse(storeProductData),
    handler: async (input, ctx) => {
      const product = await s.catalog.findIn(
        input.id,
        pickLanguage(input.lang, ctx.request.headers['accept-language']),
      );
      return product ? { data: { product } } : fail.notFound('id');
    },
  });
  calls.define({
    path: '/api/store/orders',
    summary: "The buyer's orders, newest first.",
    tag,
    auth: Level.Registered,
    request: storeOrdersRequest,
    response: dataResponse(storeOrdersData),
    handler: async (input, ctx) => ({ data: await s.orders.list(ctx.caller.userId, input, buyerLanguage(ctx)) }),
  });
  calls.define({
    path: '/api/store/entitlements',
    summary: 'What the buyer owns and the subscriptions they have.',
    tag,
    auth: Level.Registered,
    request: storeEntitlementsRequest,
    response: dataResponse(storeEntitlementsData),
    handler: async (_input, ctx) => ({
      data: { entitlements: await listEntitlements(deps, ctx.caller.userId, buyerLanguage(ctx)) },
    }),
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
      return history ? { data: { ...history, entries: history.entries.map(forBuyer) } } : fail.invalidToken();
    },
  });
}
