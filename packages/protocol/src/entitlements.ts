import { z } from 'zod';

const token = z.string().min(1).max(512);

/** What a buyer holds: a non-consumable owned, or a subscription running until `expiresAt`. */
export const entitlementSchema = z.object({
  productId: z.string(),
  alias: z.string(),
  title: z.string(),
  kind: z.enum(['ownership', 'subscription']),
  expiresAt: z.string().nullable(),
  active: z.boolean(),
});
export type Entitlement = z.infer<typeof entitlementSchema>;

/** POST /api/store/entitlements. @example storeEntitlementsRequest.parse({ token }) */
export const storeEntitlementsRequest = z.object({ token });
export const storeEntitlementsData = z.object({ entitlements: z.array(entitlementSchema) });
export type StoreEntitlementsData = z.infer<typeof storeEntitlementsData>;
