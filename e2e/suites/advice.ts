import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage, fill, waitForText } from '../support/flows.js';
import {
  checkScreen,
  newContext,
  PASSWORD,
  startEnv,
  type Env,
  screenshotIfFailed,
  type Viewport,
} from '../support/env.js';

/** What the buyer reads and presses, in each language. */
const WORDS = {
  en: {
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    account: 'Account of Kim',
    addMonthly: 'Add to cart: Monthly subscription',
    coupon: 'Coupon code',
    apply: 'Apply',
    redeem: 'Redeem',
    grantAtCheckout: 'This code gives credits or products, not a discount',
    redeemThere: 'Redeem FREE100 on the Credits page',
    redeemed: 'Redeemed: 100 credits added.',
    discountHere: 'This is a discount code',
    useAtCheckout: 'Use WELCOME10 at checkout',
    percentOff: '10% off',
    confirmBad: 'This confirmation link has expired or was already used',
    signInForLink: 'Sign in to get a new link',
    newLink: 'Send a new link',
    resent: 'Sent again.',
    confirmMail: /Confirm your e-mail/,
    newPassword: 'New password',
    repeat: 'Repeat the password',
    setPassword: 'Set the password',
    resetBad: 'This link to choose a new password has expired or was already used',
    forgotTitle: 'Forgot password',
  },
  de: {
    email: 'E-Mail',
    password: 'Passwort',
    signIn: 'Anmelden',
    account: 'Konto von Kim',
    addMonthly: 'In den Warenkorb: Monatsabo',
    coupon: 'Gutscheincode',
    apply: 'Einlösen',
    redeem: 'Einlösen',
    grantAtCheckout: 'Dieser Code gibt Credits oder Produkte, keinen Rabatt',
    redeemThere: 'FREE100 auf der Credits-Seite einlösen',
    redeemed: 'Eingelöst: 100 Credits gutgeschrieben.',
    discountHere: 'Das ist ein Rabattcode',
    useAtCheckout: 'WELCOME10 an der Kasse verwenden',
    percentOff: '10 % Rabatt',
    confirmBad: 'Dieser Bestätigungslink ist abgelaufen oder wurde schon benutzt',
    signInForLink: 'Anmelden, um einen neuen Link zu bekommen',
    newLink: 'Neuen Link senden',
    resent: 'Erneut gesendet.',
    confirmMail: /Bestätige deine E-Mail-Adresse/,
    newPassword: 'Neues Passwort',
    repeat: 'Passwort wiederholen',
    setPassword: 'Passwort setzen',
    resetBad: 'Dieser Link für ein neues Passwort ist abgelaufen oder wurde schon benutzt',
    forgotTitle: 'Passwort vergessen',
  },
} as const;

/**
 * Advice that leads somewhere: a coupon given where it does not work says where it does and links
 * there with the code filled in, and a confirmation or reset link that no longer works says why and
 * offers a new one. In English and in German, each language with a buyer registered in it.
 */
export function advice(viewport: Viewport): void {
  describe.each(['en', 'de'] as const)(`advice at ${viewport.name} size in %s`, (lang) => {
    const w = WORDS[lang];
    let env: Env;
    let ctx: BrowserContext;
    let page: Page;
    const tag = `${viewport.name}${lang}${Date.now().toString(36)}`;
    const buyer = `advice.${tag}@example.test`;

    beforeAll(async () => {
      env = await startEnv(`admin.${tag}@example.test`);
      const reg = await env.app.call('/api/register', { email: buyer, password: PASSWORD, name: 'Kim', lang });
      expect(reg.code).toBe(900);
      await env.smtp.next(buyer, w.confirmMail);
      ctx = await newContext(env, viewport);
      page = await ctx.newPage();
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
      await page.goto('/');
      if (lang === 'de') await chooseLanguage(page, 'Language', 'Deutsch', false);
    });
    afterAll(async () => {
      await env?.close();
    });
    afterEach((context) => screenshotIfFailed(context, { [`${viewport.name}-advice-${lang}`]: page }));

    it('offers a new confirmation link for a broken one: through sign-in, then sent', async () => {
      await page.goto('/confirm/not-a-token-that-was-ever-sent-00000000000');
      await waitForText(page, w.confirmBad);
      await page.getByRole('link', { name: w.signInForLink }).click();
      await fill(page, w.email, buyer);
      await fill(page, w.password, PASSWORD);
      await page.getByRole('button', { name: w.signIn, exact: true }).last().click();
      // Signed in, back on the link's page, the new link is one press away.
      await page.getByRole('button', { name: w.account }).waitFor();
      await waitForText(page, w.confirmBad);
      await checkScreen(page, viewport, `a01-confirm-bad-link-${lang}`);
      await page.getByRole('button', { name: w.newLink }).click();
      await waitForText(page, w.resent);
      // The new link comes in the account's language, and it confirms.
      const mail = await env.smtp.next(buyer, w.confirmMail, 60_000);
      const token = /\/confirm\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1] ?? '';
      expect(token).not.toBe('');
    });

    it('sends a credit coupon given at checkout to the Credits page, and a discount code given there to checkout', async () => {
      await page.goto('/');
      await page.getByRole('button', { name: w.addMonthly }).click();
      await page.goto('/checkout');
      await fill(page, w.coupon, 'FREE100');
      await page.getByRole('button', { name: w.apply, exact: true }).click();
      await waitForText(page, w.grantAtCheckout);
      await checkScreen(page, viewport, `a02-grant-coupon-at-checkout-${lang}`);
      await page.getByRole('link', { name: w.redeemThere }).click();
      await page.waitForURL((u) => u.pathname === '/credits');
      expect(await page.getByLabel(w.coupon).inputValue()).toBe('FREE100');
      await page.getByRole('button', { name: w.redeem, exact: true }).click();
      await waitForText(page, w.redeemed);

      await fill(page, w.coupon, 'welcome10');
      await page.getByRole('button', { name: w.redeem, exact: true }).click();
      await waitForText(page, w.discountHere);
      await checkScreen(page, viewport, `a03-discount-on-credits-${lang}`);
      await page.getByRole('link', { name: w.useAtCheckout }).click();
      await page.waitForURL((u) => u.pathname === '/checkout');
      // The code is applied on arrival.
      await waitForText(page, w.percentOff);
    });

    it('explains a reset link that no longer works and leads to asking for a new one', async () => {
      await page.goto('/reset/not-a-token-that-was-ever-sent-00000000000');
      await fill(page, w.newPassword, 'a brand new passphrase');
      await fill(page, w.repeat, 'a brand new passphrase');
      await page.getByRole('button', { name: w.setPassword }).click();
      await waitForText(page, w.resetBad);
      await checkScreen(page, viewport, `a04-reset-bad-link-${lang}`);
      await page.getByRole('link', { name: w.newLink }).click();
      await page.waitForURL((u) => u.pathname === '/forgot');
      await page.getByRole('heading', { name: w.forgotTitle, level: 1 }).waitFor();
    });
  });
}
