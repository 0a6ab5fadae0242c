import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { confirmedUser, GOOD_PASSWORD, stepUp, uniqueEmail } from '@till/test-support/users';
import { SoftAuthenticator, type OptionsJson } from '@till/test-support/webauthn';

const T0 = Math.floor(Date.UTC(2026, 10, 27, 10, 0, 0) / 30_000) * 30_000;
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
const EN = /A change to your Till account/;
const DE = /Eine Änderung an deinem Till-Konto/;

describe.each(dialects)('security notices by mail on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let now = T0;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ dialect, now: () => now, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  const forgot = () => `${t.ctx.config.publicUrl}/forgot`;

  it('tells of a password change, with a link to reset the password if it was not the owner', async () => {
    const u = await confirmedUser(t);
    const res = await t.call('/api/auth/updateInfo', {
      token: u.token,
      currentPassword: GOOD_PASSWORD,
      password: 'a different long passphrase',
    });
    expect(res.code).toBe(900);
    const mail = await smtp.next(u.email, EN);
    expect(mail.text).toContain('the password of your Till account was changed');
    expect(mail.text).toContain(`This was not me: reset my password: ${forgot()}`);
  });

  it('tells both addresses of a changed e-mail address', async () => {
    const u = await confirmedUser(t);
    const to = uniqueEmail('moved');
    await t.call('/api/auth/updateInfo', { token: u.token, email: to, currentPassword: GOOD_PASSWORD });
    const token = linkToken(await smtp.next(to, /Confirm your new e-mail/), 'confirm');
    expect((await t.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json()).toEqual({ code: 900 });
    for (const address of [u.email, to]) {
      expect((await smtp.next(address, EN)).text).toContain(`e-mail address of your Till account was changed to ${to}`);
    }
  });

  it('tells a German account in German of the second factor turned on and off, and of a recovery code used', async () => {
    now = T0;
    const u = await confirmedUser(t, { lang: 'de' });
    const { secret } = (await t.call('/api/auth/totp/setup', { token: u.token })).data as { secret: string };
    const on = await t.call('/api/auth/totp/enable', {
      token: u.token,
      code: codeAt(secret, now),
      currentPassword: GOOD_PASSWORD,
    });
    expect(on.code).toBe(900);
    const first = await smtp.next(u.email, DE);
    expect(first.text).toContain('wurde für dein Till-Konto eingeschaltet');
    expect(first.text).toContain(`Das war ich nicht: Passwort zurücksetzen: ${forgot()}`);

    const [recoveryCode] = (on.data as { recoveryCodes: string[] }).recoveryCodes;
    const challenge = (await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).challenge;
    expect((await t.call('/api/login/secondFactor', { challenge, recoveryCode })).code).toBe(900);
    expect((await smtp.next(u.email, DE)).text).toContain('Wiederherstellungscodes deines Till-Kontos wurde benutzt');

    now += 30_000;
    const off = await t.call('/api/auth/totp/disable', {
      token: u.token,
      currentPassword: GOOD_PASSWORD,
      code: codeAt(secret, now),
    });
    expect(off.code).toBe(900);
    expect((await smtp.next(u.email, DE)).text).toContain('wurde für dein Till-Konto abgeschaltet');
  });

  it('tells of a passkey added and removed', async () => {
    now = T0;
    const u = await confirmedUser(t);
    await stepUp(t, u.token);
    const device = new SoftAuthenticator('http://localhost:3000');
    const options = (await t.call('/api/auth/passkeys/registrationOptions', { token: u.token })).data as {
      options: OptionsJson;
    };
    const added = await t.call('/api/auth/passkeys/register', {
      token: u.token,
      name: 'Laptop',
      credential: device.create(options.options),
    });
    expect(added.code).toBe(900);
    expect((await smtp.next(u.email, EN)).text).toContain('a passkey was added to your Till account');
    const id = (added.data as { passkey: { id: string } }).passkey.id;
    expect((await t.call('/api/auth/passkeys/remove', { token: u.token, id })).code).toBe(900);
    expect((await smtp.next(u.email, EN)).text).toContain('a passkey was removed from your Till account');
  });
});
