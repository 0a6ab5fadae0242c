import type { Options } from '@node-rs/argon2';
import { HashPool } from './hash-pool.js';

/**
 * OWASP's argon2id baseline: 19 MiB of memory, 2 passes, 1 lane. Raising memory is the first knob
 * if hardware allows; the login benchmark measures what these settings cost.
 */
export const ARGON2_OPTIONS = {
  // Algorithm.Argon2id (a const enum, which isolated modules cannot read from a declaration file).
  algorithm: 2 as NonNullable<Options['algorithm']>,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const satisfies Options;

/** The threads every hash and verification of this process runs on (see {@link HashPool}). */
const pool = new HashPool();

/** Hashes a password with argon2id (salt included in the encoded result). */
export function hashPassword(password: string): Promise<string> {
  return pool.hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password. With no stored hash (unknown account) it verifies against a dummy hash made
 * with the same settings, so that a login for an unknown e-mail takes as long as one for a known
 * e-mail and does not reveal which addresses have accounts. A stored value that is not an argon2 hash
 * matches no password.
 */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    dummyHash ??= hashPassword('dummy password that never matches');
    await pool.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await pool.verify(stored, password);
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
