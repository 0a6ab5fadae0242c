import sharp from 'sharp';
import type { Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailedToken, PASSWORD, screenshotIfFailed, type Env } from '../support/env.js';
import { signIn } from '../support/flows.js';
import { PHONE_ORIGIN } from './native-side.js';
import { openPhone, startPhoneEnv, type Phone } from './support.js';

// The phone build in Chromium as Android's WebView runs it: pages from https://localhost, the
// plugins answered through Capacitor's bridge, the API on the server's own origin.
/** Whether the image arrived and decoded (a blocked or failed load leaves it 0 wide). */
async function loaded(img: Locator): Promise<number> {
  await img.scrollIntoViewIfNeeded();
  return img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0));
}

describe('the phone app', () => {
  let env: Env;
  let phone: Phone;
  const user = 'pia@example.test';

  beforeAll(async () => {
    env = await startPhoneEnv('nobody@example.test');
    expect(
      (await env.app.call('/api/register', { email: user, password: PASSWORD, name: 'Pia', lang: 'en' })).code,
    ).toBe(900);
    const token = await mailedToken(env, user, /Confirm your e-mail/, 'confirm');
    expect((await env.app.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json().code).toBe(900);
    phone = await openPhone(env);
  });
  afterEach(async (context) => screenshotIfFailed(context, { phone: phone?.page }));
  afterAll(async () => {
    await phone?.close();
    await env?.close();
  });

  it('runs as the native platform, signs in against the API host and shows the catalog', async () => {
    const { page } = phone;
    const apiCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) apiCalls.push(r.url());
    });
    await phone.open('/login');
    expect(
      await page.evaluate(() =>
        (window as unknown as { Capacitor: { getPlatform(): string } }).Capacitor.getPlatform(),
      ),
    ).toBe('android');
    await signIn(page, user, PASSWORD);
    await page.getByRole('button', { name: /^Account of/ }).waitFor();
    await page.goto(`${PHONE_ORIGIN}/`);
    await page.getByRole('button', { name: 'Add to cart: Pro unlock' }).waitFor();
    expect(apiCalls.length).toBeGreaterThan(0);
    expect(apiCalls.filter((u) => !u.startsWith(`${env.url}/`))).toEqual([]);
    // The shell's own behaviour ran through the bridge: the splash screen is hidden once the app is up.
    expect(phone.native.calls.some((c) => c.pluginId === 'SplashScreen' && c.methodName === 'hide')).toBe(true);
  });

  it('shows avatars and product images from the API host', async () => {
    const { page, native } = phone;
    // A photo from the phone's gallery becomes the avatar.
    native.nextPick = {
      bytes: await sharp({ create: { width: 320, height: 240, channels: 3, background: '#c0392b' } })
        .jpeg()
        .toBuffer(),
      mimeType: 'image/jpeg',
    };
    await page.goto(`${PHONE_ORIGIN}/profile`);
    await page.getByRole('button', { name: 'Choose a picture' }).click();
    await page.getByRole('button', { name: 'Remove the picture' }).waitFor();
    const avatar = page.getByRole('img', { name: 'Picture of Pia' });
    await expect.poll(() => loaded(avatar)).toBeGreaterThan(0);
    expect(await avatar.getAttribute('src')).toMatch(new RegExp(`^${env.url}/api/files/`));

    // The same upload as a product's picture: a server-relative address, as the admin's upload saves it.
    const owner = await env.app.db.kysely
      .selectFrom('users')
      .select('avatar_file_id')
      .where('email', '=', user)
      .executeTakeFirstOrThrow();
    expect(owner.avatar_file_id).toBeTruthy();
    await env.app.db.kysely
      .updateTable('products')
      .set({ image_url: `/api/files/download/${owner.avatar_file_id}` })
      .where('id', '=', 'credits-100')
      .execute();
    await page.goto(`${PHONE_ORIGIN}/`);
    const card = page.getByRole('listitem').filter({ hasText: '100 credits' }).first();
    await expect.poll(() => loaded(card.locator('img'))).toBeGreaterThan(0);
    await page.goto(`${PHONE_ORIGIN}/products/credits-100`);
    await expect.poll(() => loaded(page.getByRole('img', { name: '100 credits' }))).toBeGreaterThan(0);
  });

  it("keeps the session in the device's preferences, not in the WebView's storage", async () => {
    const { page, native } = phone;
    await page.goto(`${PHONE_ORIGIN}/profile`);
    await page.getByRole('button', { name: /^Account of/ }).waitFor();
    const kept = JSON.parse(native.preferences.get('till.session') ?? 'null') as { token?: string } | null;
    expect(kept?.token).toEqual(expect.any(String));
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('session')))).toEqual([]);

    // The OS clears the WebView's storage; the app starts again on a signed-in page.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByRole('button', { name: 'Choose a picture' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile');
  });

  it('moves a session kept by an earlier version from the WebView storage to the preferences', async () => {
    const other = await openPhone(env);
    try {
      const login = await env.app.call('/api/login', { email: user, password: PASSWORD });
      expect(login.code).toBe(900);
      await other.open('/');
      // The app has read the (empty) preferences: what the earlier version left is found on the next start.
      await other.page.getByRole('button', { name: 'Add to cart: Pro unlock' }).waitFor();
      const session = JSON.stringify({
        token: login.token,
        issuedAt: Math.floor(Date.now() / 1000),
        expire: login.expire,
        level: 1,
        user: null,
      });
      await other.page.evaluate((v) => localStorage.setItem('till.session', v), session);
      await other.open('/profile');
      await other.page.getByRole('button', { name: 'Choose a picture' }).waitFor();
      const moved = JSON.parse(other.native.preferences.get('till.session') ?? 'null') as { token?: string } | null;
      expect(moved?.token).toBe(login.token);
      expect(await other.page.evaluate(() => localStorage.getItem('till.session'))).toBeNull();
    } finally {
      await other.close();
    }
  });
});
