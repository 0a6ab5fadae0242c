import { randomBytes, randomFillSync } from 'node:crypto';

let lastMillis = 0;
let counter = 0;

// Random bits are drawn from the system's generator in blocks: one call per 512 ids instead of one
// per id (a purchase makes two ids, and the call was a measurable share of its time).
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function random64Hex(): string {
  if (poolAt + 8 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const hex = pool.toString('hex', poolAt, poolAt + 8);
  poolAt += 8;
  return hex;
}

/**
 * A new id that sorts by creation: 11 base-36 digits of time, a 4-digit counter (so that ids made in
 * the same millisecond by this process keep their order) and 64 random bits (so that ids made by
 * other processes never collide and order idens cannot be guessed from one another).
 */
export function newId(now = Date.now()): string {
  if (now === lastMillis) counter += 1;
  else {
    lastMillis = now;
    counter = 0;
  }
  const time = now.toString(36).padStart(11, '0');
  const seq = (counter % 36 ** 4).toString(36).padStart(4, '0');
  return `${time}${seq}${random64Hex()}`;
}

/** A coupon code of `length` characters without look-alikes (no 0/O, 1/I/L). */
export function newCouponCode(prefix: string, length = 10): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(length);
  let code = '';
  // 256 is not a multiple of 31, so values past the last full multiple are skipped to keep every
  // character equally likely; the rare skip is refilled from fresh bytes.
  for (let i = 0; code.length < length; i++) {
    const b = (i < bytes.length ? bytes[i] : randomBytes(1)[0]) ?? 255;
    if (b < 248) code += alphabet[b % 31];
  }
  return `${prefix.toUpperCase()}${code}`;
}
