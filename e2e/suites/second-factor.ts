import jsqr from 'jsqr';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fill, signIn, signOut, waitForText } from '../support/flows.js';
import {
  checkScreen,
  newContext,
  PASSWORD,
  startEnv,
  type Env,
  screenshotIfFailed,
  type Viewport,
} from '../support/env.js';

// jsqr is a UMD bundle whose `module.exports` is the function itself; its types describe an ES default.
const jsQR = jsqr as unknown as typeof jsqr.default;

/** Reads the QR code drawn on the page: the PNG of its data URL, decoded to pixels and scanned. */
async function scanQr(page: Page): Promise<string> {
  const src = await page.getByTestId('totp-qr').getAttribute('src');
  expect(src).toMatch(/^data:image\/png;base64,/);
  const png = Buffer.from((src ?? '').split(',')[1] ?? '', 'base64');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  if (!found) throw new Error('no QR code found in the image');
  return found.data;
}

/** The suite at one screen size; each size's file runs it, so that the sizes run side by side. */
export function twoStepSignIn(viewport: Viewport): void {
  describe(`two-step sign-in at ${viewport.name} size`, () => {
    let env: Env;
    let ctx: BrowserContext;
    let page: Page;
    const email = `totp.${viewport.name}.${Date.now().toString(36)}@example.test`;

    beforeAll(async () => {
      env = await startEnv(`admin.${email}`);
      ctx = await newContext(env, viewport);
      page = await ctx.newPage();
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
      const res = await fetch(`${env.url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD, name: 'Tove', lang: 'en' }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(900);
    });
    afterAll(async () => {
      await env?.close();
    });
    // A failed step leaves a picture of where it stood.
    afterEach((context) => screenshotIfFailed(context, { [`${viewport.name}-totp`]: page }));

    it('enables TOTP from the QR code, signs in again with a code and sees it in the security log', async () => {
      await page.goto('/login');
      await signIn(page, email, PASSWORD);
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Set up' }).click();
      await page.getByTestId('totp-qr').waitFor();
      await checkScreen(page, viewport, 'totp-01-setup');

      // What a phone's camera reads: the otpauth:// URI, whose secret is the one shown as text.
      const uri = await scanQr(page);
      const parsed = new URL(uri);
      expect(parsed.protocol).toBe('otpauth:');
      expect(parsed.host).toBe('totp');
      expect(decodeURIComponent(parsed.pathname)).toBe(`/Till:${email}`);
      const secret = parsed.searchParams.get('secret') ?? '';
      const shown = (await page.getByTestId('totp-secret').textContent())?.replace(/\s+/g, '');
      expect(shown).toBe(secret);
      // A phone cannot scan its own screen: it opens the authenticator app with the same URI instead.
      // (A wide screen, which a phone can scan, leaves it out.)
      const open = page.locator('a[href^="otpauth:"]');
      expect(await open.getAttribute('href')).toBe(uri);
      expect(await open.isVisible()).toBe(viewport.name === 'phone');
      if (viewport.name === 'phone') await page.getByRole('link', { name: 'Open in your authenticator app' }).waitFor();
      // Beside the key, a button copies it (without the spaces it is shown with).
      await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.getByRole('button', { name: 'Copy the key' }).click();
      await waitForText(page, 'The key is copied.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

      const totp = new TOTP({ secret: Secret.fromBase32(secret) });
      const section = page.getByRole('region', { name: 'Two-step sign-in' });
      await fill(section, /^Six-digit code/, totp.generate());
      await fill(section, /^Current password/, PASSWORD);
      await section.getByRole('button', { name: 'Turn on' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      expect(await codes.getByRole('listitem').count()).toBe(10);
      await checkScreen(page, viewport, 'totp-02-recovery-codes');
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await waitForText(page, /Two-step sign-in is on since/);

      await signOut(page);
      await page.goto('/login');
      await signIn(page, email, PASSWORD);
      await field2(page).waitFor();
      await checkScreen(page, viewport, 'totp-03-second-step');
      // The code the setup used is spent; the next step's code is within the window and new.
      await fill(page, /^Six-digit code/, totp.generate({ timestamp: Date.now() + 30_000 }));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));

      await page.goto('/profile');
      const log = page.getByRole('list', { name: 'Security log' });
      await log.waitFor();
      await log.getByText('Signed in with authenticator code').first().waitFor();
      expect(await log.getByText('Two-step sign-in turned on').count()).toBe(1);
      await log.getByText('Signed in with authenticator code').first().scrollIntoViewIfNeeded();
      await checkScreen(page, viewport, 'totp-04-security-log');
    });
  });
}

function field2(page: Page) {
  return page.getByLabel(/^Six-digit code/);
}
