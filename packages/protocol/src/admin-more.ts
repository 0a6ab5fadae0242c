import { z } from 'zod';
import { adminCouponSchema, adminUserSchema, couponCodeSchema } from './admin.js';
import { sessionInfoSchema } from './objects.js';

const token = z.string().min(1).max(512);
const userId = z.string().min(1).max(64);

/**
 * POST /api/admin/coupons/setActive: switch a coupon off (buyers are then refused with 908
 * `inactive`) or on again; its uses and limits stay. 904 `code` for a code that does not exist.
 *
 * @example
 * adminCouponSetActiveRequest.parse({ token, code: 'SPRING', active: false })
 */
export const adminCouponSetActiveRequest = z.object({ token, code: couponCodeSchema, active: z.boolean() });
export const adminCouponSetActiveData = z.object({ coupon: adminCouponSchema });
export type AdminCouponSetActiveData = z.infer<typeof adminCouponSetActiveData>;

/** The levels an administrator can give: a member (2) or an administrator (9). */
export const assignableLevelSchema = z.union([z.literal(2), z.literal(9)]);

/**
 * POST /api/admin/users/get: one user with their sessions (browser, address, times) for the detail
 * view; their orders, credits and files come from the list calls with `userId`. 904 `userId`.
 */
export const adminUserGetRequest = z.object({ token, userId });
export const adminUserGetData = z.object({
  user: adminUserSchema,
  /** Whether the level is fixed by the server's configuration (`ADMIN_EMAILS`) and cannot be changed here. */
  levelFixed: z.boolean(),
  sessions: z.array(sessionInfoSchema.omit({ current: true })),
});
export type AdminUserGetData = z.infer<typeof adminUserGetData>;

/**
 * POST /api/admin/users/setLevel: make a confirmed user an administrator (9) or a member (2). It
 * applies on the user's next call, with no new sign-in. 907 `userId` `invalid` for the caller's own
 * account, `unconfirmed` for an address not confirmed yet, `configured` for an address in
 * `ADMIN_EMAILS`; 904 `userId` for no such user.
 */
export const adminUserSetLevelRequest = z.object({ token, userId, level: assignableLevelSchema });
export const adminUserSetLevelData = z.object({ user: adminUserSchema });
export type AdminUserSetLevelData = z.infer<typeof adminUserSetLevelData>;

/** POST /api/admin/users/clearFlag: an administrator has looked at a flagged user; the flag goes. */
export const adminUserClearFlagRequest = z.object({ token, userId });
export const adminUserClearFlagData = z.object({ user: adminUserSchema });
