import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailedToken, PASSWORD, patient, screenshotIfFailed, type Env } from '../support/env.js';
import { signIn, waitForText } from '../support/flows.js';
import { PHONE_ORIGIN } from './native-side.js';
import { openPhone, startPhoneEnv, type Phone } from './support.js';

// The server's checkout pages are paid in the system browser, never inside the app: the app opens
// them with the Browser plugin, shows the order meanwhile, and the page's return link (an app link)
// brings the buyer back.

describe('paying a web route from the phone app', () => {
  let env: Env;
  let phone: Phone;
  let system: BrowserContext;
  const user = 'paul@example.test';

  beforeAll(async () => {
    // Web routes in the app are for a server that shows them there (APP_WEB_PAYMENTS).
    env = await startPhoneEnv('nobody@example.test', { env: { APP_WEB_PAYMENTS: 'shown' } });
    expect(
      (await env.app.call('/api/register', { email: user, password: PASSWORD, name: 'Paul', lang: 'en' })).code,
    ).toBe(900);
    const token = await mailedToken(env, user, /Confirm your e-mail/, 'confirm');
    expect((await env.app.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json().code).toBe(900);
    phone = await openPhone(env);
    // The phone's own browser, apart from the app's WebView.
    system = patient(await env.browser.newContext({ locale: 'en-US' }));
    await phone.open('/login');
    await signIn(phone.page, user, PASSWORD);
    await phone.page.getByRole('button', { name: /^Account of/ }).waitFor();
  });
  afterEach(async (context) => screenshotIfFailed(context, { phone: phone?.page }));
  afterAll(async () => {
    await system?.close();
    await phone?.close();
    await env?.close();
  });

  it('opens the sandbox page in the system browser, follows the order, and comes back through the return link', async () => {
    const { page, native } = phone;
    await page.goto(`${PHONE_ORIGIN}/`);
    await page.getByRole('button', { name: 'Add to cart: Pro unlock' }).click();
    await page.goto(`${PHONE_ORIGIN}/cart`);
    await page.getByRole('link', { name: 'Checkout' }).click();
    await page.getByRole('radio', { name: /Sandbox checkout/ }).check();
    await page.getByRole('button', { name: 'Buy', exact: true }).click();

    // The app stays in its own page, on the order, and the system browser shows the payment page.
    await page.waitForURL(/^https:\/\/localhost\/orders\/[^/]+$/);
    const iden = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await expect.poll(() => native.browserOpened.length).toBe(1);
    const payUrl = native.browserOpened[0]!;
    expect(payUrl.startsWith(`${env.url}/api/pay/default/${encodeURIComponent(iden)}?`)).toBe(true);
    expect(native.browserOpen).toBe(true);

    // Paid in the system browser, whose page returns to PUBLIC_URL/orders/{iden} there.
    const browserPage = await system.newPage();
    await browserPage.goto(payUrl);
    // The address the page returns to is what Android hands the app (it opens the app, not the page).
    const back = browserPage.waitForRequest(
      (r) => r.isNavigationRequest() && new URL(r.url()).pathname.startsWith('/orders/'),
    );
    await browserPage.getByRole('button', { name: /^Pay / }).click();
    const returned = (await back).url();
    expect(returned).toBe(`${env.url}/orders/${encodeURIComponent(iden)}`);

    // The app's order page follows the order while the browser is still open.
    await waitForText(page, 'Paid. You now have:', 20_000);
    expect(native.browserOpen).toBe(true);

    // Android hands the return link to the app: the browser closes, the order page stays.
    await native.openUrl(returned);
    await expect.poll(() => native.browserOpen).toBe(false);
    expect(new URL(page.url()).pathname).toBe(`/orders/${encodeURIComponent(iden)}`);
  });
});
