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
    // Carried from the first test to the next: the secret and the codes shown at enabling.
    let secret = '';
    let firstCodes: string[] = [];
    // The server's clock: a test moves it on by a time step where a person would wait for the next code.
    let ahead = 0;
    const serverNow = () => Date.now() + ahead;

    beforeAll(async () => {
      env = await startEnv(`admin.${email}`, { now: serverNow });
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
      secret = parsed.searchParams.get('secret') ?? '';
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
      await fill(section, /^Six-digit code/, totp.generate({ timestamp: serverNow() }));
      await fill(section, /^Current password/, PASSWORD);
      await section.getByRole('button', { name: 'Turn on' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      expect(await codes.getByRole('listitem').count()).toBe(10);
      firstCodes = (await codes.getByRole('listitem').allTextContents()).map((c) => c.trim());
      await checkScreen(page, viewport, 'totp-02-recovery-codes');
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await waitForText(page, /Two-step sign-in is on since/);

      await signOut(page);
      await page.goto('/login');
      await signIn(page, email, PASSWORD);
      await field2(page).waitFor();
      await checkScreen(page, viewport, 'totp-03-second-step');
      // The code the setup used is spent; the next step's code is within the window and new.
      await fill(page, /^Six-digit code/, totp.generate({ timestamp: serverNow() + 30_000 }));
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

    it('makes new recovery codes after a confirmation and a step-up; the old ones no longer sign in', async () => {
      // This session signed in with a code and proved nothing since: the server asks for a step-up.
      await page.goto('/profile');
      const section = page.getByRole('region', { name: 'Two-step sign-in' });
      await section.getByRole('button', { name: 'New recovery codes' }).click();
      const confirm = page.getByRole('dialog', { name: 'Make new recovery codes?' });
      await confirm.waitFor();
      await checkScreen(page, viewport, 'totp-05-renew-confirm');
      await confirm.getByRole('button', { name: 'Make new codes' }).click();
      const ask = page.getByRole('dialog', { name: "Confirm it's you" });
      await ask.waitFor();
      await fill(ask, 'Password', PASSWORD);
      // The sign-in spent the code of the step after the server's, and a code is taken only for a later
      // step than the last one used: the server's clock moves on by a step (where a person would wait for
      // the next code), so that the step after that is within the window and new to the server.
      ahead += 30_000;
      const totp = new TOTP({ secret: Secret.fromBase32(secret) });
      await fill(ask, 'Code from your authenticator app', totp.generate({ timestamp: serverNow() + 30_000 }));
      await ask.getByRole('button', { name: 'Confirm' }).click();

      const codes = page.getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      await waitForText(page, /These are your new recovery codes; the old ones no longer work/);
      const fresh = (await codes.getByRole('listitem').allTextContents()).map((c) => c.trim());
      expect(fresh).toHaveLength(10);
      expect(fresh.some((c) => firstCodes.includes(c))).toBe(false);
      await checkScreen(page, viewport, 'totp-06-new-codes');
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await waitForText(page, '10 recovery codes left.');
      const log = page.getByRole('list', { name: 'Security log' });
      await log.getByText('New recovery codes made; the old ones no longer work').first().waitFor();
      expect(await log.getByText('New recovery codes made; the old ones no longer work').count()).toBe(1);

      await signOut(page);
      await page.goto('/login');
      await signIn(page, email, PASSWORD);
      await field2(page).waitFor();
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await fill(page, /^Recovery code/, firstCodes[1] ?? '');
      await page.getByRole('button', { name: 'Verify' }).click();
      await waitForText(page, 'This recovery code is not right or was already used.');
      await fill(page, /^Recovery code/, fresh[0] ?? '');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    });
  });
}

function field2(page: Page) {
  return page.getByLabel(/^Six-digit code/);
}
