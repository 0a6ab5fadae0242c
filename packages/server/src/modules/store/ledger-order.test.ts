import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, expectLedgerMatchesBalances, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

describe.each(dialects)('the credits ledger on %s', (dialect) => {
  let t: TestApp;
  // A clock that runs backwards: each request looks as if it had started before the last one
  // committed, as a slow request racing a fast one does.
  let clock = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ dialect, now: () => (clock -= 1_000) });
  });
  afterAll(() => t.close());

  it('lists entries in the order they changed the balance, whenever their requests started', async () => {
    const u = await registerUser(t);
    const { token } = await anAdmin(t);
    for (let i = 1; i <= 5; i++) {
      await ok(t, '/api/admin/credits/adjust', { token, userId: u.userId, amount: 10, reason: `grant ${i}` });
    }
    const { entries } = await ok<{ entries: { amount: number; balanceAfter: number }[] }>(t, '/api/store/credits', {
      token: u.token,
      page: 1,
      pageSize: 10,
    });
    expect(entries.map((e) => e.balanceAfter)).toEqual([50, 40, 30, 20, 10]);
    await expectLedgerMatchesBalances(t);
  });
});
