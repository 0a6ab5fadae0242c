import { z } from 'zod';
import { pageRequest } from './paging.js';

const token = z.string().min(1).max(512);

/** One line of the credits ledger; entries are never edited, a correction is a new entry. */
export const creditEntrySchema = z.object({
  id: z.string(),
  /** Positive for credits received, negative for credits spent. */
  amount: z.number().int(),
  /** `purchase`, `spend`, `coupon`, `refund`, `adjustment`. */
  reason: z.string(),
  /** What caused it: an order iden, a coupon code, or an administrator's note. */
  reference: z.string().nullable(),
  balanceAfter: z.number().int(),
  createdAt: z.string(),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

/** POST /api/store/credits: balance and ledger, newest first. @example storeCreditsRequest.parse({ token, page: 1 }) */
export const storeCreditsRequest = pageRequest.extend({ token });
export type StoreCreditsRequest = z.input<typeof storeCreditsRequest>;
export const storeCreditsData = z.object({
  balance: z.number().int(),
  entries: z.array(creditEntrySchema),
  total: z.number().int(),
});
export type StoreCreditsData = z.infer<typeof storeCreditsData>;
