import { availableParallelism } from 'node:os';
import argon2 from 'argon2';

/**
 * OWASP's argon2id baseline: 19 MiB of memory, 2 passes, 1 lane. Raising memory is the first knob
 * if hardware allows; the login benchmark measures what these settings cost.
 */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * How many hashes run at once: one per core. argon2 runs on libuv's thread pool (four threads), so
 * without a limit a burst of sign-ins kept four threads hashing on a two-core machine: the event loop
 * got a fraction of a core, every other call waited (p99 over 600 ms in bench/shop), and file reads
 * and writes, which share that pool, queued behind the hashes. With one hash per core the hash rate
 * is the same and the rest of the server keeps answering.
 */
export const HASH_SLOTS = Math.max(1, availableParallelism());
let hashing = 0;
const waitingForSlot: (() => void)[] = [];

/** Runs `work` when fewer than {@link HASH_SLOTS} hashes are under way, in order of arrival. */
export async function inHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashing < HASH_SLOTS) hashing += 1;
  else await new Promise<void>((resolve) => waitingForSlot.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is given back.
    const next = waitingForSlot.shift();
    if (next) next();
    else hashing -= 1;
  }
}

/** Hashes a password with argon2id (salt included in the encoded result). */
export function hashPassword(password: string): Promise<string> {
  return inHashSlot(() => argon2.hash(password, ARGON2_OPTIONS));
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password. With no stored hash (unknown account) it verifies against a dummy hash made
 * with the same settings, so that a login for an unknown e-mail takes as long as one for a known
 * e-mail and does not reveal which addresses have accounts.
 */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    dummyHash ??= hashPassword('dummy password that never matches');
    const dummy = await dummyHash;
    await inHashSlot(() => argon2.verify(dummy, password)).catch(() => false);
    return false;
  }
  try {
    return await inHashSlot(() => argon2.verify(stored, password));
  } catch {
    return false;
  }
}

let common: Promise<Set<string>> | undefined;

async function loadCommonPasswords(): Promise<Set<string>> {
  const { dictionary } = await import('@zxcvbn-ts/language-common');
  const list = (dictionary as Record<string, unknown>)['passwords-common'];
  const words = Array.isArray(list) ? (list as string[]) : [];
  // Shorter entries are refused by the length rule already.
  return new Set(words.filter((w) => w.length >= 8).map((w) => w.toLowerCase()));
}

/** True when the password is among the most common ones (the zxcvbn list of about 50 000). */
export async function isCommonPassword(password: string): Promise<boolean> {
  common ??= loadCommonPasswords();
  return (await common).has(password.toLowerCase());
}
