import { useQuery } from '@tanstack/react-query';
import {
  SecurityPaths,
  StorePaths,
  type SecurityLogData,
  type AdminCouponSaveData,
  type AdminCouponsBulkData,
  type AdminCouponsListData,
  type AdminCreditsAdjustData,
  type AdminOrderRefundData,
  type AdminOrdersListData,
  type AdminProductSaveData,
  type AdminProductsListData,
  type AdminUsersListData,
  type CouponInput,
  type ProductInput,
} from '@till/protocol';
import { serviceData } from '@/lib/calls';
import type { Till } from '@/lib/till';
import { useTill } from '@/lib/till';

export const adminKeys = {
  products: ['admin', 'products'] as const,
  coupons: ['admin', 'coupons'] as const,
  users: ['admin', 'users'] as const,
  orders: (status: string) => ['admin', 'orders', status] as const,
};

export function useAdminProducts() {
  const till = useTill();
  return useQuery({
    queryKey: adminKeys.products,
    queryFn: async () => (await serviceData<AdminProductsListData>(till, StorePaths.adminProductsList)).products,
  });
}

export async function saveProduct(till: Till, product: ProductInput) {
  return (await serviceData<AdminProductSaveData>(till, StorePaths.adminProductsSave, { product })).product;
}

export function useAdminCoupons() {
  const till = useTill();
  return useQuery({
    queryKey: adminKeys.coupons,
    queryFn: () => serviceData<AdminCouponsListData>(till, StorePaths.adminCouponsList, { page: 1, pageSize: 100 }),
  });
}

export async function saveCoupon(till: Till, coupon: CouponInput) {
  return (await serviceData<AdminCouponSaveData>(till, StorePaths.adminCouponsSave, { coupon })).coupon;
}

export async function bulkCoupons(
  till: Till,
  count: number,
  prefix: string,
  coupon: Omit<CouponInput, 'code' | 'usageLimit' | 'perUserLimit'>,
) {
  return serviceData<AdminCouponsBulkData>(till, StorePaths.adminCouponsBulk, { count, prefix, coupon });
}

/** One batch of users (for the long user select), matching part of the e-mail or name. */
export async function loadUsers(till: Till, offset: number, limit: number, query: string) {
  const page = Math.floor(offset / limit) + 1;
  const data = await serviceData<AdminUsersListData>(till, StorePaths.adminUsersList, {
    page,
    pageSize: limit,
    ...(query ? { query } : {}),
  });
  return { items: data.users, total: data.total };
}

export function useAdminUsers() {
  const till = useTill();
  return useQuery({ queryKey: adminKeys.users, queryFn: () => loadUsers(till, 0, 100, '') });
}

export async function adjustCredits(till: Till, userId: string, amount: number, reason: string) {
  return serviceData<AdminCreditsAdjustData>(till, StorePaths.adminCreditsAdjust, { userId, amount, reason });
}

export function useAdminOrders(status: string) {
  const till = useTill();
  return useQuery({
    queryKey: adminKeys.orders(status),
    queryFn: () =>
      serviceData<AdminOrdersListData>(till, StorePaths.adminOrdersList, {
        page: 1,
        pageSize: 100,
        ...(status ? { status } : {}),
      }),
  });
}

export async function refundOrder(till: Till, iden: string, reason: string) {
  return (
    await serviceData<AdminOrderRefundData>(till, StorePaths.adminOrdersRefund, { iden, ...(reason ? { reason } : {}) })
  ).order;
}

export const userSecurityLogKey = (userId: string, page: number) => ['admin', 'security-log', userId, page] as const;

/** One user's security log, newest first. */
export function useUserSecurityLog(userId: string, page: number, pageSize: number) {
  const till = useTill();
  return useQuery({
    queryKey: userSecurityLogKey(userId, page),
    queryFn: () => serviceData<SecurityLogData>(till, SecurityPaths.adminUserSecurityLog, { userId, page, pageSize }),
    placeholderData: (previous) => previous,
  });
}

/** Turns a user's second factor off; answers whether one was on. */
export async function resetSecondFactor(till: Till, userId: string) {
  return (await serviceData<{ reset: boolean }>(till, SecurityPaths.adminResetSecondFactor, { userId })).reset;
}
