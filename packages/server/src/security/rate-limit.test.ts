import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../config.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { testRedisUrl } from '@till/test-support/db';
import { GOOD_PASSWORD, registerUser, uniqueEmail } from '@till/test-support/users';
import { Limiter } from './rate-limit.js';
import { redisOptions } from './redis.js';

describe('rate limits (906 with retryAfter)', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });
  const start = async (opts: Parameters<typeof startTestApp>[0] = {}) => {
    const t = await startTestApp(opts);
    apps.push(t);
    return t;
  };

  it('locks an account after 10 failed logins in 15 minutes, even for the right password', async () => {
    const t = await start();
    const u = await registerUser(t);
    for (let i = 0; i < 10; i++) {
      expect(await t.call('/api/login', { email: u.email, password: `wrong password ${i}` })).toEqual({ code: 902 });
    }
    const locked = await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    expect(locked.code).toBe(906);
    expect(locked.retryAfter).toBeGreaterThan(800);
    expect(locked.retryAfter).toBeLessThanOrEqual(900);
    // Other accounts are not affected.
    const v = await registerUser(t);
    expect((await t.call('/api/login', { email: v.email, password: GOOD_PASSWORD })).code).toBe(900);
  });

  const loginFrom = async (t: TestApp, ip: string, email: string, password: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip })).json<{
      code: number;
    }>();

  it('holds the failure budget when 30 wrong guesses arrive at once, and keeps the owner in from elsewhere', async () => {
    const t = await start();
    const u = await registerUser(t);
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginFrom(t, '203.0.113.7', u.email, `wrong password ${i}`)),
    );
    const codes = guesses.map((g) => g.code).sort();
    expect(codes.filter((c) => c === 902)).toHaveLength(10);
    expect(codes.filter((c) => c === 906)).toHaveLength(20);
    // The right password from the guesser's address waits too...
    expect((await loginFrom(t, '203.0.113.7', u.email, GOOD_PASSWORD)).code).toBe(906);
    // ...but the owner, from another address, is not locked out.
    expect((await loginFrom(t, '198.51.100.20', u.email, GOOD_PASSWORD)).code).toBe(900);
  });

  it('bounds guesses spread over many addresses with the per-account budget', async () => {
    const t = await start({
      config: { rateLimits: { ...defaultRateLimits, loginPerIp: 1000, loginFailuresPerAccount: 12 } },
    });
    const u = await registerUser(t);
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => loginFrom(t, `192.0.2.${i + 1}`, u.email, 'wrong password')),
    );
    expect(guesses.filter((g) => g.code === 902)).toHaveLength(12);
    expect(guesses.filter((g) => g.code === 906)).toHaveLength(8);
  });

  it('counts the address the nearest proxy saw, whatever a client writes into X-Forwarded-For', async () => {
    const t = await start({ config: { trustProxy: 1, rateLimits: { ...defaultRateLimits, loginPerIp: 1 } } });
    const behindProxy = async (forged: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: uniqueEmail(), password: 'whatever it is' },
          remoteAddress: '10.0.0.5',
          headers: { 'x-forwarded-for': `${forged}, 198.51.100.9` },
        })
      ).json<{ code: number }>().code;
    expect(await behindProxy('6.6.6.1')).toBe(902);
    // Another forged address in front changes nothing: the proxy saw 198.51.100.9 both times.
    expect(await behindProxy('6.6.6.2')).toBe(906);
  });

  it('forgets failures after a successful login', async () => {
    const t = await start();
    const u = await registerUser(t);
    for (let i = 0; i < 9; i++) await t.call('/api/login', { email: u.email, password: 'wrong password' });
    expect((await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).code).toBe(900);
    for (let i = 0; i < 9; i++) await t.call('/api/login', { email: u.email, password: 'wrong password' });
    expect((await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).code).toBe(900);
  });

  it('limits logins, registrations and mails per client address with the default budgets', async () => {
    const t = await start({ config: { rateLimits: { ...defaultRateLimits } } });
    const results = [];
    for (let i = 0; i <= defaultRateLimits.registerPerIp; i++) {
      results.push(await t.call('/api/register', { email: uniqueEmail(), password: GOOD_PASSWORD, name: 'Flood' }));
    }
    expect(results.slice(0, -1).every((r) => r.code === 900)).toBe(true);
    expect(results.at(-1)).toMatchObject({ code: 906 });

    let last;
    for (let i = 0; i <= defaultRateLimits.loginPerIp; i++) {
      last = await t.call('/api/login', { email: uniqueEmail(), password: 'whatever it is' });
    }
    expect(last).toMatchObject({ code: 906 });
    expect(last!.retryAfter).toBeGreaterThan(0);

    const email = uniqueEmail();
    const mails = [];
    for (let i = 0; i <= defaultRateLimits.mailPerAddress; i++)
      mails.push(await t.call('/api/genResetLink', { email }));
    expect(mails.slice(0, -1).every((r) => r.code === 900)).toBe(true);
    expect(mails.at(-1)).toMatchObject({ code: 906 });
  });

  it.runIf(testRedisUrl)('shares the counters between server copies through Redis', async () => {
    const prefix = `shared-${Date.now()}`;
    const a = await start({ env: { REDIS_URL: testRedisUrl! } });
    const b = await start({ env: { REDIS_URL: testRedisUrl! } });
    const email = `${prefix}@example.test`;
    // Failures spread over two copies add up to one budget.
    for (let i = 0; i < 5; i++) await a.call('/api/login', { email, password: 'wrong password' });
    for (let i = 0; i < 5; i++) await b.call('/api/login', { email, password: 'wrong password' });
    expect((await a.call('/api/login', { email, password: 'wrong password' })).code).toBe(906);
    expect((await b.call('/api/login', { email, password: 'wrong password' })).code).toBe(906);
  });
});

describe.runIf(testRedisUrl)('a budget shared through Redis', () => {
  it('holds while this process stalls with an answer from Redis waiting', async () => {
    const redis = new Redis(testRedisUrl ?? '', redisOptions);
    try {
      await new Promise((resolve) => redis.once('ready', resolve));
      const limiter = new Limiter(`stall-${uniqueEmail()}`, { points: 1, duration: 60 }, redis);
      expect(await limiter.hit('guesser')).toBe(0);
      // Redis answers the second spend at once (over budget); the loop is busy for 700 ms meanwhile,
      // as a loaded server's is. Counting that as an outage spent the point in a fresh memory counter.
      const second = limiter.hit('guesser');
      const until = Date.now() + 700;
      while (Date.now() < until) {
        // The stall.
      }
      expect(await second).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});
