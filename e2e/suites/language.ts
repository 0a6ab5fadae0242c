import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage, fill, signIn, waitForText } from '../support/flows.js';
import {
  checkScreen,
  newContext,
  PASSWORD,
  startEnv,
  type Env,
  screenshotIfFailed,
  type Viewport,
} from '../support/env.js';

/**
 * One language for a buyer: the language chosen in the app's bar is the account's (the next
 * sign-in on another device, and the reset mail, come in it), and product titles follow it on
 * every screen that shows them: catalog, cart, checkout, the sandbox payment page and the order.
 */
export function language(viewport: Viewport): void {
  describe(`one language at ${viewport.name} size`, () => {
    let env: Env;
    let ctx: BrowserContext;
    let page: Page;
    let other: BrowserContext | undefined;
    let otherPage: Page | undefined;
    const tag = `${viewport.name}${Date.now().toString(36)}`;
    const buyer = `language.${tag}@example.test`;

    /** The account's language as the server keeps it. */
    const savedLanguage = async () => {
      const login = await env.app.call('/api/login', { email: buyer, password: PASSWORD });
      const info = await env.app.call('/api/auth/getUserInfo', { token: login.token as string });
      await env.app.call('/api/auth/logout', { token: login.token as string });
      return (info.user as { lang: string }).lang;
    };

    beforeAll(async () => {
      env = await startEnv(`admin.${tag}@example.test`);
      const reg = await env.app.call('/api/register', { email: buyer, password: PASSWORD, name: 'Lena', lang: 'en' });
      expect(reg.code).toBe(900);
      await env.smtp.next(buyer, /Confirm your e-mail/);
      ctx = await newContext(env, viewport);
      page = await ctx.newPage();
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
      await page.goto('/login');
      await signIn(page, buyer, PASSWORD);
      await page.getByRole('button', { name: 'Account of Lena' }).waitFor();
    });
    afterAll(async () => {
      await env?.close();
    });
    afterEach((context) => screenshotIfFailed(context, { [`${viewport.name}-lang`]: page, other: otherPage }));

    it('keeps German chosen in the bar with the account: profile, next sign-in elsewhere, reset mail', async () => {
      expect(await savedLanguage()).toBe('en');
      await chooseLanguage(page, 'Language', 'Deutsch');
      await page.getByRole('button', { name: 'Konto von Lena' }).waitFor();
      // The profile says what the app shows.
      await page.goto('/profile');
      await page.getByRole('heading', { name: 'Profil', level: 1 }).waitFor();
      await page
        .getByRole('combobox', { name: /Sprache/ })
        .filter({ hasText: 'Deutsch' })
        .waitFor();
      expect(await savedLanguage()).toBe('de');
      await checkScreen(page, viewport, 'l01-profile-german');

      // Another device, in English until the account is known: signing in brings German.
      other = await newContext(env, viewport);
      otherPage = await other.newPage();
      await otherPage.goto('/login');
      await signIn(otherPage, buyer, PASSWORD);
      await otherPage.getByRole('button', { name: 'Konto von Lena' }).waitFor();
      expect(await otherPage.evaluate(() => document.documentElement.lang)).toBe('de');
      await otherPage.getByRole('button', { name: 'Konto von Lena' }).click();
      await otherPage.getByRole('menuitem', { name: 'Abmelden' }).click();
      await otherPage.getByRole('banner').getByRole('link', { name: 'Anmelden' }).waitFor();

      // The reset link, asked for from an English page, still comes in the account's German.
      await chooseLanguage(otherPage, 'Sprache', 'English', false);
      await otherPage.goto('/forgot');
      await fill(otherPage, 'E-mail', buyer);
      await otherPage.getByRole('button', { name: 'Send the link' }).click();
      const mail = await env.smtp.next(buyer, /Passwort|password/i, 60_000);
      expect(mail.subject).toBe('Setze dein Till-Passwort zurück');
      expect(mail.text).toContain('Hallo Lena');
    });

    it('shows product titles in German in the catalog, cart, checkout, payment page and order, then in English', async () => {
      await page.goto('/');
      await page.getByRole('button', { name: 'In den Warenkorb: Pro freischalten' }).click();
      await page.goto('/cart');
      await page.getByRole('list', { name: 'Artikel im Warenkorb' }).getByText('Pro freischalten').waitFor();
      expect(await page.getByText('Pro unlock').count()).toBe(0);
      await page.goto('/checkout');
      const summary = page.getByRole('region', { name: 'Bestellübersicht' });
      await summary.getByText('Pro freischalten').waitFor();
      expect(await page.getByText('Pro unlock').count()).toBe(0);
      await checkScreen(page, viewport, 'l02-checkout-german');

      await page.getByRole('radio', { name: /Sandbox-Kasse/ }).check();
      await page.getByRole('button', { name: 'Kaufen', exact: true }).click();
      await page.waitForURL(/\/api\/pay\/default\//);
      await page.getByRole('cell', { name: 'Pro freischalten' }).waitFor();
      expect(await page.getByText('Pro unlock').count()).toBe(0);
      await page.getByRole('button', { name: /bezahlen$/ }).click();
      await page.waitForURL(/\/orders\/[^/]+$/);
      await waitForText(page, 'Bezahlt. Du hast jetzt:');
      await page
        .getByText(/Pro freischalten/)
        .first()
        .waitFor();
      expect(await page.getByText(/Pro unlock/).count()).toBe(0);
      await checkScreen(page, viewport, 'l03-order-german');

      // Back to English: the same order speaks English, and so does the account.
      await chooseLanguage(page, 'Sprache', 'English');
      await waitForText(page, 'Paid. You now have:');
      await page
        .getByText(/Pro unlock/)
        .first()
        .waitFor();
      expect(await page.getByText(/Pro freischalten/).count()).toBe(0);
      await page.goto('/orders');
      await page
        .getByText(/Pro unlock/)
        .first()
        .waitFor();
      expect(await page.getByText(/Pro freischalten/).count()).toBe(0);
      expect(await savedLanguage()).toBe('en');
    });

    it("shows the buyer's main pages in German, each axe-clean: store, product, cart, checkout, orders, order, credits, profile", async () => {
      await page.goto('/');
      await chooseLanguage(page, 'Language', 'Deutsch');
      await page.getByRole('list', { name: 'Produkte' }).waitFor();
      await checkScreen(page, viewport, 'l04-store-de');
      await page.goto('/products/monthly');
      await page.getByRole('heading', { name: 'Monatsabo', level: 1 }).waitFor();
      await checkScreen(page, viewport, 'l05-product-de');
      await page.goto('/');
      await page.getByRole('button', { name: 'In den Warenkorb: 100 Credits' }).click();
      await page.goto('/cart');
      await page.getByRole('list', { name: 'Artikel im Warenkorb' }).getByText('100 Credits').waitFor();
      await checkScreen(page, viewport, 'l06-cart-de');
      await page.goto('/checkout');
      await page.getByRole('region', { name: 'Bestellübersicht' }).getByText('100 Credits').waitFor();
      await checkScreen(page, viewport, 'l07-checkout-de');
      await page.goto('/orders');
      const orders = page.getByRole('list', { name: 'Bestellungen' });
      await orders.getByText(/Pro freischalten/).waitFor();
      await checkScreen(page, viewport, 'l08-orders-de');
      await orders.getByRole('link').first().click();
      await page.waitForURL(/\/orders\/[^/]+$/);
      await waitForText(page, 'Bezahlt. Du hast jetzt:');
      await checkScreen(page, viewport, 'l09-order-de');
      await page.goto('/credits');
      await page.getByRole('heading', { name: 'Credits', level: 1 }).waitFor();
      await checkScreen(page, viewport, 'l10-credits-de');
      await page.goto('/profile');
      await page.getByRole('heading', { name: 'Profil', level: 1 }).waitFor();
      await checkScreen(page, viewport, 'l11-profile-de');
      await chooseLanguage(page, 'Sprache', 'English');
    });
  });
}
