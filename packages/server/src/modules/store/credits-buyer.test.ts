import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { ok } from '@till/test-support/store';
import { adminUser, registerUser } from '@till/test-support/users';

describe.each(dialects)("a buyer's credit history on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t.close());

  it("shows a correction's note without the administrator's id, which administrators still see", async () => {
    const buyer = await registerUser(t);
    const admin = await adminUser(t);
    await ok(t, '/api/admin/credits/adjust', {
      token: admin.token,
      userId: buyer.userId,
      amount: 25,
      reason: 'Goodwill',
    });
    const mine = await ok<{ entries: { reason: string; reference: string | null }[] }>(t, '/api/store/credits', {
      token: buyer.token,
    });
    expect(mine.entries[0]).toMatchObject({ reason: 'adjustment', reference: 'Goodwill' });
    expect(JSON.stringify(mine)).not.toContain(admin.userId);
    const seen = await ok<{ entries: { reference: string | null }[] }>(t, '/api/admin/credits/history', {
      token: admin.token,
      userId: buyer.userId,
    });
    expect(seen.entries[0]?.reference).toContain('(by ');
  });
});
