import { z } from 'zod';
import { orderSchema, orderStatusSchema } from './objects.js';
import { pageRequest } from './paging.js';

const token = z.string().min(1).max(512);

/** POST /api/store/orders: the buyer's orders, newest first. @example storeOrdersRequest.parse({ token }) */
export const storeOrdersRequest = pageRequest.extend({ token, status: orderStatusSchema.optional() });
export type StoreOrdersRequest = z.input<typeof storeOrdersRequest>;
export const storeOrdersData = z.object({ orders: z.array(orderSchema), total: z.number().int() });
export type StoreOrdersData = z.infer<typeof storeOrdersData>;

/** POST /api/store/cancelOrder: gives up a pending order. @example cancelOrderRequest.parse({ token, iden }) */
export const cancelOrderRequest = z.object({ token, iden: z.string().min(1).max(64) });
export const cancelOrderData = z.object({ order: orderSchema });
export type CancelOrderData = z.infer<typeof cancelOrderData>;

/** POST /api/store/orderStatus. @example orderStatusRequest.parse({ iden, token }) */
export const orderStatusRequest = z.object({ iden: z.string().min(1).max(64), token });
export type OrderStatusRequest = z.infer<typeof orderStatusRequest>;
export const orderStatusData = z.object({ status: z.string(), order: orderSchema });
