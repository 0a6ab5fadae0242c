import {
  adminCouponSaveData,
  adminCouponSaveRequest,
  adminCouponSetActiveData,
  adminCouponSetActiveRequest,
  adminCouponsBulkData,
  adminCouponsBulkRequest,
  adminCouponsListData,
  adminCouponsListRequest,
  adminCreditsAdjustData,
  adminCreditsAdjustRequest,
  adminCreditsHistoryData,
  adminCreditsHistoryRequest,
  adminOrdersListData,
  adminOrdersListRequest,
  adminProductSaveData,
  adminProductSaveRequest,
  adminProductsListData,
  adminProductsListRequest,
  dataResponse,
  Level,
} from '@till/protocol';
import { Failure } from '../../errors.js';
import { asData, type CallRegistry } from '../../http/calls.js';
import type { StoreParts } from './parts.js';
import { listAdminOrders } from './order-queries.js';

const tag = 'admin';
const auth = Level.Admin;

/** The administrator's store calls (903 below level 9). */
export function registerAdminRoutes(calls: CallRegistry, s: StoreParts): void {
  calls.define({
    path: '/api/admin/products/list',
    summary: 'Every product, inactive ones included.',
    tag,
    auth,
    request: adminProductsListRequest,
    response: dataResponse(adminProductsListData),
    handler: async () => ({ data: { products: await s.catalog.listAll() } }),
  });
  calls.define({
    path: '/api/admin/products/save',
    summary: 'Create a product, or replace the one with `product.id`.',
    tag,
    auth,
    request: adminProductSaveRequest,
    response: dataResponse(adminProductSaveData),
    handler: async (input) => {
      const product = await s.catalog.save(input.product);
      return asData(product instanceof Failure ? product : { product });
    },
  });
  calls.define({
    path: '/api/admin/coupons/list',
    summary: 'Coupons with their limits and uses; `query` matches a code prefix or a batch.',
    tag,
    auth,
    request: adminCouponsListRequest,
    response: dataResponse(adminCouponsListData),
    handler: async (input) => ({ data: await s.couponAdmin.list(input) }),
  });
  calls.define({
    path: '/api/admin/coupons/save',
    summary: 'Create a coupon, or replace the one with this code (its use count stays).',
    tag,
    auth,
    request: adminCouponSaveRequest,
    response: dataResponse(adminCouponSaveData),
    handler: async (input) => {
      const coupon = await s.couponAdmin.save(input.coupon);
      return asData(coupon instanceof Failure ? coupon : { coupon });
    },
  });
  calls.define({
    path: '/api/admin/coupons/setActive',
    summary: 'Switch a coupon off (908 `inactive` for buyers) or on again; uses and limits stay.',
    tag,
    auth,
    request: adminCouponSetActiveRequest,
    response: dataResponse(adminCouponSetActiveData),
    handler: async (input) => {
      const coupon = await s.couponAdmin.setActive(input.code, input.active);
      return asData(coupon instanceof Failure ? coupon : { coupon });
    },
  });
  calls.define({
    path: '/api/admin/coupons/bulk',
    summary: 'Make `count` single-use codes from one template.',
    tag,
    auth,
    request: adminCouponsBulkRequest,
    response: dataResponse(adminCouponsBulkData),
    handler: async (input) => asData(await s.couponAdmin.bulk(input)),
  });
  calls.define({
    path: '/api/admin/credits/adjust',
    summary: 'Give or take credits with a reason (a ledger entry; 909 below zero).',
    tag,
    auth,
    request: adminCreditsAdjustRequest,
    response: dataResponse(adminCreditsAdjustData),
    handler: async (input, ctx) => asData(await s.credits.adjustCredits(ctx.caller.userId, input, ctx)),
  });
  calls.define({
    path: '/api/admin/credits/history',
    summary: "A user's balance and ledger, newest first.",
    tag,
    auth,
    request: adminCreditsHistoryRequest,
    response: dataResponse(adminCreditsHistoryData),
    handler: async (input) => asData(await s.credits.creditHistory(input)),
  });
  calls.define({
    path: '/api/admin/orders/list',
    summary: 'Orders, newest first, by status, provider, buyer, coupon and time.',
    tag,
    auth,
    request: adminOrdersListRequest,
    response: dataResponse(adminOrdersListData),
    handler: async (input) => ({ data: await listAdminOrders(s.deps.db, input, input, s.deps) }),
  });
}
