import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { giveCredits, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import { revokePaidTime } from './reversals.js';

const DAY = 24 * 3600 * 1000;

describe.each(dialects)('cutting a refunded period out of subscription time on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t.close());

  /** A buyer's month of the subscription, bought with credits: its order and its one row of time. */
  const aMonth = async () => {
    const b = await registerUser(t);
    await giveCredits(t, b.userId, 300);
    await ok(t, '/api/auth/payWithCredits', { token: b.token, products: JSON.stringify(['monthly']) });
    const row = await t.ctx.db.kysely
      .selectFrom('entitlements')
      .selectAll()
      .where('user_id', '=', b.userId)
      .executeTakeFirstOrThrow();
    return {
      userId: b.userId,
      orderId: row.order_id as string,
      from: Number(row.starts_at),
      until: Number(row.expires_at),
    };
  };
  const live = async (userId: string) =>
    (
      await t.ctx.db.kysely
        .selectFrom('entitlements')
        .select(['starts_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('starts_at')
        .execute()
    ).map((r) => [Number(r.starts_at), Number(r.expires_at)]);
  const cut = (m: { userId: string; orderId: string }, from: number, until: number) =>
    t.ctx.db.kysely
      .transaction()
      .execute((trx) => revokePaidTime(trx, { userId: m.userId, orderIds: [m.orderId], from, until }, Date.now()));

  it('keeps the time on both sides of a period cut out of the middle of a row', async () => {
    const m = await aMonth();
    await cut(m, m.from + 10 * DAY, m.from + 20 * DAY);
    expect(await live(m.userId)).toEqual([
      [m.from, m.from + 10 * DAY],
      [m.from + 20 * DAY, m.until],
    ]);
  });

  it('trims a row the period overlaps at either end, and ends one it covers', async () => {
    const start = await aMonth();
    await cut(start, start.from - DAY, start.from + 5 * DAY);
    expect(await live(start.userId)).toEqual([[start.from + 5 * DAY, start.until]]);
    const end = await aMonth();
    await cut(end, end.until - 5 * DAY, end.until + DAY);
    expect(await live(end.userId)).toEqual([[end.from, end.until - 5 * DAY]]);
    const whole = await aMonth();
    await cut(whole, whole.from, whole.until);
    expect(await live(whole.userId)).toEqual([]);
  });
});
