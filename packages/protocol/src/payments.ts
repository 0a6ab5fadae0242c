import { z } from 'zod';
import { PROVIDERS } from './constants.js';
import { orderStatusSchema } from './objects.js';

/**
 * POST /api/payments/notify/{provider}: a provider's signed notification. `payload` is the provider's
 * JSON text as received, `signature` its signature over that text.
 *
 * @example
 * paymentNotificationRequest.parse({ payload: '{"eventId":"..."}', signature: 'ab12...' })
 */
export const paymentNotificationRequest = z.object({
  payload: z.string().min(2).max(20_000),
  signature: z.string().min(1).max(512),
});
export const paymentNotificationData = z.object({
  status: orderStatusSchema,
  /** False when the same event had been applied before (nothing changed). */
  applied: z.boolean(),
});
export type PaymentNotificationData = z.infer<typeof paymentNotificationData>;

/** The payment routes a notification can name. */
export const providerSchema = z.enum(PROVIDERS);
