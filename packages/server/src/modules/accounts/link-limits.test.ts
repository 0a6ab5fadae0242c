import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultRateLimits, type RateLimits } from '../../config.js';
import { PasswordHasher, TEST_ARGON2_SETTINGS } from '../../security/passwords.js';
import { hashToken, newToken } from '../../security/tokens.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects, testRedisUrl } from '@till/test-support/db';
import { confirmedUser } from '@till/test-support/users';

// Counts the passwords the server hashes: the costly step these limits keep out of an attacker's reach.
const hashed = { count: 0 };
class CountingHasher extends PasswordHasher {
  override hash(password: string): Promise<string> {
    hashed.count += 1;
    return super.hash(password);
  }
}
const passwords = new CountingHasher(TEST_ARGON2_SETTINGS);

const generous = { loginPerIp: 100_000, registerPerIp: 100_000, mailPerIp: 100_000, mailPerAddress: 100_000 };

// Counted in the process, and in Redis (shared by server copies) when TEST_REDIS_URL is set.
const setups = dialects.flatMap((dialect) => [
  { dialect, counters: 'memory' },
  ...(testRedisUrl ? [{ dialect, counters: 'redis' }] : []),
]);

describe.each(setups)('reset and confirmation limits on $dialect, counted in $counters', ({ dialect, counters }) => {
  let t: TestApp;
  // Redis keeps its counters across runs: each test's client address is its own.
  let ip = '';
  async function start(limits: Partial<RateLimits>) {
    t = await startTestApp({
      dialect,
      passwords,
      ...(counters === 'redis' && testRedisUrl ? { env: { REDIS_URL: testRedisUrl } } : {}),
      config: { rateLimits: { ...defaultRateLimits, ...generous, ...limits } },
    });
  }
  beforeEach(() => {
    hashed.count = 0;
    ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  });
  afterEach(() => t.close());

  /** A live reset link for a new user, written as genResetLink writes one. */
  async function resetLink(): Promise<string> {
    const u = await confirmedUser(t);
    const token = newToken();
    await t.ctx.db.kysely
      .insertInto('link_tokens')
      .values({
        token_hash: hashToken(token),
        user_id: u.userId,
        kind: 'reset',
        new_email: null,
        created_at: Date.now(),
        expires_at: Date.now() + 3_600_000,
        used_at: null,
      })
      .execute();
    return token;
  }
  const reset = (token: string, password: string, from = ip) =>
    t.app
      .inject({ method: 'POST', url: `/api/resetPassword/${token}`, payload: { password }, remoteAddress: from })
      .then((r) => r.json<{ code: number }>().code);
  const confirm = (token: string) =>
    t.app
      .inject({ method: 'GET', url: `/api/confirmUser/${token}`, remoteAddress: ip })
      .then((r) => r.json<{ code: number }>().code);

  it('answers 911 for an unknown reset token without hashing the password', async () => {
    await start({});
    expect(await reset(newToken(), 'a fine new passphrase')).toBe(911);
    expect(hashed.count).toBe(0);
    // A known token does hash it, once.
    expect(await reset(await resetLink(), 'a fine new passphrase')).toBe(900);
    expect(hashed.count).toBe(2); // the registration's and the reset's
  });

  it('hashes at most the per-token budget of passwords when one token is tried many times at once', async () => {
    await start({ resetPerToken: 3, resetPerIp: 1_000 });
    const token = await resetLink();
    hashed.count = 0;
    const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => reset(token, `a fine new passphrase ${i}`)));
    expect(codes.filter((c) => c === 900)).toHaveLength(1);
    expect(codes.filter((c) => c === 906)).toHaveLength(17);
    expect(codes.filter((c) => c === 911)).toHaveLength(2);
    expect(hashed.count).toBeLessThanOrEqual(3);
  });

  it('holds the per-address budget of resets under a burst of tokens', async () => {
    await start({ resetPerToken: 1_000, resetPerIp: 5 });
    const codes = await Promise.all(Array.from({ length: 30 }, () => reset(newToken(), 'a fine new passphrase')));
    expect(codes.filter((c) => c === 911)).toHaveLength(5);
    expect(codes.filter((c) => c === 906)).toHaveLength(25);
    // Another address has its own budget.
    expect(await reset(newToken(), 'a fine new passphrase', ip.replace(/\.\d+$/, '.251'))).toBe(911);
    expect(hashed.count).toBe(0);
  });

  it('holds the per-token and per-address budgets of confirmations under a burst', async () => {
    await start({ confirmPerToken: 3, confirmPerIp: 13 });
    const token = newToken();
    const same = await Promise.all(Array.from({ length: 10 }, () => confirm(token)));
    expect(same.filter((c) => c === 911)).toHaveLength(3);
    expect(same.filter((c) => c === 906)).toHaveLength(7);
    // Every try spent a point of the address's 13, refused or not: three are left.
    const many = await Promise.all(Array.from({ length: 10 }, () => confirm(newToken())));
    expect(many.filter((c) => c === 911)).toHaveLength(3);
    expect(many.filter((c) => c === 906)).toHaveLength(7);
  });
});
