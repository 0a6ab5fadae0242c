import { useQuery } from '@tanstack/react-query';
import {
  Paths,
  SecurityPaths,
  StorePaths,
  type SecurityLogData,
  type AdminCouponSaveData,
  type AdminCouponSetActiveData,
  type AdminCreditsHistoryData,
  type AdminOrderRefundRequest,
  type AdminUserGetData,
  type AdminUserSetLevelData,
  type FileInfo,
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
  orders: (status: string, query = '') => ['admin', 'orders', status, query] as const,
  usersSearch: (query: string, page: number, pageSize: number) =>
    ['admin', 'users', 'search', query, page, pageSize] as const,
  user: (userId: string) => ['admin', 'user', userId] as const,
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

/** Coupons, newest first; `query` is a code's start or a batch. */
export function useAdminCoupons(query = '') {
  const till = useTill();
  return useQuery({
    queryKey: [...adminKeys.coupons, query],
    queryFn: () =>
      serviceData<AdminCouponsListData>(till, StorePaths.adminCouponsList, {
        page: 1,
        pageSize: 100,
        ...(query ? { query } : {}),
      }),
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

/** Orders, newest first, by status; `query` is an order's number as buyers see it or part of the buyer's e-mail. */
export function useAdminOrders(status: string, query = '') {
  const till = useTill();
  return useQuery({
    queryKey: adminKeys.orders(status, query),
    queryFn: () =>
      serviceData<AdminOrdersListData>(till, StorePaths.adminOrdersList, {
        page: 1,
        pageSize: 100,
        ...(status ? { status } : {}),
        ...(query ? { query } : {}),
      }),
  });
}

/** A refund: the whole order, or (with `amount` or `keepGrants`) money only. */
export async function refundOrder(
  till: Till,
  iden: string,
  reason: string,
  money?: Pick<AdminOrderRefundRequest, 'amount' | 'keepGrants'>,
) {
  return (
    await serviceData<AdminOrderRefundData>(till, StorePaths.adminOrdersRefund, {
      iden,
      ...(reason ? { reason } : {}),
      ...(money?.amount !== undefined ? { amount: money.amount } : {}),
      ...(money?.keepGrants ? { keepGrants: true } : {}),
    })
  ).order;
}

export async function setCouponActive(till: Till, code: string, active: boolean) {
  return (await serviceData<AdminCouponSetActiveData>(till, StorePaths.adminCouponsSetActive, { code, active })).coupon;
}

/** One page of users matching part of the e-mail or name, searched by the server. */
export function useUserSearch(query: string, page: number, pageSize: number) {
  const till = useTill();
  return useQuery({
    queryKey: adminKeys.usersSearch(query, page, pageSize),
    queryFn: () =>
      serviceData<AdminUsersListData>(till, StorePaths.adminUsersList, {
        page: page + 1,
        pageSize,
        ...(query ? { query } : {}),
      }),
    placeholderData: (previous) => previous,
  });
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

export function useAdminUser(userId: string) {
  const till = useTill();
  return useQuery({
    queryKey: adminKeys.user(userId),
    queryFn: () => serviceData<AdminUserGetData>(till, StorePaths.adminUsersGet, { userId }),
  });
}

export function useUserOrders(userId: string) {
  const till = useTill();
  return useQuery({
    queryKey: [...adminKeys.user(userId), 'orders'],
    queryFn: () =>
      serviceData<AdminOrdersListData>(till, StorePaths.adminOrdersList, { userId, page: 1, pageSize: 20 }),
  });
}

export function useUserCredits(userId: string) {
  const till = useTill();
  return useQuery({
    queryKey: [...adminKeys.user(userId), 'credits'],
    queryFn: () =>
      serviceData<AdminCreditsHistoryData>(till, StorePaths.adminCreditsHistory, { userId, page: 1, pageSize: 20 }),
  });
}

export function useUserFiles(userId: string) {
  const till = useTill();
  return useQuery({
    queryKey: [...adminKeys.user(userId), 'files'],
    queryFn: () =>
      serviceData<{ files: FileInfo[]; total: number }>(till, Paths.filesList, { userId, page: 1, pageSize: 20 }),
  });
}

export async function setUserLevel(till: Till, userId: string, level: 2 | 9) {
  return (await serviceData<AdminUserSetLevelData>(till, StorePaths.adminUsersSetLevel, { userId, level })).user;
}

export async function clearUserFlag(till: Till, userId: string) {
  return (await serviceData<AdminUserSetLevelData>(till, StorePaths.adminUsersClearFlag, { userId })).user;
}

/**
 * Uploads a product image through the files service as a public file and answers its lasting
 * address (the path of the download, so it works from whichever host the app is opened at).
 */
export async function uploadProductImage(till: Till, file: File, onProgress?: (share: number) => void) {
  const data = await serviceData<{ files: FileInfo[] }>(
    till,
    Paths.filesUpload,
    { public: 'true' },
    {
      files: { file },
      ...(onProgress
        ? { onUploadProgress: (e: { loaded: number; total?: number }) => onProgress(e.total ? e.loaded / e.total : 0) }
        : {}),
    },
  );
  const uploaded = data.files[0];
  if (!uploaded) throw new Error('no file in the answer');
  return `/api/files/download/${uploaded.id}`;
}

/** Turns a user's second factor off; answers whether one was on. */
export async function resetSecondFactor(till: Till, userId: string) {
  return (await serviceData<{ reset: boolean }>(till, SecurityPaths.adminResetSecondFactor, { userId })).reset;
}
