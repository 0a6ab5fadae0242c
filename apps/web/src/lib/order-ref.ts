/**
 * A short reference for an order that a person can read out: the last six characters of its iden,
 * which are random (the start is a time stamp, shared by orders made close together).
 *
 * @example
 * orderRef('mhx3k2a1000000a1b2c3d4e5f6a7b8') // 'F6A7B8'
 */
export function orderRef(iden: string): string {
  return iden.slice(-6).toUpperCase();
}
