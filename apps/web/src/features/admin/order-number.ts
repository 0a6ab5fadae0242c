import { orderRef } from '@/lib/order-ref';

/**
 * An order as its buyer reads it on their order page and in their mails, for administrators to find
 * and name it the same way: "#30310E".
 *
 * @example
 * orderNumber('mhx3k2a1000000a1b2c3d4e5f6a7b8') // '#F6A7B8'
 */
export function orderNumber(iden: string): string {
  return `#${orderRef(iden)}`;
}
