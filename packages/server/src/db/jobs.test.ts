import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { ok, saveCoupon } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import { takeLease, type Job } from './jobs.js';

describe.each(dialects)('housekeeping jobs on %s', (dialect) => {
  let t: TestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ dialect, now: () => clock });
  });
  afterAll(() => t.close());
  const job = (name: string): Job => {
    const found = t.jobs.list.find((j) => j.name === name);
    if (!found) throw new Error(`no job ${name}`);
    return found;
  };

  it('gives a job’s lease to exactly one of many instances asking at once, and again once it runs out', async () => {
    const db = t.ctx.db.kysely;
    const now = Date.now();
    const won = await Promise.all(
      Array.from({ length: 10 }, (_, i) => takeLease(db, 'race', `instance-${i}`, now, 60_000)),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await takeLease(db, 'race', 'late', now + 1_000, 60_000)).toBe(false);
    expect(await takeLease(db, 'race', 'late', now + 60_000, 60_000)).toBe(true);
  });

  it('removes sessions and link tokens that can no longer be used, once per turn across instances', async () => {
    const u = await registerUser(t);
    const db = t.ctx.db.kysely;
    const count = async (table: 'sessions' | 'link_tokens') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', u.userId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('sessions')).toBe(1);
    expect(await count('link_tokens')).toBe(1); // the confirmation link
    clock += 30 * 86_400_000;
    const expired = job('accounts.expired');
    const done = await t.jobs.runner.turn(expired);
    expect(done).toBeGreaterThanOrEqual(2);
    expect(await count('sessions')).toBe(0);
    expect(await count('link_tokens')).toBe(0);
    // The lease holds for the job's period: a second turn now is another instance's to skip.
    const other = await takeLease(db, expired.name, 'another instance', clock, expired.everyMs);
    expect(other).toBe(false);
  });

  it('cancels checkouts abandoned for a day, giving their coupon uses back', async () => {
    clock = Date.now();
    await saveCoupon(t, { code: `HOLD-${dialect}`, kind: 'discount', percentOff: 10, usageLimit: 1, active: true });
    const u = await registerUser(t);
    const made = await ok<{ order: { iden: string } }>(t, '/api/store/doCheckout', {
      token: u.token,
      products: 'credits-100',
      couponCode: `HOLD-${dialect}`,
    });
    clock += 25 * 3_600_000;
    await t.jobs.runner.turn(job('store.abandoned'));
    const fresh = await registerUser(t);
    const row = await t.ctx.db.kysely
      .selectFrom('orders')
      .select('status')
      .where('id', '=', made.order.iden)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('cancelled');
    const again = await ok<{ order: { status: string } }>(t, '/api/store/doCheckout', {
      token: fresh.token,
      products: 'credits-100',
      couponCode: `HOLD-${dialect}`,
    });
    expect(again.order.status).toBe('pending');
  });
});
