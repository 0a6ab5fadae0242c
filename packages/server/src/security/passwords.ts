import type { Options } from '@node-rs/argon2';
import { HashPool } from './hash-pool.js';

/**
 * argon2id with 20 MiB of memory, 2 passes, 1 lane: OWASP's baseline (19 MiB, 2 passes) with its memory
 * rounded up to whole 2 MiB pages. The hash library asks Linux for huge pages for its memory, which the
 * kernel can give only in whole, aligned 2 MiB pieces; with 19 MiB, the last MiB came in 256 small pages,
 * each faulted in and zeroed apart, and a hash took more CPU than with 20 MiB (see
 * docs/decisions/005-argon2id-20-mib.md). Raising memory is the first knob if hardware allows: keep it a
 * multiple of 2048 KiB. `bench/accounts` and `bench/peers` measure what these settings cost.
 */
export const ARGON2_OPTIONS = {
  // Algorithm.Argon2id (a const enum, which isolated modules cannot read from a declaration file).
  algorithm: 2 as NonNullable<Options['algorithm']>,
  memoryCost: 20_480,
  timeCost: 2,
  parallelism: 1,
} as const satisfies Options;

/** The argon2id settings a {@link PasswordHasher} hashes with. */
export type HashSettings = Pick<Options, 'memoryCost' | 'timeCost' | 'parallelism'>;

/**
 * The cheapest settings argon2id takes, for test servers whose tests are not about hashing: every
 * registration and sign-in of a test run would otherwise spend a production hash's CPU. Never
 * reachable from configuration; the hashing tests and the timing tests use {@link ARGON2_OPTIONS}.
 */
export const TEST_ARGON2_SETTINGS: HashSettings = { memoryCost: 64, timeCost: 1, parallelism: 1 };

/** The threads every hash and verification of this process runs on (see {@link HashPool}). */
const sharedPool = new HashPool();

/** Hashes and verifies passwords with argon2id on the process's hashing threads. */
export class PasswordHasher {
  private readonly options: Options;
  private dummyHash: Promise<string> | undefined;

  /**
   * @param pool the threads to hash on: the process's own by default. Test servers pass a pool of their
   *   own whose threads run at the event loop's priority (beside a test run's other processes, niced
   *   threads wait behind all of them).
   */
  constructor(
    settings: HashSettings = ARGON2_OPTIONS,
    private readonly pool: HashPool = sharedPool,
  ) {
    this.options = { ...settings, algorithm: ARGON2_OPTIONS.algorithm };
  }

  /** Hashes a password (salt included in the encoded result). */
  hash(password: string): Promise<string> {
    return this.pool.hash(password, this.options);
  }

  /**
   * Verifies a password. With no stored hash (unknown account) it verifies against a dummy hash made
   * with the same settings, so that a login for an unknown e-mail takes as long as one for a known
   * e-mail and does not reveal which addresses have accounts. A stored value that is not an argon2
   * hash matches no password.
   */
  async verify(stored: string | undefined, password: string): Promise<boolean> {
    if (stored === undefined) {
      this.dummyHash ??= this.hash('dummy password that never matches');
      await this.check(await this.dummyHash, password);
      return false;
    }
    return this.check(stored, password);
  }

  /** Whether `password` matches the encoded hash; false for a value that is not an argon2 hash. */
  protected async check(encoded: string, password: string): Promise<boolean> {
    try {
      return await this.pool.verify(encoded, password);
    } catch {
      return false;
    }
  }

  /**
   * True when a stored argon2 hash was made with other settings than this hasher's (an earlier
   * release's, or another variant): a sign-in that proves the password then hashes it anew. Parameters
   * are read by name, whatever their order (earlier encoders wrote `m,p,t`). A value that is not an
   * argon2 hash matches no password and is left as it is.
   */
  needsRehash(stored: string): boolean {
    const parts = /^\$(argon2(?:id|i|d))\$v=(\d+)\$([^$]+)\$/.exec(stored);
    if (!parts) return false;
    const [, variant, version, list = ''] = parts;
    const params = new Map(list.split(',').map((pair) => pair.split('=') as [string, string]));
    return (
      variant !== 'argon2id' ||
      version !== '19' ||
      params.get('m') !== String(this.options.memoryCost) ||
      params.get('t') !== String(this.options.timeCost) ||
      params.get('p') !== String(this.options.parallelism)
    );
  }
}

/** The hasher with the production settings, which the server uses unless its build is told otherwise. */
export const standardHasher = new PasswordHasher();

/** Hashes a password with {@link ARGON2_OPTIONS}. */
export const hashPassword = (password: string): Promise<string> => standardHasher.hash(password);
/** Verifies a password (see {@link PasswordHasher.verify}). */
export const verifyPassword = (stored: string | undefined, password: string): Promise<boolean> =>
  standardHasher.verify(stored, password);
/** Whether a stored hash was made with other settings than {@link ARGON2_OPTIONS}. */
export const needsRehash = (stored: string): boolean => standardHasher.needsRehash(stored);

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
