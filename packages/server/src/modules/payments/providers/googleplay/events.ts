import { z } from 'zod';

/** A Pub/Sub push request: the message, its data base64-encoded. */
export const pushMessage = z.object({
  message: z.object({
    data: z.string().max(100_000),
    messageId: z.string().min(1).max(200),
    attributes: z.record(z.string(), z.string()).optional(),
    publishTime: z.string().optional(),
  }),
  subscription: z.string().max(500).optional(),
});

const token = z.string().min(1).max(4096);

/** Google Play's real-time developer notification, as the push's data holds it (other fields ignored). */
export const developerNotification = z.object({
  version: z.string().optional(),
  packageName: z.string(),
  eventTimeMillis: z.union([z.string(), z.number()]).optional(),
  subscriptionNotification: z
    .object({ notificationType: z.number().int(), purchaseToken: token, subscriptionId: z.string().optional() })
    .optional(),
  oneTimeProductNotification: z
    .object({ notificationType: z.number().int(), purchaseToken: token, sku: z.string().optional() })
    .optional(),
  voidedPurchaseNotification: z
    .object({
      purchaseToken: token,
      orderId: z.string().optional(),
      productType: z.number().int().optional(),
      refundType: z.number().int().optional(),
    })
    .optional(),
  testNotification: z.object({ version: z.string().optional() }).optional(),
});

export type DeveloperNotification = z.output<typeof developerNotification>;

/** `subscriptionNotification.notificationType` values (Google Play's RTDN reference). */
export const SubscriptionNotification = {
  RECOVERED: 1,
  RENEWED: 2,
  CANCELED: 3,
  PURCHASED: 4,
  ON_HOLD: 5,
  IN_GRACE_PERIOD: 6,
  RESTARTED: 7,
  DEFERRED: 9,
  PAUSED: 10,
  REVOKED: 12,
  EXPIRED: 13,
} as const;

/** `voidedPurchaseNotification.refundType`: a partial refund gives back only some of a purchase's quantity. */
export const REFUND_PARTIAL = 2;
/** `voidedReason` of a voided purchase that was a chargeback. */
export const VOIDED_CHARGEBACK = 7;

/** The notification a push carries; undefined when its data is not one. */
export function readNotification(data: string): DeveloperNotification | undefined {
  try {
    const parsed = developerNotification.safeParse(JSON.parse(Buffer.from(data, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
