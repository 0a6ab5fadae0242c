import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test-support/app.js';
import { dialects } from '../test-support/db.js';
import { registerUser } from '../test-support/users.js';

describe.each(dialects)('store smoke on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('lists the demo catalog', async () => {
    const res = await t.call('/api/store/products', {});
    expect(res.code).toBe(900);
    const u = await registerUser(t);
    const r = await t.call('/api/store/redeemCoupon', { token: u.token, couponCode: 'free100' });
    expect(r).toMatchObject({ code: 900, data: { granted: { credits: 100 }, balance: 100 } });
  });
});
