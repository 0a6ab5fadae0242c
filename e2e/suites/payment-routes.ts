import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addToCartFromCatalog, signIn, waitForText } from '../support/flows.js';
import {
  checkScreen,
  mailedToken,
  newContext,
  PASSWORD,
  screensDir,
  startEnv,
  type Env,
  screenshotIfFailed,
  type Viewport,
} from '../support/env.js';

const FRAME = 'iframe[title="Paymentwall payment page"]';

/** The suite at one screen size; each size's file runs it, so that the sizes run side by side. */
export function paymentRoutes(viewport: Viewport): void {
  describe(`payment routes at ${viewport.name} size`, () => {
    let env: Env;
    let ctx: BrowserContext;
    let page: Page;
    const tag = `${viewport.name}${Date.now().toString(36)}`;
    const buyer = `routes.${tag}@example.test`;
    let stripeOrigin = '';
    let widgetOrigin = '';

    beforeAll(async () => {
      env = await startEnv(`admin.${tag}@example.test`, { providers: true });
      stripeOrigin = new URL(env.stripe?.url ?? '').origin;
      widgetOrigin = new URL(env.paymentwall?.widgetBaseUrl ?? '').origin;
      const reg = await env.app.call('/api/register', { email: buyer, password: PASSWORD, name: 'Rita', lang: 'en' });
      expect(reg.code).toBe(900);
      const token = await mailedToken(env, buyer, /Confirm your e-mail/, 'confirm');
      expect((await env.app.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json().code).toBe(900);
      // The app's own content security policy stays on: the server allows the widget's origin in
      // `frame-src` because the payment wall is on.
      ctx = await newContext(env, viewport, 'block');
      page = await ctx.newPage();
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
      await page.goto('/login');
      await signIn(page, buyer, PASSWORD);
      await page.waitForURL((u) => u.pathname === '/');
    });
    afterAll(async () => {
      await env?.close();
    });
    afterEach((context) => screenshotIfFailed(context, { [viewport.name]: page }));

    /** Puts one pack of 100 credits in the cart and opens the checkout with that route chosen. */
    async function checkoutWith(route: string): Promise<void> {
      await addToCartFromCatalog(page, '100 credits');
      await page.goto('/checkout');
      await page.getByRole('radio', { name: route }).check();
    }

    it('offers every route that is on, each with what happens next', async () => {
      await checkoutWith('Card (Stripe)');
      for (const name of ['Card (Stripe)', 'Paymentwall', 'Sandbox checkout']) {
        await page.getByRole('radio', { name }).waitFor();
      }
      await waitForText(page, "You'll pay by card on Stripe's secure page and come back here.");
      await waitForText(page, 'Pay with Paymentwall (cards, wallets and local methods).');
      await checkScreen(page, viewport, 'p1-checkout-routes');
    });

    it("pays by card on Stripe's page, comes back and sees the order turn paid", async () => {
      // The cart of the test before holds the pack already.
      await page.goto('/checkout');
      await page.getByRole('radio', { name: 'Card (Stripe)' }).check();
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      await page.waitForURL((u) => u.origin === stripeOrigin && u.pathname.startsWith('/c/pay/'), { timeout: 60_000 });
      // The provider's page is not the app's: kept as a picture, not checked with axe.
      await page.screenshot({ path: `${screensDir}/${viewport.name}-p2-stripe-page.png` });
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.waitForURL((u) => u.origin === env.url && /^\/orders\/[^/]+$/.test(u.pathname), { timeout: 60_000 });
      await waitForText(page, 'Paid. You now have:', 60_000);
      await waitForText(page, '100 credits: 100 credits added');
      await checkScreen(page, viewport, 'p3-card-paid');
      // Paid: the cart it was checked out from is empty now.
      await page.getByRole('link', { name: 'Cart, 0 items' }).waitFor();
      // Paid with the route chosen.
      await page.locator('dd', { hasText: 'Card (Stripe)' }).waitFor();
    });

    it(
      viewport.name === 'desktop'
        ? 'pays on Paymentwall in a frame over the order page, which closes once the order is paid'
        : "pays on Paymentwall's page of its own and comes back to the order turning paid",
      async () => {
        await checkoutWith('Paymentwall');
        await page.getByRole('button', { name: 'Buy', exact: true }).click();
        if (viewport.name === 'desktop') {
          await page.waitForURL(/\/orders\/[^/]+$/, { timeout: 60_000 });
          const dialog = page.getByRole('dialog', { name: 'Pay with Paymentwall' });
          await dialog.waitFor();
          const widget = page.frameLocator(FRAME);
          await widget.getByRole('button', { name: 'Pay', exact: true }).waitFor();
          await checkScreen(page, viewport, 'p4-paywall-frame', { exclude: [FRAME] });
          // Behind the frame (hidden from assistive technology while it is open) the cart still holds the pack.
          await page.getByRole('link', { name: 'Cart, 1 items', includeHidden: true }).waitFor({ state: 'attached' });
          await widget.getByRole('button', { name: 'Pay', exact: true }).click();
          // The pingback makes the order paid; the poller sees it and the frame goes.
          await dialog.waitFor({ state: 'detached', timeout: 60_000 });
        } else {
          await page.waitForURL((u) => u.origin === widgetOrigin, { timeout: 60_000 });
          await page.screenshot({ path: `${screensDir}/${viewport.name}-p4-paywall-page.png` });
          await page.getByRole('button', { name: 'Pay', exact: true }).click();
          await page.waitForURL((u) => u.origin === env.url && /^\/orders\/[^/]+$/.test(u.pathname), {
            timeout: 60_000,
          });
        }
        await waitForText(page, 'Paid. You now have:', 60_000);
        await waitForText(page, '100 credits: 100 credits added');
        await checkScreen(page, viewport, 'p5-paywall-paid');
        await page.getByRole('link', { name: 'Cart, 0 items' }).waitFor();
        expect(env.paymentwall?.pingbacks.at(-1)?.body).toBe('OK');
      },
    );

    it('keeps the cart when Paymentwall declines, and pays the open order another way', async () => {
      await checkoutWith('Paymentwall');
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      if (viewport.name === 'desktop') {
        await page.waitForURL(/\/orders\/[^/]+$/, { timeout: 60_000 });
        await page.getByRole('dialog', { name: 'Pay with Paymentwall' }).waitFor();
        const widget = page.frameLocator(FRAME);
        // A click that lands while the frame is still settling in the opening dialog can be lost: the
        // form is sent again until the widget says it declined.
        await expect
          .poll(
            async () => {
              await widget
                .getByRole('button', { name: 'Decline' })
                .click({ timeout: 5_000 })
                .catch(() => undefined);
              return widget.getByText('Payment declined.').isVisible();
            },
            { timeout: 60_000 },
          )
          .toBe(true);
        await page.getByRole('button', { name: 'Close the payment window' }).click();
        await waitForText(page, /The payment window was closed before the payment was confirmed/);
      } else {
        await page.waitForURL((u) => u.origin === widgetOrigin, { timeout: 60_000 });
        const iden = new URL(page.url()).searchParams.get('ag_external_id') ?? '';
        await page.getByRole('button', { name: 'Decline' }).click();
        await page.getByText('Payment declined.').waitFor();
        // Declined on the provider's page: the buyer comes back to the order by hand.
        await page.goto(`/orders/${encodeURIComponent(iden)}`);
      }
      await waitForText(page, /This order is not paid yet\. Pay now to get it, or cancel it/);
      await checkScreen(page, viewport, 'p6-order-pending');
      await page.getByRole('link', { name: 'Cart, 1 items' }).waitFor();

      await page.getByRole('button', { name: 'Pay another way' }).click();
      await page.getByRole('radio', { name: 'Card (Stripe)' }).check();
      await checkScreen(page, viewport, 'p7-order-other-route');
      await page.getByRole('button', { name: 'Pay with Card (Stripe)' }).click();
      await page.waitForURL((u) => u.origin === stripeOrigin, { timeout: 60_000 });
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await waitForText(page, 'Paid. You now have:', 60_000);
      await page.getByRole('link', { name: 'Cart, 0 items' }).waitFor();
    });
  });
}
