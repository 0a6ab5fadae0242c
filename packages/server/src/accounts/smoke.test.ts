import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test-support/app.js';
import { dialects } from '../test-support/db.js';
import { registerUser } from '../test-support/users.js';

describe.each(dialects)('smoke on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('registers and reads the user back', async () => {
    const u = await registerUser(t);
    const res = await t.call('/api/auth/getUserInfo', { token: u.token });
    expect(res.code).toBe(900);
    expect((res.user as { email: string }).email).toBe(u.email);
  });
});
