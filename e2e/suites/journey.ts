import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addToCartFromCatalog,
  buyWithDefault,
  fill,
  payOnSandbox,
  proveItsMe,
  signIn,
  signOut,
  waitForText,
} from '../support/flows.js';
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

/** The suite at one screen size; each size's file runs it, so that the sizes run side by side. */
export function journey(viewport: Viewport): void {
  describe(`the web app at ${viewport.name} size`, () => {
    let env: Env;
    let ctx: BrowserContext;
    let page: Page;
    const tag = `${viewport.name}${Date.now().toString(36)}`;
    const buyer = `buyer.${tag}@example.test`;
    const admin = `admin.${tag}@example.test`;

    beforeAll(async () => {
      env = await startEnv(admin);
      ctx = await newContext(env, viewport);
      page = await ctx.newPage();
      // Errors of the app in the browser show up in the test's output.
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') console.error(`[browser ${viewport.name}] console: ${m.text()}`);
      });
      page.on('framenavigated', (f) => console.error(`[browser ${viewport.name}] NAV ${f.url()}`));
    });
    afterAll(async () => {
      await env?.close();
    });
    // A failed step leaves a picture of where it stood.
    afterEach((context) => screenshotIfFailed(context, { [viewport.name]: page }));

    it('registers with each refusal on its field, confirms through the mailed link and signs in', async () => {
      await page.goto('/register');
      await checkScreen(page, viewport, '01-register');
      await page.getByRole('button', { name: 'Create account' }).click();
      expect(await page.getByText('Required').count()).toBeGreaterThanOrEqual(2);

      await fill(page, 'Name', 'Ada Buyer');
      await fill(page, 'E-mail', buyer);
      await fill(page, 'Password', 'password123');
      await page.getByRole('button', { name: 'Create account' }).click();
      await waitForText(page, 'Too common: choose a less guessable password');
      await checkScreen(page, viewport, '02-register-weak');

      await fill(page, 'Password', PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await waitForText(page, /We sent a link to/);

      const token = await mailedToken(env, buyer, /Confirm your e-mail/, 'confirm');
      await page.goto(`/confirm/${token}`);
      await waitForText(page, 'Your e-mail address is confirmed. Thank you!');
      await checkScreen(page, viewport, '03-confirmed');

      await signOut(page);
      await page.goto('/login');
      await signIn(page, buyer, 'not the password at all');
      await waitForText(page, 'Wrong e-mail or password.');
      await checkScreen(page, viewport, '04-login');
      await signIn(page, buyer, PASSWORD);
      await page.waitForURL((u) => u.pathname === '/');
      await page.getByRole('button', { name: /^Account of Ada Buyer/ }).waitFor();
    });

    it('resets a forgotten password through the mailed link', async () => {
      await signOut(page);
      await page.goto('/forgot');
      await fill(page, 'E-mail', buyer);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await waitForText(page, /a link is on its way/);
      await checkScreen(page, viewport, '05-forgot');
      const token = await mailedToken(env, buyer, /Reset your Till password/, 'reset');
      await page.goto(`/reset/${token}`);
      await fill(page, 'New password', `${PASSWORD} 2`);
      await fill(page, 'Repeat the password', `${PASSWORD} 3`);
      await page.getByRole('button', { name: 'Set the password' }).click();
      await waitForText(page, 'The two passwords differ');
      await checkScreen(page, viewport, '06-reset');
      await fill(page, 'Repeat the password', `${PASSWORD} 2`);
      await page.getByRole('button', { name: 'Set the password' }).click();
      await waitForText(page, /Your password is changed/);
      await page.goto('/login');
      await signIn(page, buyer, `${PASSWORD} 2`);
      await page.waitForURL((u) => u.pathname === '/');
    });

    it('edits the profile: name, language, avatar and the other sessions', async () => {
      // A second session elsewhere, to be signed out from here.
      const other = await env.app.call('/api/login', { email: buyer, password: `${PASSWORD} 2` });
      expect(other.code).toBe(900);

      await page.goto('/profile');
      await fill(page, 'Name', 'Ada Lovelace');
      await page.getByRole('button', { name: 'Save' }).click();
      await waitForText(page, 'Saved.');
      await page.getByRole('button', { name: /^Account of Ada Lovelace/ }).waitFor();

      // A photo larger than 1024 x 768, which the browser scales down before the upload.
      const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3a7' } })
        .png()
        .toBuffer();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose a picture' }).click();
      await (await chooser).setFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
      await page.getByRole('img', { name: 'Picture of Ada Lovelace' }).waitFor();
      const avatar = await page.getByRole('img', { name: 'Picture of Ada Lovelace' }).getAttribute('src');
      expect(avatar).toBeTruthy();

      await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await waitForText(page, '1 other session signed out.');
      expect((await env.app.call('/api/auth/getUserInfo', { token: other.token as string })).code).toBe(901);
      await checkScreen(page, viewport, '07-profile');

      // The language is switched from the profile and kept by the server.
      await page.getByRole('combobox', { name: 'Language' }).click();
      await page.getByRole('option', { name: 'Deutsch' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: 'Profil', level: 1 }).waitFor();
      await checkScreen(page, viewport, '08-profile-de');
      await page.getByRole('combobox', { name: 'Sprache' }).click();
      await page.getByRole('option', { name: 'English' }).click();
      await page.getByRole('button', { name: 'Speichern' }).click();
      await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    });

    it('uploads several files with a progress bar, lists, downloads and deletes them', async () => {
      await page.goto('/files');
      await page.getByText('Upload files').waitFor();
      // Slow uploads down so that the progress bar has something to show.
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 256 * 1024,
      });
      const big = Buffer.alloc(700 * 1024, 7);
      await page.getByTestId('file-input').setInputFiles([
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the browser') },
        { name: 'big.bin', mimeType: 'application/octet-stream', buffer: big },
      ]);
      const bar = page.getByRole('progressbar', { name: 'Upload progress' });
      await bar.waitFor();
      const seen = new Set<number>();
      // Read what is there now, without waiting: a locator's `getAttribute` would wait (up to a minute)
      // for a bar that went between two looks.
      for (;;) {
        const values = await bar.evaluateAll((bars) => bars.map((b) => b.getAttribute('aria-valuenow')));
        if (values.length === 0) break;
        for (const value of values) if (value !== null && Number.isFinite(Number(value))) seen.add(Number(value));
        await page.waitForTimeout(100);
      }
      expect(
        [...seen].some((v) => v > 0 && v < 100),
        `progress values ${[...seen].join(',')}`,
      ).toBe(true);
      // The network's conditions change only once the server has answered: the bar goes when the
      // last byte is sent, and Chromium aborts a request in flight whose conditions change.
      await waitForText(page, '2 files uploaded.');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await page.getByRole('cell', { name: 'notes.txt', exact: true }).waitFor();
      await checkScreen(page, viewport, '09-files');

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download notes.txt' }).click();
      expect((await download).suggestedFilename()).toBe('notes.txt');

      await page.getByRole('button', { name: 'Delete big.bin' }).click();
      await checkScreen(page, viewport, '10-files-delete');
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('cell', { name: 'big.bin', exact: true }).waitFor({ state: 'detached' });
    });

    it('lets an anonymous buyer press Buy, sign in, and carry on to pay with WELCOME10', async () => {
      await signOut(page);
      await page.goto('/');
      await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
      await checkScreen(page, viewport, '11-catalog');
      await page.getByRole('link', { name: 'Details of Pro unlock' }).click();
      await page.getByRole('heading', { name: 'Pro unlock', level: 1 }).waitFor();
      await checkScreen(page, viewport, '12-product');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.goto('/cart');
      await page.getByText('Pro unlock').first().waitFor();
      await checkScreen(page, viewport, '13-cart');
      await page.getByRole('link', { name: 'Checkout' }).click();

      await fill(page, 'Coupon code', 'WELCOME10');
      await page.getByRole('button', { name: 'Apply' }).click();
      await waitForText(page, 'The coupon is checked once you sign in.');
      await page.getByRole('radio', { name: /Sandbox checkout/ }).check();
      await checkScreen(page, viewport, '14-checkout-anonymous');
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in to continue' });
      await dialog.waitFor();
      await checkScreen(page, viewport, '15-checkout-sign-in');
      await fill(dialog, 'E-mail', buyer);
      await fill(dialog, 'Password', `${PASSWORD} 2`);
      await dialog.getByRole('button', { name: 'Sign in' }).click();

      // The call held by the SDK goes out after sign-in and the buyer lands on the payment page.
      await page.waitForURL(/\/api\/pay\/default\//, { timeout: 60_000 });
      // The sandbox page is the server's, not the app's: kept as a picture, not checked with axe.
      await page.screenshot({ path: `${screensDir}/${viewport.name}-16-sandbox-page.png` });
      const iden = await payOnSandbox(page);
      await waitForText(page, 'Pro unlock, unlocked');
      await waitForText(page, /\(WELCOME10\)/);
      await checkScreen(page, viewport, '17-order-paid');
      expect(iden.length).toBeGreaterThan(0);
    });

    it('buys credits with the default provider and watches the order turn paid', async () => {
      await addToCartFromCatalog(page, '100 credits');
      await page.goto('/cart');
      await page.getByRole('button', { name: 'One more 100 credits' }).click();
      await page.getByRole('link', { name: 'Checkout' }).click();
      await waitForText(page, '100 credits');
      await buyWithDefault(page);
      // The order page, open beside the payment page, shows the order pending and turns paid by itself.
      const iden = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
      const watcher = await ctx.newPage();
      await watcher.goto(`/orders/${encodeURIComponent(iden)}`);
      await waitForText(watcher, /This order is not paid yet\./);
      await checkScreen(watcher, viewport, '17b-order-pending');
      await page.getByRole('button', { name: /^Pay / }).click();
      await waitForText(watcher, 'Paid. You now have:', 60_000);
      await waitForText(watcher, '2 × 100 credits: 200 credits added, 100 each');
      await watcher.close();
      // Paying brings the buyer back to the order page.
      await page.waitForURL(/\/orders\/[^/]+$/, { timeout: 60_000 });
      await waitForText(page, '2 × 100 credits: 200 credits added, 100 each');
      await page.goto('/orders');
      await page.getByRole('list', { name: 'Orders' }).waitFor();
      expect(await page.getByRole('list', { name: 'Orders' }).getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
      await checkScreen(page, viewport, '18-orders');
    });

    it('redeems FREE100 and pays with credits', async () => {
      await page.goto('/credits');
      await page.getByTestId('credit-balance').waitFor();
      expect(await page.getByTestId('credit-balance').textContent()).toBe('200');
      await fill(page, 'Coupon code', 'FREE100');
      await page.getByRole('button', { name: 'Redeem' }).click();
      await waitForText(page, /Redeemed: 100 credits added\. Balance: 300\./);
      await page.getByTestId('credit-balance').filter({ hasText: '300' }).waitFor();
      await fill(page, 'Coupon code', 'FREE100');
      await page.getByRole('button', { name: 'Redeem' }).click();
      await waitForText(page, 'You have used this coupon already.');
      await checkScreen(page, viewport, '19-credits');

      await addToCartFromCatalog(page, 'Monthly subscription');
      await page.goto('/checkout');
      await page.getByRole('radio', { name: /^Credits/ }).check();
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      await page.waitForURL(/\/orders\/[^/]+$/);
      await waitForText(page, 'Paid. You now have:');
      await waitForText(page, 'Monthly subscription, subscription running');
      await page.goto('/credits');
      await page.getByTestId('credit-balance').filter({ hasText: /^0$/ }).waitFor();
    });

    it('lets an administrator create a product and a coupon that a buyer then uses', async () => {
      // The administrator registers through the API and confirms through the mailed link.
      const reg = await env.app.call('/api/register', {
        email: admin,
        password: PASSWORD,
        name: 'Ada Admin',
        lang: 'en',
      });
      expect(reg.code).toBe(900);
      const token = await mailedToken(env, admin, /Confirm your e-mail/, 'confirm');
      expect((await env.app.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json().code).toBe(900);

      const adminCtx = await newContext(env, viewport);
      const ap = await adminCtx.newPage();
      await ap.goto('/login');
      await signIn(ap, admin, PASSWORD);
      await ap.waitForURL((u) => u.pathname === '/');
      await ap.goto('/admin');
      await ap.getByRole('table', { name: 'Products' }).waitFor();
      await checkScreen(ap, viewport, '20-admin-products');

      const alias = `e2e-pack-${viewport.name}`;
      await ap.getByRole('button', { name: 'New product' }).click();
      const pd = ap.getByRole('dialog');
      await fill(pd, 'Alias', 'Not A Slug');
      await fill(pd, 'Title', 'E2E pack');
      await pd.getByRole('button', { name: 'Save' }).click();
      await pd.getByText('Not valid').first().waitFor();
      await checkScreen(ap, viewport, '21-admin-product-dialog');
      await fill(pd, 'Alias', alias);
      await fill(pd, 'Price', '9.99');
      await fill(pd, 'Credits granted', '1000');
      await pd.getByRole('button', { name: 'Save' }).click();
      await ap.getByRole('cell', { name: 'E2E pack', exact: true }).waitFor();

      const code = `E2E25${viewport.name.toUpperCase()}`;
      await ap.getByRole('tab', { name: 'Coupons' }).click();
      await ap.getByRole('button', { name: 'New coupon' }).click();
      const cd = ap.getByRole('dialog');
      await fill(cd, 'Code', code);
      await fill(cd, 'Percent off', '25');
      await cd.getByRole('button', { name: 'Save' }).click();
      await ap.getByRole('cell', { name: code, exact: true }).waitFor();
      await ap.getByRole('button', { name: 'Bulk codes' }).click();
      await fill(ap.getByRole('dialog'), 'How many', '3');
      await ap.getByRole('dialog').getByRole('combobox', { name: 'Kind' }).click();
      await ap.getByRole('option', { name: 'Grant' }).click();
      await fill(ap.getByRole('dialog'), 'Credits granted', '5');
      await ap.getByRole('button', { name: 'Make codes' }).click();
      await waitForText(ap, /3 codes made/);
      expect((await ap.getByTestId('bulk-codes').textContent())?.trim().split('\n')).toHaveLength(3);
      await ap.getByRole('button', { name: 'Close' }).click();
      await checkScreen(ap, viewport, '22-admin-coupons');

      await ap.getByRole('tab', { name: 'Users' }).click();
      await ap.getByRole('combobox', { name: 'User' }).click();
      await ap.getByRole('option', { name: new RegExp(buyer.replace(/[.+]/g, '\\$&')) }).click();
      await fill(ap, 'Amount', '7');
      await fill(ap, 'Reason', 'Goodwill');
      await ap.getByRole('button', { name: 'Apply' }).click();
      await waitForText(ap, /Done\. New balance: \d+\./);
      await checkScreen(ap, viewport, '23-admin-users');

      // The buyer uses the new product and coupon.
      await addToCartFromCatalog(page, 'E2E pack');
      await page.goto('/checkout');
      await fill(page, 'Coupon code', code);
      await page.getByRole('button', { name: 'Apply' }).click();
      await waitForText(page, '25% off');
      await buyWithDefault(page);
      await payOnSandbox(page);
      await waitForText(page, `(${code})`);
      await waitForText(page, 'E2E pack: 1000 credits added');

      await ap.getByRole('tab', { name: 'Orders' }).click();
      await ap.getByRole('table', { name: 'Orders' }).waitFor();
      await checkScreen(ap, viewport, '24-admin-orders');
      await ap
        .getByRole('button', { name: /^Refund order/ })
        .first()
        .click();
      await ap.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
      // A refund asks the administrator to prove it is them, unless they did in the last minutes.
      await proveItsMe(ap, PASSWORD, /refunded\.|cannot be refunded/);
      await waitForText(ap, /refunded\.|cannot be refunded/);
      await adminCtx.close();
    });

    it('sends a user whose session died (901) to sign in with a message, and back to their place', async () => {
      await page.goto('/credits');
      await page.getByTestId('credit-balance').waitFor();
      // The server forgets every session of the buyer (as after a password reset elsewhere).
      await env.app.ctx.db.kysely.deleteFrom('sessions').execute();
      await page.reload();
      await page.waitForURL(/\/login\?/);
      await waitForText(page, /Your session has ended/);
      await checkScreen(page, viewport, '25-login-expired');
      await signIn(page, buyer, `${PASSWORD} 2`);
      await page.waitForURL((u) => u.pathname === '/credits');
    });

    it('works with the keyboard alone: skip link, buttons and the sign-in form', async () => {
      const keyUser = `keys.${tag}@example.test`;
      expect(
        (await env.app.call('/api/register', { email: keyUser, password: PASSWORD, name: 'Kay', lang: 'en' })).code,
      ).toBe(900);
      const kctx = await newContext(env, viewport);
      const kp = await kctx.newPage();
      await kp.goto('/');
      await kp.getByRole('heading', { name: 'Pro unlock' }).waitFor();
      await kp.keyboard.press('Tab');
      expect(await kp.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await kp.keyboard.press('Enter');
      expect(await kp.evaluate(() => document.activeElement?.id)).toBe('main');
      // Tab along to the first "Add to cart" and press it.
      for (let i = 0; i < 15; i++) {
        await kp.keyboard.press('Tab');
        const label = await kp.evaluate(() => document.activeElement?.getAttribute('aria-label'));
        if (label?.startsWith('Add ')) break;
      }
      await kp.keyboard.press('Enter');
      await kp.getByRole('link', { name: 'Cart, 1 items' }).waitFor();

      await kp.goto('/login');
      await kp.getByRole('heading', { name: 'Sign in' }).waitFor();
      for (let i = 0; i < 15; i++) {
        await kp.keyboard.press('Tab');
        if (await kp.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type === 'email')) break;
      }
      await kp.keyboard.type(keyUser);
      await kp.keyboard.press('Tab');
      await kp.keyboard.type(PASSWORD);
      await kp.keyboard.press('Enter');
      await kp.getByRole('button', { name: /^Account of/ }).waitFor();
      await kctx.close();
    });

    it('shows a retryable "can\'t reach the server" when the network fails (905)', async () => {
      // The store's pages come with the catalog in them; a visitor who opens another page first has
      // the catalog asked for when they go to the store.
      await page.route('**/api/store/products', (route) => route.abort('connectionrefused'));
      await page.goto('/login');
      await page.getByRole('banner').getByRole('link', { name: 'Till' }).click();
      await waitForText(page, "Can't reach the server. Check your connection and try again.");
      await checkScreen(page, viewport, '26-offline');
      await page.unroute('**/api/store/products');
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    });
  });
}
