import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { addToCartFromCatalog, signIn, waitForText } from '../support/flows.js';
import {
  checkScreen,
  newContext,
  PASSWORD,
  screenshotIfFailed,
  startEnv,
  webDist,
  type Env,
  type Viewport,
} from '../support/env.js';

/**
 * The account's sessions and the screens that used to end nowhere, at one screen size: one chosen
 * session signed out from another device, an unknown product and an empty checkout that lead back
 * to the store, the sandbox payment page's way out, and the dev mailbox on a phone. Each screen is
 * checked with axe and for sideways scrolling.
 */
export function waysOut(viewport: Viewport): void {
  describe(`sessions and ways out at ${viewport.name} size`, () => {
    let env: Env;
    let laptop: BrowserContext;
    let lp: Page;
    let phone: BrowserContext;
    let pp: Page;
    const tag = `${viewport.name}${Date.now().toString(36)}`;
    const email = `wanda.${tag}@example.test`;

    async function signedInPage(ctx: BrowserContext): Promise<Page> {
      const page = await ctx.newPage();
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
      await page.goto('/login');
      await signIn(page, email, PASSWORD);
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      return page;
    }

    beforeAll(async () => {
      env = await startEnv(`admin.${email}`);
      const reg = await env.app.call('/api/register', { email, password: PASSWORD, name: 'Wanda', lang: 'en' });
      expect(reg.code).toBe(900);
      // Two sign-ins from the same browser: only "this device", the time and the address tell them apart.
      laptop = await newContext(env, viewport);
      lp = await signedInPage(laptop);
      phone = await newContext(env, viewport);
      pp = await signedInPage(phone);
    });
    afterAll(async () => {
      await laptop?.close();
      await phone?.close();
      await env?.close();
    });
    afterEach((context) =>
      screenshotIfFailed(context, { [`${viewport.name}-laptop`]: lp, [`${viewport.name}-phone`]: pp }),
    );

    it('names each session as a person reads it and signs out one chosen other session', async () => {
      await lp.goto('/profile');
      const list = lp.getByRole('list', { name: 'Sessions' });
      await list.getByText('This device').waitFor();
      // The register call's session, and the two browsers'.
      await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
      await list
        .getByText(/^Chrome \d+ on Linux, last used this minute$/)
        .first()
        .waitFor();
      expect(await list.getByText(/Mozilla\/5\.0|AppleWebKit/).count()).toBe(0);
      await list
        .getByText(/^Since .+ · \S+$/)
        .first()
        .waitFor();
      const others = list.getByRole('button', { name: /^Sign out Chrome \d+ on Linux \(signed in / });
      expect(await others.count()).toBe(1);
      await checkScreen(lp, viewport, 'w01-sessions');
      const box = await others.first().boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(viewport.width);

      // The unknown device (the register call) goes first; then the other browser.
      await list.getByRole('button', { name: /^Sign out Unknown device/ }).click();
      await waitForText(lp, 'Signed out on Unknown device.');
      await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
      await others.first().click();
      await waitForText(lp, /^Signed out on Chrome \d+ on Linux\.$/);
      await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
      await list.getByText('This device').waitFor();
      await checkScreen(lp, viewport, 'w02-session-ended');

      // The other browser is signed out; this one is not.
      await pp.goto('/credits');
      await pp.waitForURL(/\/login\?/);
      await waitForText(pp, /Your session has ended/);
      await lp.goto('/credits');
      await lp.getByTestId('credit-balance').waitFor();
    });

    it('leads from an unknown product and from an empty checkout back to the store', async () => {
      await lp.goto('/products/no-such-product');
      await waitForText(lp, 'This product does not exist.');
      await checkScreen(lp, viewport, 'w03-unknown-product');
      await lp.getByRole('link', { name: 'Back to the store' }).click();
      await lp.waitForURL((url) => url.pathname === '/');
      await lp.getByRole('heading', { name: 'Store' }).waitFor();

      await lp.goto('/checkout');
      await waitForText(lp, 'Your cart is empty.');
      await checkScreen(lp, viewport, 'w04-empty-checkout');
      await lp.getByRole('link', { name: 'Browse the store' }).click();
      await lp.waitForURL((url) => url.pathname === '/');
      await lp.getByRole('heading', { name: 'Store' }).waitFor();
    });

    it("gives the order up by the sandbox page's way out, and the order shows it cancelled", async () => {
      await addToCartFromCatalog(lp, '100 credits');
      await lp.goto('/checkout');
      await lp.getByRole('radio', { name: /Sandbox checkout/ }).check();
      await lp.getByRole('button', { name: 'Buy', exact: true }).click();
      await lp.waitForURL(/\/api\/pay\/default\//, { timeout: 60_000 });
      const leave = lp.getByRole('button', { name: 'Cancel the payment and return to your order' });
      await leave.waitFor();
      await checkScreen(lp, viewport, 'w05-sandbox-page');
      await leave.click();
      await lp.waitForURL(/\/orders\/[^/]+$/);
      await waitForText(lp, 'You cancelled this order. Nothing was charged.');
      const iden = decodeURIComponent(new URL(lp.url()).pathname.split('/').pop() ?? '');
      const token = await lp.evaluate(() => JSON.parse(localStorage.getItem('till.session') ?? '{}').token as string);
      const status = await env.app.call('/api/store/orderStatus', { token, iden });
      expect((status.data as { order: { status: string } }).order.status).toBe('cancelled');
    });

    it('shows the dev mailbox readably at this size', async () => {
      // Without SMTP_URL the server keeps mail in its dev outbox.
      let app: TestApp | undefined;
      const ctx = await newContext(env, viewport);
      try {
        app = await startTestApp({ listen: true, config: { webDist } });
        const long = `mailbox.${'very-long-part.'.repeat(4)}${tag}@example.test`;
        expect(
          (await app.call('/api/register', { email: long, password: PASSWORD, name: 'Max', lang: 'en' })).code,
        ).toBe(900);
        const page = await ctx.newPage();
        await page.goto(`${app.url}/dev/mail`);
        await page.getByRole('heading', { name: 'Confirm your e-mail for Till' }).waitFor();
        await checkScreen(page, viewport, 'w06-dev-mailbox');
      } finally {
        await ctx.close();
        await app?.close();
      }
    });
  });
}
