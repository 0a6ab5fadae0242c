import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage, fill, proveItsMe, waitForText } from '../support/flows.js';
import {
  checkScreen,
  confirmedAccount,
  PASSWORD,
  signedInProfile,
  startEnv,
  type Env,
  type Viewport,
  screenshotIfFailed,
} from '../support/env.js';

interface AdminProduct {
  id: string;
  alias: string;
  imageUrl: string | null;
  grants: { period?: string };
}

/**
 * The shop owner's screens and the German shop, at phone and desktop size: German product texts and
 * payment page, a level given without a new sign-in, coupons edited and switched off, users found and
 * opened, part of an order refunded, a period picked, a product image uploaded. Every screen is
 * checked with axe and kept as a screenshot.
 */
/** The suite at one screen size; each size's file runs it, so that the sizes run side by side. */
export function shopOwner(viewport: Viewport): void {
  describe(`the shop owner at ${viewport.name} size`, () => {
    let env: Env;
    let adminCtx: BrowserContext;
    let ap: Page;
    let buyerCtx: BrowserContext;
    let bp: Page;
    const tag = `${viewport.name}${Date.now().toString(36)}`;
    const admin = `owner.${tag}@example.test`;
    const buyer = `kaeufer.${tag}@example.test`;
    const member = `member.${tag}@example.test`;
    let adminToken = '';
    let paidIden = '';
    /** The paid order as its buyer reads it, and as the admin screens name it. */
    const paidNumber = () => `#${paidIden.slice(-6).toUpperCase()}`;

    /** Each button is whole inside the screen's width: nothing to scroll sideways to. */
    async function expectWithinScreen(buttons: ReturnType<Page['getByRole']>): Promise<void> {
      const width = viewport.width;
      for (const button of await buttons.all()) {
        const box = await button.boundingBox();
        expect(box, 'a button that is not drawn').not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), `${await button.textContent()} cut off`).toBeLessThanOrEqual(width);
        expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      }
    }

    const signedIn = (email: string, locale: string, vp: Viewport = viewport) =>
      signedInProfile(env, vp, email, { locale });

    const adminProducts = async () =>
      (
        (await env.app.call('/api/admin/products/list', { token: adminToken })) as unknown as {
          data: { products: AdminProduct[] };
        }
      ).data.products;

    beforeAll(async () => {
      env = await startEnv(admin);
      await confirmedAccount(env, admin, 'Olga Owner');
      await confirmedAccount(env, buyer, 'Karl Käufer');
      await confirmedAccount(env, member, 'Mia Member');
      ({ ctx: adminCtx, page: ap, token: adminToken } = await signedIn(admin, 'en-US'));
      ({ ctx: buyerCtx, page: bp } = await signedIn(buyer, 'de-DE'));
    });
    afterAll(async () => {
      await adminCtx?.close();
      await buyerCtx?.close();
      await env?.close();
    });
    afterEach((context) =>
      screenshotIfFailed(context, { [`${viewport.name}-admin`]: ap, [`${viewport.name}-buyer`]: bp }),
    );

    it('shows a German buyer the German product texts and a German, styled payment page', async () => {
      await bp.goto('/');
      await waitForText(bp, 'Pro freischalten');
      await waitForText(bp, 'Schaltet die Pro-Funktionen dauerhaft frei.');
      expect(await bp.getByText('Pro unlock', { exact: true }).count()).toBe(0);
      await checkScreen(bp, viewport, 'admin-01-catalog-de');

      await bp.getByRole('button', { name: 'In den Warenkorb: Pro freischalten' }).click();
      await bp.goto('/checkout');
      await bp.getByRole('radio', { name: /Sandbox-Kasse/ }).check();
      await bp.getByRole('button', { name: 'Kaufen', exact: true }).click();
      await bp.waitForURL(/\/api\/pay\/default\//, { timeout: 60_000 });
      expect(new URL(bp.url()).searchParams.get('lang')).toBe('de');
      expect(await bp.locator('html').getAttribute('lang')).toBe('de');
      await bp.getByRole('heading', { name: 'Bezahlen' }).waitFor();
      await waitForText(bp, 'Pro freischalten');
      // The amount as a German writes it, never "4.99 USD".
      const pay = bp.getByRole('button', { name: /^4,99\s\$ bezahlen$/ });
      await pay.waitFor();
      expect(await bp.getByText('4.99 USD').count()).toBe(0);
      // The app's look: its green on the pay button, its type, no sideways scroll at 360 px.
      const look = await pay.evaluate((el) => {
        const s = getComputedStyle(el);
        return {
          background: s.backgroundColor,
          font: getComputedStyle(document.body).fontFamily,
          height: el.getBoundingClientRect().height,
        };
      });
      expect(look.background).toBe('rgb(30, 91, 79)');
      expect(look.font).toContain('system-ui');
      expect(look.height).toBeGreaterThanOrEqual(44);
      await checkScreen(bp, viewport, 'admin-02-sandbox-page-de');

      await pay.click();
      // Paying brings the buyer back to the order page in the app.
      await bp.waitForURL(/\/orders\/[^/]+$/, { timeout: 60_000 });
      paidIden = decodeURIComponent(new URL(bp.url()).pathname.split('/').pop() ?? '');
      expect(paidIden).not.toBe('');
    });

    it("recognises a member an administrator promotes on the member's next step, without a new sign-in", async () => {
      const m = await signedIn(member, 'en-US');
      await m.page.goto('/');
      await m.page.getByRole('heading', { name: 'Store' }).waitFor();
      expect(await m.page.getByRole('link', { name: 'Admin' }).count()).toBe(0);

      await ap.goto('/admin?tab=users');
      await ap.getByRole('searchbox', { name: 'Search users' }).fill(`member.${tag}`);
      await ap.getByRole('button', { name: `Open ${member}` }).click();
      await ap.getByRole('heading', { name: 'Mia Member' }).waitFor();
      await ap.getByRole('button', { name: 'Make administrator' }).click();
      await checkScreen(ap, viewport, 'admin-03-make-admin');
      await ap.getByRole('dialog').getByRole('button', { name: 'Make administrator' }).click();
      await proveItsMe(ap, PASSWORD, /has the new level from their next step on/);
      await waitForText(ap, /has the new level from their next step on/);

      // The member's open app, moving within itself (no reload, no sign-in), opens the admin screen.
      await m.page.evaluate(() => {
        history.pushState({}, '', '/admin');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      await m.page.getByRole('table', { name: 'Products' }).waitFor({ timeout: 60_000 });
      expect(await m.page.evaluate(() => JSON.parse(localStorage.getItem('till.session') ?? '{}').level)).toBe(9);
      await checkScreen(m.page, viewport, 'admin-04-promoted-member');

      // Taken back: refused on the member's next call, and the interface follows.
      await ap.getByRole('button', { name: 'Make member' }).click();
      await ap.getByRole('dialog').getByRole('button', { name: 'Make member' }).click();
      await waitForText(ap, /has the new level from their next step on/);
      await m.page.getByRole('tab', { name: 'Coupons' }).click();
      await waitForText(m.page, /Only administrators may do this|You are not allowed/);
      await m.ctx.close();
    });

    it('edits a coupon and switches it off; a buyer is then told why it does not work', async () => {
      const code = `E2EOFF${viewport.name.toUpperCase()}`;
      expect(
        (
          await env.app.call('/api/admin/coupons/save', {
            token: adminToken,
            coupon: { code, kind: 'discount', percentOff: 10 },
          })
        ).code,
      ).toBe(900);
      await ap.goto('/admin?tab=coupons');
      await ap.getByRole('button', { name: `Edit ${code}` }).click();
      const dialog = ap.getByRole('dialog');
      await fill(dialog, 'Percent off', '30');
      await checkScreen(ap, viewport, 'admin-05-coupon-edit');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await ap.getByRole('status').getByText(`Coupon ${code} saved.`).waitFor();
      await ap.getByText('30% off').first().waitFor();
      // Found by the start of its code; another code is not listed with it.
      await ap.getByRole('searchbox', { name: 'Code, its start, or batch' }).fill(code.slice(0, -2).toLowerCase());
      await ap.getByRole('button', { name: 'Search', exact: true }).click();
      await ap.waitForFunction(
        (c) =>
          Array.from(document.querySelectorAll('table[aria-label="Coupons"] tbody tr')).every((r) =>
            r.textContent?.includes(c),
          ),
        code,
      );
      await ap.getByRole('table', { name: 'Coupons' }).getByText(code, { exact: true }).waitFor();
      await expectWithinScreen(ap.getByRole('table', { name: 'Coupons' }).getByRole('button'));
      await checkScreen(ap, viewport, 'admin-05b-coupon-found');
      await ap.getByRole('button', { name: `Switch off coupon ${code}` }).click();
      await waitForText(ap, `Coupon ${code} is switched off: buyers are told it is no longer valid.`);
      await checkScreen(ap, viewport, 'admin-06-coupon-off');

      // A buyer's checkout with it is refused with its reason (the checkout screen's wording is the
      // shopper's screens' own and is tested there).
      const login = await env.app.call('/api/login', { email: buyer, password: PASSWORD });
      expect(
        await env.app.call('/api/store/doCheckout', { token: login.token, products: 'credits-100', couponCode: code }),
      ).toEqual({ code: 908, reason: 'inactive' });
    });

    it('finds a user by part of the address and opens their orders, credits, files and sessions', async () => {
      await ap.goto('/admin?tab=users');
      await ap.getByRole('searchbox', { name: 'Search users' }).fill(`KAEUFER.${tag}`);
      const table = ap.getByRole('table', { name: 'Users' });
      await table.getByText(buyer).waitFor();
      await ap.waitForFunction(() => document.querySelectorAll('table[aria-label="Users"] tbody tr').length === 1);
      expect(await table.getByText('Member', { exact: true }).count()).toBe(1);
      await checkScreen(ap, viewport, 'admin-08-user-search');
      await ap.getByRole('button', { name: `Open ${buyer}` }).click();
      await ap.getByRole('heading', { name: 'Karl Käufer' }).waitFor();
      for (const section of ['Orders', 'Credits', 'Files', 'Sessions', 'Flags'])
        await ap.getByRole('heading', { name: section, exact: true }).waitFor();
      await ap.getByRole('list', { name: 'Orders' }).getByText(`${paidNumber()} · Pro unlock`).waitFor();
      const sessions = ap.getByRole('list', { name: 'Sessions' });
      await sessions.waitFor();
      // Devices by name, never the raw user-agent string (the test's sign-in sends light-my-request's).
      await sessions.getByRole('listitem').first().waitFor();
      expect(await sessions.getByText(/lightMyRequest|Mozilla\/5\.0/).count()).toBe(0);
      await checkScreen(ap, viewport, 'admin-09-user-detail');
      // An order of theirs opens to its details.
      await ap.getByRole('list', { name: 'Orders' }).getByRole('button', { name: paidNumber() }).click();
      const details = ap.getByRole('dialog', { name: `Order ${paidNumber()}` });
      await details
        .getByRole('table')
        .getByRole('row', { name: /^Pro unlock/ })
        .waitFor();
      await checkScreen(ap, viewport, 'admin-09b-user-order');
      await details.getByRole('button', { name: 'Close' }).click();
      await details.waitFor({ state: 'detached' });
    });

    it('refunds part of an order: money only, the buyer keeps the product', async () => {
      await ap.goto('/admin?tab=orders');
      const table = ap.getByRole('table', { name: 'Orders' });
      await table.waitFor();
      // Listed by the number the buyer sees, with the buyer's address; no iden anywhere.
      await table.getByText(paidNumber(), { exact: true }).waitFor();
      await table.getByText(buyer).first().waitFor();
      expect(await ap.getByText(paidIden).count()).toBe(0);
      await expectWithinScreen(table.getByRole('button'));
      await ap.getByRole('button', { name: `Refund order ${paidNumber()}` }).click();
      const dialog = ap.getByRole('dialog', { name: 'Refund the order?' });
      await dialog.getByText('what it granted is taken back', { exact: false }).waitFor();
      await dialog.getByRole('radio', { name: /Money only/ }).check();
      // The text follows the choice: money only takes nothing back.
      await dialog
        .getByText('Nothing is taken back: the buyer keeps what the order granted.', { exact: false })
        .waitFor();
      expect(await dialog.getByText('what it granted is taken back', { exact: false }).count()).toBe(0);
      await fill(dialog, /Amount/, '1.50');
      await fill(dialog, /Reason/, 'Late delivery');
      await dialog.getByText(`$1.50 of order ${paidNumber()} goes back to ${buyer}.`, { exact: false }).waitFor();
      await checkScreen(ap, viewport, 'admin-10-partial-refund');
      await dialog.getByRole('button', { name: 'Refund' }).click();
      await proveItsMe(ap, PASSWORD, `$1.50 of order ${paidNumber()} refunded; the buyer keeps what it granted.`);
      await waitForText(ap, `$1.50 of order ${paidNumber()} refunded; the buyer keeps what it granted.`);
      await waitForText(ap, '$1.50 refunded');
      await checkScreen(ap, viewport, 'admin-11-refunded-part');

      // Found by the number as the buyer reads it out, and by part of the buyer's address.
      const search = ap.getByRole('searchbox', { name: 'Order number or e-mail' });
      const rows = () => ap.locator('table[aria-label="Orders"] tbody tr').count();
      await search.fill(paidNumber().toLowerCase());
      await search.press('Enter');
      await expect.poll(rows).toBe(1);
      await table.getByText(paidNumber(), { exact: true }).waitFor();
      await search.fill(`nobody.${tag}`);
      await search.press('Enter');
      await waitForText(ap, `No order matches “nobody.${tag}”.`);
      await checkScreen(ap, viewport, 'admin-11b-orders-none-found');
      await search.fill(`KAEUFER.${tag}`);
      await ap.getByRole('button', { name: 'Search', exact: true }).click();
      await table.getByText(paidNumber(), { exact: true }).waitFor();

      // Its details: what was bought, and the refund with its reason and who made it.
      await ap.getByRole('button', { name: `Details of order ${paidNumber()}` }).click();
      const details = ap.getByRole('dialog', { name: `Order ${paidNumber()}` });
      await details
        .getByRole('table')
        .getByRole('row', { name: /^Pro unlock/ })
        .waitFor();
      const refunds = details.getByRole('list', { name: 'Refunds' });
      await refunds.getByText(`by ${admin}`, { exact: false }).waitFor();
      await refunds.getByText('Reason: Late delivery').waitFor();
      await refunds.getByText('money only, the buyer kept what the order granted', { exact: false }).waitFor();
      await checkScreen(ap, viewport, 'admin-11c-order-details');
      await details.getByRole('button', { name: 'Close' }).click();
      const order = (await env.app.call('/api/admin/orders/list', {
        token: adminToken,
        userId: undefined,
      })) as unknown as {
        data: { orders: { iden: string; status: string; payment: { refundedAmount: number } }[] };
      };
      expect(order.data.orders.find((o) => o.iden === paidIden)).toMatchObject({
        status: 'paid',
        payment: { refundedAmount: 150 },
      });
    });

    it('picks a subscription period by name and uploads a product image with a preview', async () => {
      const alias = `quarterly-${viewport.name}`;
      await ap.goto('/admin?tab=products');
      await ap.getByRole('button', { name: 'New product' }).click();
      const dialog = ap.getByRole('dialog', { name: 'New product' });
      await fill(dialog, 'Alias', alias);
      await fill(dialog, /^Title/, 'Quarterly');
      await dialog.getByRole('tab', { name: 'German' }).click();
      await fill(dialog, 'Title (German)', 'Vierteljährlich');
      await dialog.getByRole('tab', { name: 'English' }).click();
      await fill(dialog, 'Price', '7.99');
      await dialog.getByRole('combobox', { name: 'Type' }).click();
      await ap.getByRole('option', { name: 'Subscription' }).click();
      await dialog.getByRole('combobox', { name: 'Subscription period' }).click();
      await ap.getByRole('option', { name: 'Every 3 months' }).click();

      const picture = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#1e5b4f' } })
        .png()
        .toBuffer();
      const chooser = ap.waitForEvent('filechooser');
      await dialog.getByText('Upload an image').click();
      await (await chooser).setFiles({ name: 'quarterly.png', mimeType: 'image/png', buffer: picture });
      await waitForText(ap, 'Image uploaded. Save the product to keep it.');
      const preview = dialog.getByRole('img', { name: 'Preview of the product image' });
      await preview.waitFor();
      // The picture loads after its element appears.
      await expect
        .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 60_000 })
        .toBe(640);
      await checkScreen(ap, viewport, 'admin-12-product-dialog');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await ap.getByRole('status').getByText('Product “Quarterly” created.').waitFor();
      await expectWithinScreen(ap.getByRole('table', { name: 'Products' }).getByRole('button'));

      const saved = (await adminProducts()).find((p) => p.alias === alias);
      expect(saved?.grants.period).toBe('P3M');
      expect(saved?.imageUrl).toMatch(/^\/api\/files\/download\/[A-Za-z0-9_-]+$/);
      const image = await fetch(`${env.url}${saved?.imageUrl ?? ''}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');

      // A custom period: ten days.
      await ap.getByRole('button', { name: 'Edit Quarterly' }).click();
      const edit = ap.getByRole('dialog', { name: 'Edit product' });
      await edit.getByRole('combobox', { name: 'Subscription period' }).click();
      await ap.getByRole('option', { name: 'Custom…' }).click();
      await fill(edit, 'Every', '10');
      await edit.getByRole('combobox', { name: 'Unit' }).click();
      await ap.getByRole('option', { name: 'days' }).click();
      await checkScreen(ap, viewport, 'admin-13-custom-period');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
      await ap.getByRole('status').getByText('Product “Quarterly” saved.').waitFor();
      expect((await adminProducts()).find((p) => p.alias === alias)?.grants.period).toBe('P10D');

      // The German buyer sees the German title.
      await bp.goto('/');
      await waitForText(bp, 'Vierteljährlich');
    });

    it('shows every admin tab and an order’s details in German, each axe-clean', async () => {
      await ap.goto('/admin?tab=products');
      await ap.getByRole('table', { name: 'Products' }).waitFor();
      await chooseLanguage(ap, 'Language', 'Deutsch');
      const tabs = [
        ['products', 'Produkte'],
        ['coupons', 'Gutscheine'],
        ['users', 'Nutzer'],
        ['orders', 'Bestellungen'],
        ['backups', 'Sicherungen'],
      ] as const;
      for (const [tab, name] of tabs) {
        await ap.goto(`/admin?tab=${tab}`);
        await ap.getByRole('tab', { name, selected: true }).waitFor();
        await checkScreen(ap, viewport, `admin-14-${tab}-de`);
      }
      await ap.goto('/admin?tab=orders');
      await ap.getByRole('button', { name: `Details der Bestellung ${paidNumber()}` }).click();
      const details = ap.getByRole('dialog', { name: `Bestellung ${paidNumber()}` });
      await details.getByRole('list', { name: 'Erstattungen' }).waitFor();
      await checkScreen(ap, viewport, 'admin-15-order-details-de');
      await details.getByRole('button', { name: 'Schließen' }).click();
      await chooseLanguage(ap, 'Sprache', 'English');
    });
  });
}
