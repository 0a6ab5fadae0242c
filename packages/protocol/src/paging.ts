import { z } from 'zod';

/**
 * Paging of list calls: `page` counts from 1, `pageSize` is at most 100.
 *
 * @example
 * pageRequest.parse({ page: 2 }) // { page: 2, pageSize: 20 }
 */
export const pageRequest = z.object({
  page: z.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
