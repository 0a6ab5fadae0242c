import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { giveCredits } from '@till/test-support/store';
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

const MiB = 1024 * 1024;

/** The page is no wider than the screen: nothing to scroll sideways to. */
async function fitsWidth(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `page ${page.url()} is ${scrollWidth}px wide on a ${innerWidth}px screen`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/**
 * The shopper's screens as a buyer meets them, at phone and desktop size: the checkout's summary
 * with a coupon before payment, each refusal in words that say what to do, owned products, the
 * cart kept through a declined payment, order and credit lists that fit a phone, human names, the
 * ways on after registering and asking for a reset link, and an avatar seen from a second host name.
 */
/** The suite at one screen size; each size's file runs it, so that the sizes run side by side. */
export function shopper(viewport: Viewport): void {
  describe(`the shopper at ${viewport.name} size`, () => {
    let env: Env;
    let ctx: BrowserContext;
    let page: Page;
    const tag = `${viewport.name}${Date.now().toString(36)}`;
    const buyer = `shopper.${tag}@example.test`;
    let buyerId = '';

    beforeAll(async () => {
      // A 1 MiB limit per file, so that "too large" needs no large test file.
      env = await startEnv(`admin.${tag}@example.test`, { env: { UPLOAD_MAX_FILE_BYTES: String(MiB) } });
      const reg = await env.app.call('/api/register', {
        email: buyer,
        password: PASSWORD,
        name: 'Sam Shopper',
        lang: 'en',
      });
      expect(reg.code).toBe(900);
      buyerId = (reg.user as { id: string }).id;
      ctx = await newContext(env, viewport);
      page = await ctx.newPage();
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
      await page.goto('/login');
      await signIn(page, buyer, PASSWORD);
      await page.getByRole('button', { name: /^Account of Sam Shopper/ }).waitFor();
    });
    afterAll(async () => {
      await env?.close();
    });
    afterEach((context) => screenshotIfFailed(context, { [`${viewport.name}-shop`]: page }));

    it('says an item went into the cart, and shows the coupon total, quantities and refusals before payment', async () => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Add to cart: 100 credits' }).click();
      await waitForText(page, '100 credits is in your cart.');
      await checkScreen(page, viewport, 's01-added-to-cart');
      await page.getByRole('button', { name: 'Add to cart: 100 credits' }).click();
      await page.getByRole('status').getByRole('link', { name: 'View cart' }).click();
      await page.waitForURL((u) => u.pathname === '/cart');
      await page.getByRole('link', { name: 'Checkout' }).click();

      const summary = page.getByRole('region', { name: 'Order summary' });
      await summary.getByText('100 credits × 2').waitFor();
      expect(await page.getByTestId('checkout-total').textContent()).toContain('$3.98');
      await fill(page, 'Coupon code', 'welcome10');
      await page.getByRole('button', { name: 'Apply' }).click();
      await summary.getByText('Discount (WELCOME10)').waitFor();
      await waitForText(page, '10% off');
      // 10 % of 3.98 is 0.398, rounded in the buyer's favour: 0.40 off, 3.58 to pay.
      await page.getByTestId('checkout-total').filter({ hasText: '$3.58' }).waitFor();
      expect(await summary.getByText('−$0.40').count()).toBe(1);
      await checkScreen(page, viewport, 's02-checkout-coupon');

      await page.getByRole('button', { name: 'Remove coupon WELCOME10' }).click();
      await page.getByTestId('checkout-total').filter({ hasText: '$3.98' }).waitFor();
      await fill(page, 'Coupon code', 'NO-SUCH-CODE');
      await page.getByRole('button', { name: 'Apply' }).click();
      await waitForText(
        page,
        /We don’t know this coupon code\. Check its spelling\. Remove it to buy without a coupon\./,
      );
      expect(await page.getByTestId('checkout-total').textContent()).toContain('$3.98');
      await checkScreen(page, viewport, 's03-checkout-coupon-refused');
      await page.getByRole('button', { name: 'Remove coupon NO-SUCH-CODE' }).click();
    });

    it('keeps the cart when the payment is declined, and comes back to the order from the payment page', async () => {
      await page.goto('/checkout');
      await page.getByRole('radio', { name: /Sandbox checkout/ }).check();
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      await page.waitForURL(/\/api\/pay\/default\//, { timeout: 60_000 });
      // Starting the checkout did not empty the cart.
      // Declining brings the buyer straight back to the order in the app.
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.waitForURL(/\/orders\/[^/]+$/);
      await waitForText(page, /The payment did not go through/);
      await page.getByRole('heading', { name: /^Order #[0-9A-F]{6}$/, level: 1 }).waitFor();
      expect(await page.getByText('Paid with').count()).toBe(0);
      await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
      await checkScreen(page, viewport, 's04-order-failed');
      await page.goto('/cart');
      await page.getByText('100 credits').first().waitFor();
    });

    it('marks what the buyer owns, offers no Buy for it, and says so when a held purchase meets it', async () => {
      await giveCredits(env.app, buyerId, 500);
      const session = await env.app.call('/api/login', { email: buyer, password: PASSWORD });
      const bought = await env.app.call('/api/auth/payWithCredits', {
        token: session.token as string,
        products: JSON.stringify(['pro-unlock']),
      });
      expect(bought.code).toBe(900);

      await page.goto('/');
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Pro unlock' }) });
      await card.getByText('You own this').waitFor();
      expect(await page.getByRole('button', { name: 'Add to cart: Pro unlock' }).count()).toBe(0);
      await checkScreen(page, viewport, 's05-catalog-owned');
      await page.getByRole('link', { name: 'Details of Pro unlock' }).click();
      await waitForText(page, 'You own this already: it is yours for good, nothing more to buy.');
      expect(await page.getByRole('button', { name: 'Buy' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add to cart' }).count()).toBe(0);
      await checkScreen(page, viewport, 's06-product-owned');

      // A visitor's cart with it, checked out after signing in: the server's refusal, in words.
      await signOut(page);
      await page.goto('/');
      await page.getByRole('button', { name: 'Add to cart: Pro unlock' }).click();
      await page.goto('/checkout');
      await page.getByRole('radio', { name: /Sandbox checkout/ }).check();
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in to continue' });
      await fill(dialog, 'E-mail', buyer);
      await fill(dialog, 'Password', PASSWORD);
      await dialog.getByRole('button', { name: 'Sign in' }).click();
      // Signed in, the summary flags the line and takes it out; the server's refusal of the same
      // thing is not said again beside it.
      await waitForText(page, 'You already own Pro unlock.');
      expect(await page.getByText('You already own Pro unlock.').count()).toBe(1);
      await expect
        .poll(() => page.getByText('You already own something in this cart.', { exact: false }).count())
        .toBe(0);
      await expect
        .poll(() => page.getByRole('button', { name: 'Buy', exact: true }).getAttribute('aria-describedby'))
        .toBe('checkout-blocked');
      await checkScreen(page, viewport, 's07-checkout-owned');
      await page.goto('/cart');
      await page.getByTestId('owned-line').waitFor();
      await checkScreen(page, viewport, 's08-cart-owned');
      await page.getByRole('button', { name: 'Remove Pro unlock' }).click();
      await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    });

    it('refuses a file too large or of a type not allowed before uploading it, with the limits shown first', async () => {
      await page.goto('/files');
      await waitForText(page, /Up to 1 MB per file, 10 files at a time\./);
      const uploads: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/files/upload')) uploads.push(r.url());
      });
      await page
        .getByTestId('file-input')
        .setInputFiles([{ name: 'holiday.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(2 * MiB, 1) }]);
      await waitForText(page, /holiday\.mp4 is 2 MB: files can be at most 1 MB\. Choose a smaller file/);
      await checkScreen(page, viewport, 's09-file-too-large');
      await page
        .getByTestId('file-input')
        .setInputFiles([
          { name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ not really') },
        ]);
      await waitForText(page, /setup\.exe is not a type you can upload/);
      expect(uploads, 'nothing was sent').toEqual([]);

      // Named like a picture, but the content is a program: the server sniffs it and says why.
      const exe = Buffer.concat([
        Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
        Buffer.alloc(512),
      ]);
      await page.getByTestId('file-input').setInputFiles([{ name: 'cat.png', mimeType: 'image/png', buffer: exe }]);
      await waitForText(page, /This type of file cannot be uploaded\. Choose a picture, PDF/);
      expect(uploads).toHaveLength(1);
      await checkScreen(page, viewport, 's10-file-type');
    });

    it('lists orders and credits as rows that open, with status and amounts, and no sideways scroll', async () => {
      // A pending order, never paid: its wording and its actions.
      await page.goto('/checkout');
      await page.getByRole('radio', { name: /Sandbox checkout/ }).check();
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      await page.waitForURL(/\/api\/pay\/default\//, { timeout: 60_000 });
      await page.goto('/orders');
      const list = page.getByRole('list', { name: 'Orders' });
      await list.waitFor();
      expect(await list.getByRole('listitem').count()).toBe(3);
      await list.getByText('Waiting for payment').waitFor();
      await list.getByText('Payment failed').waitFor();
      await list.getByText('500 credits').waitFor();
      await fitsWidth(page);
      await checkScreen(page, viewport, 's11-orders');
      // The whole row is the link to its order.
      const row = list.getByRole('link').filter({ hasText: 'Waiting for payment' });
      const box = await row.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(viewport.width * 0.8);
      await row.click();
      await page.getByRole('heading', { name: /^Order #[0-9A-F]{6}$/, level: 1 }).waitFor();
      await waitForText(page, 'This order is not paid yet. Pay now to get it, or cancel it if you changed your mind.');
      expect(await page.getByText('Paid with').count()).toBe(0);
      await page.getByRole('button', { name: 'Pay now' }).waitFor();
      await fitsWidth(page);
      await checkScreen(page, viewport, 's12-order-pending');
      await page.getByRole('button', { name: 'Cancel the order' }).click();
      const ask = page.getByRole('dialog', { name: 'Cancel this order?' });
      await checkScreen(page, viewport, 's13-order-cancel-ask');
      await ask.getByRole('button', { name: 'Cancel the order' }).click();
      await waitForText(page, 'You cancelled this order. Nothing was charged.');

      await page.goto('/credits');
      const history = page.getByRole('list', { name: 'History' });
      await history.getByText('−500').waitFor();
      await history.getByText('Correction by the shop').first().waitFor();
      expect(await history.textContent()).not.toContain('(by ');
      await fitsWidth(page);
      await checkScreen(page, viewport, 's14-credits');

      // Sessions by browser and system, never the raw user-agent string.
      await page.goto('/profile');
      await page
        .getByText(/ \d+ on Linux/)
        .first()
        .waitFor();
      expect(await page.getByText(/Mozilla\/5\.0/).count()).toBe(0);
      await fitsWidth(page);
    });

    it('shows the avatar uploaded from a second host name of the same server', async () => {
      // The server's PUBLIC_URL names 127.0.0.1; the app is opened at localhost instead.
      const second = env.url.replace('127.0.0.1', 'localhost');
      const other = await newContext({ ...env, url: second }, viewport);
      const p = await other.newPage();
      await p.goto('/login');
      await signIn(p, buyer, PASSWORD);
      await p.getByRole('button', { name: /^Account of Sam Shopper/ }).waitFor();
      await p.goto('/profile');
      const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#36a' } })
        .png()
        .toBuffer();
      const chooser = p.waitForEvent('filechooser');
      await p.getByRole('button', { name: 'Choose a picture' }).click();
      await (await chooser).setFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
      const img = p.getByRole('img', { name: 'Picture of Sam Shopper' });
      await img.waitFor();
      await p.waitForFunction(
        () => {
          const el = document.querySelector('img[alt="Picture of Sam Shopper"]') as HTMLImageElement | null;
          return Boolean(el?.complete && el.naturalWidth > 0);
        },
        undefined,
        { timeout: 60_000 },
      );
      const src = await img.evaluate((el) => (el as HTMLImageElement).currentSrc);
      expect(new URL(src).origin).toBe(new URL(second).origin);
      await checkScreen(p, viewport, 's15-avatar-second-host');
      await other.close();
    });

    it('leaves no dead end after registering or asking for a reset link, and refreshes by itself back online', async () => {
      const fresh = await newContext(env, viewport);
      const p = await fresh.newPage();
      const email = `new.${tag}@example.test`;
      await p.goto('/register');
      await fill(p, 'Name', 'Nia New');
      await fill(p, 'E-mail', email);
      await fill(p, 'Password', PASSWORD);
      await p.getByRole('button', { name: 'Create account' }).click();
      await waitForText(p, 'Check your mail');
      await env.smtp.next(email, /Confirm your e-mail/);
      await p.getByRole('button', { name: 'Send the link again' }).click();
      await waitForText(p, /Sent again/);
      await env.smtp.next(email, /Confirm your e-mail/);
      await checkScreen(p, viewport, 's16-registered');
      await p.getByRole('link', { name: 'Continue to the store' }).click();
      await p.waitForURL((u) => u.pathname === '/');

      await signOut(p);
      await p.goto('/forgot');
      await fill(p, 'E-mail', email);
      await p.getByRole('button', { name: 'Send the link' }).click();
      await waitForText(p, /a link is on its way/);
      await checkScreen(p, viewport, 's17-reset-sent');
      await p.getByRole('link', { name: 'Back to sign in' }).click();
      await p.waitForURL((u) => u.pathname === '/login');
      await fresh.close();

      // Offline, an order cannot load; back online it does, without a press on "Try again".
      await page.goto('/orders');
      const rows = page.getByRole('list', { name: 'Orders' }).getByRole('link');
      await rows.first().waitFor();
      await ctx.setOffline(true);
      expect(await page.evaluate(() => navigator.onLine)).toBe(false);
      await rows.filter({ hasText: 'Paid' }).first().click();
      await page.waitForURL(/\/orders\/[^/]+$/);
      await page.waitForTimeout(1_000);
      expect(await page.getByText('Paid. You now have:').count()).toBe(0);
      await ctx.setOffline(false);
      await waitForText(page, 'Paid. You now have:', 60_000);
    });
  });
}
