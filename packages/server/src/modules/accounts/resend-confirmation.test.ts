import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';

/** The way on after registering: the confirmation link mailed again, through a real SMTP server. */
describe.each(dialects)('resending the confirmation link on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ dialect, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('mails a new link that works while the first one no longer does, and then has nothing to resend', async () => {
    const email = uniqueEmail();
    const reg = await t.call('/api/register', { email, password: GOOD_PASSWORD, name: 'Ana', lang: 'en' });
    const token = reg.token as string;
    const first = linkToken(await smtp.next(email, /Confirm your e-mail/), 'confirm');
    expect(await t.call('/api/auth/resendConfirmation', { token })).toEqual({ code: 900 });
    const second = linkToken(await smtp.next(email, /Confirm your e-mail/), 'confirm');
    expect(second).not.toBe(first);
    const confirm = async (link: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/confirmUser/${link}` })).json();
    expect(await confirm(first)).toEqual({ code: 911 });
    expect(await confirm(second)).toEqual({ code: 900 });
    expect(await t.call('/api/auth/resendConfirmation', { token })).toEqual({ code: 912, status: 'confirmed' });
  });

  it('needs a session', async () => {
    expect(await t.call('/api/auth/resendConfirmation', {})).toMatchObject({ code: 901 });
  });
});
