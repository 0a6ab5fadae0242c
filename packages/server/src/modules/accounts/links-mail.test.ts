import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';

/** Over real HTTP, with mail through a real SMTP server, following the mailed links. */
describe.each(dialects)('mailed links on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let now = Date.now();
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ dialect, listen: true, env: { SMTP_URL: smtp.url }, now: () => now });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown> & { code: number };
  };
  const get = async (path: string) => {
    const res = await fetch(`${t.url}${path}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown> & { code: number };
  };
  const register = async (lang = 'en') => {
    const email = uniqueEmail();
    const res = await post('/api/register', { email, password: GOOD_PASSWORD, name: 'Mia', lang });
    expect(res.code).toBe(900);
    return { email, token: res.token as string };
  };
  const level = async (token: string) =>
    ((await post('/api/auth/getUserInfo', { token })).user as { level: number }).level;

  it('mails a confirmation link in text and HTML that confirms the address once', async () => {
    const u = await register();
    const mail = await smtp.next(u.email, /Confirm your e-mail/);
    expect(mail.text).toContain(`${t.url}/confirm/`);
    expect(mail.html).toContain(`${t.url}/confirm/`);
    const token = linkToken(mail, 'confirm');
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(await level(u.token)).toBe(1);
    expect(await get(`/api/confirmUser/${token}`)).toEqual({ code: 900 });
    expect(await level(u.token)).toBe(2);
    expect(await get(`/api/confirmUser/${token}`)).toEqual({ code: 911 });
  });

  it('writes the mail in the language asked for', async () => {
    const u = await register('de');
    const mail = await smtp.next(u.email);
    expect(mail.subject).toBe('Bestätige deine E-Mail-Adresse für Till');
    expect(mail.text).toContain('Hallo Mia');
  });

  it("writes a reset mail in the account's language, the one chosen last, whatever language asks", async () => {
    const u = await register('en');
    await smtp.next(u.email);
    expect(await post('/api/auth/updateInfo', { token: u.token, lang: 'de' })).toMatchObject({ code: 900 });
    expect(await post('/api/genResetLink', { email: u.email, lang: 'en' })).toEqual({ code: 900 });
    expect((await smtp.next(u.email)).subject).toBe('Setze dein Till-Passwort zurück');
    const german = await register('de');
    await smtp.next(german.email);
    expect(await post('/api/genResetLink', { email: german.email })).toEqual({ code: 900 });
    expect((await smtp.next(german.email)).subject).toBe('Setze dein Till-Passwort zurück');
  });

  it('answers 911 for an unknown confirmation token and for one past its 24 hours', async () => {
    expect(await get(`/api/confirmUser/${'x'.repeat(43)}`)).toEqual({ code: 911 });
    const u = await register();
    const token = linkToken(await smtp.next(u.email), 'confirm');
    now += 24 * 3_600_000 + 1_000;
    try {
      expect(await get(`/api/confirmUser/${token}`)).toEqual({ code: 911 });
    } finally {
      now = Date.now();
    }
  });

  it('resets a password through the mailed link, ending every session', async () => {
    const u = await register();
    await smtp.next(u.email);
    const second = await post('/api/login', { email: u.email, password: GOOD_PASSWORD });
    expect(await post('/api/genResetLink', { email: u.email.toUpperCase(), lang: 'en' })).toEqual({ code: 900 });
    const mail = await smtp.next(u.email, /Reset your Till password/);
    const token = linkToken(mail, 'reset');
    expect(mail.text).toContain(`${t.url}/reset/${token}`);
    expect(await post(`/api/resetPassword/${token}`, { password: 'brand new passphrase', lang: 'en' })).toEqual({
      code: 900,
    });
    expect(await post('/api/auth/getUserInfo', { token: u.token })).toEqual({ code: 901 });
    expect(await post('/api/auth/getUserInfo', { token: second.token as string })).toEqual({ code: 901 });
    expect(await post('/api/login', { email: u.email, password: GOOD_PASSWORD })).toEqual({ code: 902 });
    expect((await post('/api/login', { email: u.email, password: 'brand new passphrase' })).code).toBe(900);
    expect(await post(`/api/resetPassword/${token}`, { password: 'another new passphrase' })).toEqual({ code: 911 });
  });

  it('lets only the newest reset link work, for one hour', async () => {
    const u = await register();
    await smtp.next(u.email);
    await post('/api/genResetLink', { email: u.email });
    const first = linkToken(await smtp.next(u.email, /Reset/), 'reset');
    await post('/api/genResetLink', { email: u.email });
    const second = linkToken(await smtp.next(u.email, /Reset/), 'reset');
    expect(await post(`/api/resetPassword/${first}`, { password: 'brand new passphrase' })).toEqual({ code: 911 });
    now += 3_600_000 + 1_000;
    try {
      expect(await post(`/api/resetPassword/${second}`, { password: 'brand new passphrase' })).toEqual({ code: 911 });
    } finally {
      now = Date.now();
    }
  });

  it('validates the new password before spending the link', async () => {
    const u = await register();
    await smtp.next(u.email);
    await post('/api/genResetLink', { email: u.email });
    const token = linkToken(await smtp.next(u.email, /Reset/), 'reset');
    expect(await post(`/api/resetPassword/${token}`, { password: 'short' })).toEqual({
      code: 907,
      parameter: 'password',
      reason: 'too_short',
    });
    expect(await post(`/api/resetPassword/${token}`, { password: 'password123' })).toEqual({
      code: 907,
      parameter: 'password',
      reason: 'weak',
    });
    expect(await post(`/api/resetPassword/${token}`, { password: 'brand new passphrase' })).toEqual({ code: 900 });
  });

  it('answers 900 for an unknown address and sends nothing', async () => {
    const email = uniqueEmail();
    expect(await post('/api/genResetLink', { email })).toEqual({ code: 900 });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.some((m) => m.to.includes(email))).toBe(false);
  });

  it('voids a mailed reset link once the password or the e-mail address changes', async () => {
    const u = await register();
    await smtp.next(u.email);
    await post('/api/genResetLink', { email: u.email });
    const beforePassword = linkToken(await smtp.next(u.email, /Reset/), 'reset');
    const changed = await post('/api/auth/updateInfo', {
      token: u.token,
      password: 'another long passphrase',
      currentPassword: GOOD_PASSWORD,
    });
    expect(changed.code).toBe(900);
    expect(await post(`/api/resetPassword/${beforePassword}`, { password: 'taken back passphrase' })).toEqual({
      code: 911,
    });

    await post('/api/genResetLink', { email: u.email });
    const beforeEmail = linkToken(await smtp.next(u.email, /Reset/), 'reset');
    const next = uniqueEmail('moved');
    await post('/api/auth/updateInfo', { token: u.token, email: next, currentPassword: 'another long passphrase' });
    const confirm = linkToken(await smtp.next(next, /new e-mail/), 'confirm');
    expect(await get(`/api/confirmUser/${confirm}`)).toEqual({ code: 900 });
    expect(await post(`/api/resetPassword/${beforeEmail}`, { password: 'taken back passphrase' })).toEqual({
      code: 911,
    });
    expect((await post('/api/login', { email: next, password: 'another long passphrase' })).code).toBe(900);
  });

  it('changes the e-mail once the new address confirms, telling the old one', async () => {
    const u = await register();
    await smtp.next(u.email);
    const next = uniqueEmail('new');
    const res = await post('/api/auth/updateInfo', { token: u.token, email: next, currentPassword: GOOD_PASSWORD });
    expect(res.code).toBe(900);
    const notice = await smtp.next(u.email, /is changing/);
    expect(notice.text).toContain(next);
    const token = linkToken(await smtp.next(next, /new e-mail/), 'confirm');
    expect(await get(`/api/confirmUser/${token}`)).toEqual({ code: 900 });
    const user = (await post('/api/auth/getUserInfo', { token: u.token })).user as Record<string, unknown>;
    expect(user).toMatchObject({ email: next, pendingEmail: null, emailConfirmed: true });
    expect((await post('/api/login', { email: next, password: GOOD_PASSWORD })).code).toBe(900);
    expect(await post('/api/login', { email: u.email, password: GOOD_PASSWORD })).toEqual({ code: 902 });
  });

  it('lets only one of two racing clicks on a link through', async () => {
    const u = await register();
    const token = linkToken(await smtp.next(u.email), 'confirm');
    const results = await Promise.all(Array.from({ length: 6 }, () => get(`/api/confirmUser/${token}`)));
    expect(results.filter((r) => r.code === 900)).toHaveLength(1);
    expect(results.filter((r) => r.code === 911)).toHaveLength(5);
  });
});
