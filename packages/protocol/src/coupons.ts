import { z } from 'zod';
import { couponSchema } from './objects.js';

const token = z.string().min(1).max(512);

const couponCode = z.string().trim().min(1).max(64);

/** POST /api/store/getCoupon. @example getCouponRequest.parse({ token, couponCode: 'WELCOME10' }) */
export const getCouponRequest = z.object({ token, couponCode });
export type GetCouponRequest = z.infer<typeof getCouponRequest>;
export const getCouponData = z.object({ coupon: couponSchema });

/** POST /api/store/redeemCoupon. @example redeemCouponRequest.parse({ token, couponCode: 'FREE100' }) */
export const redeemCouponRequest = z.object({ token, couponCode });
export type RedeemCouponRequest = z.infer<typeof redeemCouponRequest>;
export const redeemCouponData = z.object({
  granted: z.object({ credits: z.number().int(), products: z.array(z.string()) }),
  balance: z.number().int(),
});
