import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fill, proveItsMe, signOut, waitForText } from './support/flows.js';
import { checkScreen, PASSWORD, patient, startEnv, viewports, type Env, screenshotIfFailed } from './support/env.js';

// WebAuthn needs a secure context and a relying-party id that is a host name: http://localhost is
// both, so the browser opens the app at localhost and PUBLIC_URL says the same.
describe('passkeys and account deletion in Chromium with a virtual authenticator', () => {
  const viewport = viewports[0];
  let env: Env;
  let ctx: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let origin: string;
  let authenticatorId: string;
  const tag = Date.now().toString(36);
  const email = `passkey.${tag}@example.test`;
  const admin = `admin.${tag}@example.test`;

  beforeAll(async () => {
    env = await startEnv(admin);
    origin = `http://localhost:${new URL(env.url).port}`;
    env.app.ctx.config.publicUrl = origin;
    ctx = patient(
      await env.browser.newContext({
        baseURL: origin,
        viewport: { width: viewport.width, height: viewport.height },
        serviceWorkers: 'block',
        locale: 'en-US',
      }),
    );
    page = await ctx.newPage();
    page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
    cdp = await ctx.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
  });
  afterAll(async () => {
    await env?.close();
  });
  afterEach((context) => screenshotIfFailed(context, { passkeys: page }));

  it('registers a passkey in the profile, signs out and signs in with it alone', async () => {
    await page.goto('/register');
    await fill(page, 'Name', 'Pat Passkey');
    await fill(page, 'E-mail', email);
    await fill(page, 'Password', PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await waitForText(page, 'Check your mail');

    await page.goto('/profile');
    await waitForText(page, 'No passkeys yet.');
    await fill(page, /^Name of the passkey/, 'This laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    // A session token alone adds no passkey: the password is asked for again.
    await proveItsMe(page, PASSWORD, 'Passkey “This laptop” added. You can now sign in with it.');
    await waitForText(page, 'Passkey “This laptop” added. You can now sign in with it.');
    const list = page.getByRole('list', { name: 'Passkeys' });
    await list.getByText('This laptop').waitFor();
    await expect.poll(() => list.getByText(/Last used never/).count()).toBe(1);
    await checkScreen(page, viewport, 'passkeys-01-profile');
    // The same screen on a phone: nothing scrolls sideways, axe finds nothing serious.
    const phone = viewports[1];
    await page.setViewportSize({ width: phone.width, height: phone.height });
    await checkScreen(page, phone, 'passkeys-01-profile');
    await page.setViewportSize({ width: viewport.width, height: viewport.height });

    // The authenticator holds one discoverable credential for this site, for this account.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => [c.rpId, c.isResidentCredential])).toEqual([['localhost', true]]);

    await signOut(page);
    await page.goto('/login');
    await checkScreen(page, viewport, 'passkeys-02-login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: /^Account of/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    await page.goto('/profile');
    await page
      .getByRole('list', { name: 'Passkeys' })
      .getByText(/Last used (?!never)/)
      .waitFor();
  });

  it('deletes the account from the profile; neither the password nor the passkey signs in afterwards', async () => {
    await page.goto('/profile');
    const zone = page.getByRole('region', { name: 'Delete account' });
    await zone.getByText(/Your orders and credit records/).waitFor();
    await zone.getByRole('button', { name: 'Delete my account' }).click();
    await zone.getByText('This is not the e-mail address of the account.').waitFor();
    await checkScreen(page, viewport, 'passkeys-03-delete');

    await fill(zone, /^Type your e-mail address/, email.toUpperCase());
    await zone.getByLabel('My password').check();
    await fill(zone, /^Current password/, PASSWORD);
    await zone.getByRole('button', { name: 'Delete my account' }).click();
    await waitForText(page, 'Your account is deleted');
    expect(new URL(page.url()).pathname).toBe('/goodbye');
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    await checkScreen(page, viewport, 'passkeys-04-goodbye');
    await env.smtp.next(email, /account has been deleted/);

    await page.goto('/login');
    await fill(page, 'E-mail', email);
    await fill(page, 'Password', PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
    await waitForText(page, 'Wrong e-mail or password.');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await waitForText(page, 'This passkey could not sign you in. It may have been removed from your account.');
    expect(await page.getByRole('button', { name: /^Account of/ }).count()).toBe(0);
  });
});
