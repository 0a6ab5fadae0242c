import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { registerUser } from '@till/test-support/users';

describe('dev outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('keeps mail when no SMTP server is configured and shows it at /dev/mail', async () => {
    const u = await registerUser(t, { name: '<b>Eve</b>' });
    const json = (await t.app.inject({ method: 'GET', url: '/dev/mail.json' })).json();
    expect(json.messages[0]).toMatchObject({ to: u.email, subject: 'Confirm your e-mail for Till' });
    const page = await t.app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(u.email);
    expect(page.body).toMatch(/<a href="http:\/\/localhost:\d+\/confirm\/[A-Za-z0-9_-]+">/);
    // Names are escaped, not rendered.
    expect(page.body).toContain('&#60;b&#62;Eve');
  });

  it('is not there when mail goes out over SMTP', async () => {
    const t2 = await startTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      expect((await t2.app.inject({ method: 'GET', url: '/dev/mail.json' })).statusCode).toBe(404);
      // The path may fall through to the web app's shell, but never to the mailbox.
      expect((await t2.app.inject({ method: 'GET', url: '/dev/mail' })).body).not.toContain('Dev mailbox');
    } finally {
      await t2.close();
    }
  });
});
