import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';
import { deviceKey, networkOf } from './devices.js';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_LINUX_NEWER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('what makes a device', () => {
  it('keeps the network of an address, not the address', () => {
    expect(networkOf('192.0.2.17')).toBe('192.0.2');
    expect(networkOf('::ffff:192.0.2.17')).toBe('192.0.2');
    expect(networkOf('2001:db8:1:2::9')).toBe('2001:db8:1');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0');
  });

  it('is the same for a browser update and another address in the network, not for another browser', () => {
    const a = deviceKey('u1', '192.0.2.17', CHROME_LINUX);
    expect(deviceKey('u1', '192.0.2.99', CHROME_LINUX_NEWER)).toBe(a);
    expect(deviceKey('u1', '192.0.2.17', FIREFOX_WINDOWS)).not.toBe(a);
    expect(deviceKey('u1', '198.51.100.17', CHROME_LINUX)).not.toBe(a);
    expect(deviceKey('u2', '192.0.2.17', CHROME_LINUX)).not.toBe(a);
  });
});

describe.each(dialects)('new-device notice on %s', (dialect) => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());

  /**
   * Runs the calls on an app of their own, then closes it: closing waits for the work the accounts
   * module does after its answers, so every notice that was going to be sent has been received.
   */
  async function session(
    calls: (from: (path: string, body: object, ua: string, ip: string) => Promise<number>, t: TestApp) => Promise<void>,
  ) {
    const t = await startTestApp({ dialect, env: { SMTP_URL: smtp.url } });
    try {
      await calls(async (path, body, ua, ip) => {
        const res = await t.app.inject({
          method: 'POST',
          url: path,
          payload: body as Record<string, unknown>,
          headers: { 'user-agent': ua },
          remoteAddress: ip,
        });
        return res.json<{ code: number }>().code;
      }, t);
    } finally {
      await t.close();
    }
  }
  const notices = (email: string) =>
    smtp.mails.filter((m) => m.to.includes(email) && /New sign-in|Neue Anmeldung/.test(m.subject));

  it('mails a sign-in from a device not seen before, not the first one nor a known one', async () => {
    const email = uniqueEmail();
    await session(async (from, t) => {
      expect(
        await from(
          '/api/register',
          { email, password: GOOD_PASSWORD, name: 'Noor', lang: 'en' },
          CHROME_LINUX,
          '192.0.2.17',
        ),
      ).toBe(900);
      expect(await from('/api/login', { email, password: GOOD_PASSWORD }, CHROME_LINUX_NEWER, '192.0.2.40')).toBe(900);
      expect(await from('/api/login', { email, password: GOOD_PASSWORD }, FIREFOX_WINDOWS, '198.51.100.5')).toBe(900);
      // A device is remembered after the sign-in's answer: the next sign-in from it comes once it is.
      await vi.waitFor(
        async () =>
          expect(
            await t.ctx.db.kysely
              .selectFrom('known_devices')
              .innerJoin('users', 'users.id', 'known_devices.user_id')
              .select('known_devices.device_hash')
              .where('users.email', '=', email)
              .execute(),
          ).toHaveLength(2),
        { timeout: 20_000 },
      );
      expect(await from('/api/login', { email, password: GOOD_PASSWORD }, FIREFOX_WINDOWS, '198.51.100.77')).toBe(900);
    });
    const sent = notices(email);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toBe('New sign-in to your Till account');
    expect(sent[0]?.text).toContain('Firefox / Windows');
    expect(sent[0]?.text).toContain('198.51.100.5');
    expect(sent[0]?.text).not.toContain('Gecko');
  });

  it('does not mail a failed sign-in from a new device', async () => {
    const email = uniqueEmail();
    await session(async (from) => {
      await from(
        '/api/register',
        { email, password: GOOD_PASSWORD, name: 'Ola', lang: 'de' },
        CHROME_LINUX,
        '192.0.2.17',
      );
      expect(await from('/api/login', { email, password: 'not the password' }, FIREFOX_WINDOWS, '198.51.100.5')).toBe(
        902,
      );
    });
    expect(notices(email)).toHaveLength(0);
  });

  it("mails in the user's language", async () => {
    const email = uniqueEmail();
    await session(async (from) => {
      await from(
        '/api/register',
        { email, password: GOOD_PASSWORD, name: 'Ola', lang: 'de' },
        CHROME_LINUX,
        '192.0.2.17',
      );
      expect(await from('/api/login', { email, password: GOOD_PASSWORD }, FIREFOX_WINDOWS, '198.51.100.5')).toBe(900);
    });
    const sent = notices(email);
    expect(sent.map((m) => m.subject)).toEqual(['Neue Anmeldung bei deinem Till-Konto']);
    expect(sent[0]?.text).toContain('Hallo Ola');
  });
});
