import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@till/protocol';
import { DefaultProvider } from '@till/server/testing';
import { anAdmin, giveCredits } from '@till/test-support/store';
import { addToCartFromCatalog, buyWithDefault, payOnSandbox, signIn, waitForText } from '../support/flows.js';
import {
  checkScreen,
  newContext,
  PASSWORD,
  screenshotIfFailed,
  startEnv,
  type Env,
  type Viewport,
} from '../support/env.js';

/**
 * A buyer's orders as figures that add up, at phone and desktop size, in English and German: each
 * line's unit price and amount over the subtotal and total, an order paid with credits in credits,
 * a declined payment that leaves the cart as it was, refunds (partly, then whole) on the order
 * list and the order page, and a subscription that says when it renews or ends, stopped from renewing.
 */
export function orders(viewport: Viewport): void {
  describe(`the buyer's orders at ${viewport.name} size`, () => {
    let env: Env;
    let ctx: BrowserContext;
    let page: Page;
    let german: Page | undefined;
    let subscriber: Page | undefined;
    const tag = `${viewport.name}${Date.now().toString(36)}`;
    let buyerId = '';
    let packsOrder = '';

    /** Registers a buyer with the given interface language; answers the id and a session token. */
    async function register(email: string, name: string, lang: string) {
      const reg = await env.app.call('/api/register', { email, password: PASSWORD, name, lang });
      expect(reg.code).toBe(900);
      return { id: (reg.user as { id: string }).id, token: reg.token as string };
    }
    /** An administrator's refund: part of the money only, or (no amount) the whole order. */
    async function refund(iden: string, amount?: number) {
      const { token } = await anAdmin(env.app);
      const res = await env.app.call('/api/admin/orders/refund', {
        token,
        iden,
        ...(amount ? { amount, keepGrants: true } : {}),
      });
      expect(res.code).toBe(900);
    }

    beforeAll(async () => {
      // The card route on (a local Stripe fake), for a subscription that renews until stopped.
      env = await startEnv(`admin.${tag}@example.test`, { providers: true });
      const email = `orders.${tag}@example.test`;
      buyerId = (await register(email, 'Olga Orders', 'en')).id;
      await giveCredits(env.app, buyerId, 1_000);
      ctx = await newContext(env, viewport);
      page = await ctx.newPage();
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
      await page.goto('/login');
      await signIn(page, email, PASSWORD);
      await page.getByRole('button', { name: /^Account of Olga Orders/ }).waitFor();
    });
    afterAll(async () => {
      await env?.close();
    });
    afterEach((context) =>
      screenshotIfFailed(context, {
        [`${viewport.name}-orders`]: page,
        [`${viewport.name}-orders-de`]: german,
        [`${viewport.name}-orders-sub`]: subscriber,
      }),
    );

    it('shows each line with its unit price and amount, a subtotal that adds up, and what two packs gave', async () => {
      await addToCartFromCatalog(page, '100 credits');
      await page.getByRole('button', { name: 'Add to cart: 100 credits' }).click();
      await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
      await page.goto('/checkout');
      await buyWithDefault(page);
      packsOrder = await payOnSandbox(page);
      await waitForText(page, '2 × 100 credits: 200 credits added, 100 each');
      const table = page.getByRole('table', { name: 'Items of the order' });
      const line = table.getByTestId('order-line');
      expect(await line.count()).toBe(1);
      // Unit price and amount: the amount is two packs, and the subtotal and total say the same.
      const text = (await table.textContent()) ?? '';
      expect(text).toContain('$1.99');
      expect(text.match(/\$3\.98/g)).toHaveLength(3);
      expect(await page.getByText('(100 credits)').count()).toBe(0);
      await checkScreen(page, viewport, 'o01-order-figures');
    });

    it('shows an order paid with credits in credits only', async () => {
      const session = await env.app.call('/api/login', { email: `orders.${tag}@example.test`, password: PASSWORD });
      const bought = await env.app.call('/api/auth/payWithCredits', {
        token: session.token as string,
        products: JSON.stringify(['monthly']),
      });
      expect(bought.code).toBe(900);
      const iden = (bought.data as { order: Order }).order.iden;
      await page.goto(`/orders/${encodeURIComponent(iden)}`);
      const table = page.getByRole('table', { name: 'Items of the order' });
      await table.getByText('Total in credits').waitFor();
      const text = (await table.textContent()) ?? '';
      expect(text.match(/300 credits/g)?.length).toBeGreaterThanOrEqual(2);
      expect(text).not.toContain('$');
      expect(await page.getByText('Credits spent').count()).toBe(0);
      await checkScreen(page, viewport, 'o02-order-credits');
    });

    it('leaves the cart as it was after a declined payment, and leads back to the checkout', async () => {
      await addToCartFromCatalog(page, '100 credits');
      await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
      await page.goto('/checkout');
      await buyWithDefault(page);
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.waitForURL(/\/orders\/[^/]+$/);
      await waitForText(page, 'Its items are still in your cart: check out again, paying the same way or another.');
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      expect(await page.getByText(/Put its items back in your cart/).count()).toBe(0);
      await checkScreen(page, viewport, 'o03-declined-in-cart');
      await page.getByRole('button', { name: 'Go to checkout' }).click();
      await page.waitForURL((u) => u.pathname === '/checkout');
      await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
    });

    it('marks an order partly refunded, then refunded, with each refund in the list and on the order', async () => {
      await refund(packsOrder, 100);
      await page.goto('/orders');
      const list = page.getByRole('list', { name: 'Orders' });
      const row = list.getByRole('link').filter({ hasText: 'Partly refunded' });
      await row.waitFor();
      await row.getByText(/^\$1\.00 given back on .*\. Money only: you keep what you bought\.$/).waitFor();
      await checkScreen(page, viewport, 'o04-orders-partly-refunded');

      await refund(packsOrder);
      await page.reload();
      const whole = list.getByRole('link').filter({ hasText: 'Refunded' });
      await whole.waitFor();
      await whole.getByText(/^\$2\.98 given back on .*\. Taken back: 2 × 100 credits\.$/).waitFor();
      // The chip is checked by axe here too: 4.5:1 or better.
      await checkScreen(page, viewport, 'o05-orders-refunded');
      await whole.click();
      const refunds = page.getByRole('region', { name: 'Refunds' });
      await refunds.waitFor();
      expect(await refunds.getByRole('listitem').count()).toBe(2);
      await waitForText(page, /This order was refunded/);
      await checkScreen(page, viewport, 'o06-order-refunded');
    });

    it('says it all in German', async () => {
      const email = `bestellt.${tag}@example.test`;
      const buyer = await register(email, 'Greta Gekauft', 'de');
      // Two packs paid through the sandbox as its page pays them, then part of the money given back.
      const made = await env.app.call('/api/store/doCheckout', {
        token: buyer.token,
        products: 'credits-100;credits-100',
      });
      expect(made.code).toBe(900);
      const order = (made.data as { order: Order }).order;
      const note = new DefaultProvider(env.app.ctx.config).signNotification({
        eventId: `evt-${order.iden}`,
        orderId: order.iden,
        outcome: 'paid',
        amount: order.total.amount,
        currency: order.total.currency,
      });
      expect((await env.app.call('/api/payments/notify/default', note)).code).toBe(900);
      await refund(order.iden, 50);

      const de = await newContext(env, viewport);
      german = await de.newPage();
      await german.goto('/login');
      await signIn(german, email, PASSWORD);
      await german.getByRole('button', { name: /Greta Gekauft/ }).waitFor();
      // The account's language is taken once its texts have loaded.
      await german.waitForFunction(() => document.documentElement.lang === 'de');
      await german.goto('/orders');
      const row = german.getByRole('list', { name: 'Bestellungen' }).getByRole('link');
      await row.getByText('Teilweise erstattet').waitFor();
      await row.getByText(/erstattet am .*Nur Geld: Was du gekauft hast, behältst du\.$/).waitFor();
      await checkScreen(german, viewport, 'o07-orders-de');
      await row.click();
      const table = german.getByRole('table', { name: 'Artikel der Bestellung' });
      await table.waitFor();
      await waitForText(german, /^2 × .+: 200 Credits gutgeschrieben, je 100$/);
      await german.getByRole('region', { name: 'Erstattungen' }).waitFor();
      await checkScreen(german, viewport, 'o08-order-de');

      // A subscription paid with credits does not renew: the product page says until when it runs.
      await giveCredits(env.app, buyer.id, 300);
      const sub = await env.app.call('/api/auth/payWithCredits', {
        token: buyer.token,
        products: JSON.stringify(['monthly']),
      });
      expect(sub.code).toBe(900);
      await german.goto('/products/monthly');
      await waitForText(german, /^Du hast es bis .+ abonniert\.$/);
      expect(await german.getByRole('button', { name: 'Kaufen' }).count()).toBe(0);
      await checkScreen(german, viewport, 'o09-product-subscribed-de');
      await de.close();
    });

    it('says when a card subscription renews, on the product page and the order, and stops it renewing', async () => {
      const email = `abo.${tag}@example.test`;
      const buyer = await register(email, 'Sue Scriber', 'en');
      const made = await env.app.call('/api/store/doCheckout', {
        token: buyer.token,
        provider: 'card',
        products: 'monthly',
      });
      expect(made.code).toBe(900);
      const { order, payment } = made.data as { order: Order; payment: { url: string } };
      await env.stripe!.pay(/cs_test_[A-Za-z0-9]+/.exec(payment.url)?.[0] ?? '');
      await env.stripe!.flush();

      const context = await newContext(env, viewport);
      subscriber = await context.newPage();
      await subscriber.goto('/login');
      await signIn(subscriber, email, PASSWORD);
      await subscriber.getByRole('button', { name: /^Account of Sue Scriber/ }).waitFor();
      await subscriber.goto('/products/monthly');
      await waitForText(
        subscriber,
        /^You're subscribed: it renews on .+\. You can stop it renewing from your orders\.$/,
      );
      expect(await subscriber.getByRole('button', { name: 'Buy' }).count()).toBe(0);
      expect(await subscriber.getByRole('button', { name: 'Add to cart' }).count()).toBe(0);
      await checkScreen(subscriber, viewport, 'o10-product-subscribed');
      // The catalog's card says the same, and offers no cart button for it.
      await subscriber.goto('/');
      const card = subscriber
        .getByRole('list', { name: 'Products' })
        .getByRole('listitem')
        .filter({ has: subscriber.getByRole('heading', { name: 'Monthly subscription' }) });
      await card.getByText(/Renews on /).waitFor();
      expect(await card.getByRole('button', { name: /^Add to cart/ }).count()).toBe(0);
      expect(await card.getByRole('link', { name: /^Add to cart/ }).count()).toBe(0);
      await checkScreen(subscriber, viewport, 'o10b-catalog-subscribed');
      await subscriber.goto('/products/monthly');

      await subscriber.getByRole('link', { name: 'Go to your orders' }).click();
      const row = subscriber.getByRole('list', { name: 'Orders' }).getByRole('link');
      await row.getByText(/^Renews on /).waitFor();
      await row.click();
      await subscriber
        .getByTestId('subscription-line')
        .getByText(/^Renews on /)
        .waitFor();
      await checkScreen(subscriber, viewport, 'o11-order-renews');
      await subscriber.getByRole('button', { name: 'Stop renewing' }).click();
      const ask = subscriber.getByRole('dialog', { name: 'Stop renewing this subscription?' });
      await ask.getByText(/is not renewed after that/).waitFor();
      await checkScreen(subscriber, viewport, 'o12-stop-renewing-ask');
      await ask.getByRole('button', { name: 'Stop renewing' }).click();
      await subscriber
        .getByTestId('subscription-line')
        .getByText(/^Subscribed until /)
        .waitFor();
      await ask.waitFor({ state: 'hidden' });
      expect(await subscriber.getByRole('button', { name: 'Stop renewing' }).count()).toBe(0);
      await checkScreen(subscriber, viewport, 'o13-order-not-renewing');
      // Stripe was told to cancel at the period's end; the subscription runs until then.
      const [stripeSub] = env.stripe!.objects('subscription').filter((s) => s.metadata.iden === order.iden);
      expect(stripeSub).toMatchObject({ status: 'active', cancel_at_period_end: true });
      await subscriber.goto('/products/monthly');
      await waitForText(subscriber, /^You're subscribed until /);
      await context.close();
    });
  });
}
