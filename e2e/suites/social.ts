import { generateKeyPairSync } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestOp, type TestOp } from '@till/test-support/oidc-provider';
import { chooseLanguage, fill, signIn, signOut } from '../support/flows.js';
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
 * The sign-in buttons of social sign-in, in English and German: a web sign-in through a real OpenID
 * provider (`oidc-provider`, started here) that makes the account and comes back signed in, and the
 * page a refused return lands on.
 */
export function social(viewport: Viewport): void {
  describe(`social sign-in at ${viewport.name} size`, () => {
    let env: Env;
    let corp: TestOp;
    let apple: TestOp;
    let ctx: BrowserContext;
    let page: Page;
    const tag = `${viewport.name}${Date.now().toString(36)}`;

    beforeAll(async () => {
      corp = await startTestOp();
      const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      apple = await startTestOp({
        appleSecret: {
          teamId: 'TEAMID1234',
          keyId: 'KEYID12345',
          clientId: 'com.example.till.web',
          publicKey: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
          staticSecret: 'apple-static',
        },
      });
      env = await startEnv(`admin.${tag}@example.test`, {
        env: {
          SOCIAL_OIDC_PROVIDERS: 'corp',
          SOCIAL_OIDC_CORP_ISSUER: corp.issuer,
          SOCIAL_OIDC_CORP_CLIENT_ID: 'till-web',
          SOCIAL_OIDC_CORP_CLIENT_SECRET: 'web-secret',
          SOCIAL_OIDC_CORP_NAME: 'Corp ID',
          SOCIAL_APPLE_ISSUER: apple.issuer,
          SOCIAL_APPLE_CLIENT_ID: 'com.example.till.web',
          SOCIAL_APPLE_TEAM_ID: 'TEAMID1234',
          SOCIAL_APPLE_KEY_ID: 'KEYID12345',
          SOCIAL_APPLE_PRIVATE_KEY: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      });
      const callback = `${env.url}/api/social/callback`;
      corp.setClients([{ client_id: 'till-web', client_secret: 'web-secret', redirect_uris: [callback] }]);
      apple.setClients([
        { client_id: 'com.example.till.web', client_secret: 'apple-static', redirect_uris: [callback] },
      ]);
      ctx = await newContext(env, viewport);
      page = await ctx.newPage();
      page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
    });
    afterAll(async () => {
      await env?.close();
      await corp?.close();
      await apple?.close();
    });
    afterEach((context) => screenshotIfFailed(context, { [`${viewport.name}-social`]: page }));

    it('offers a button per provider, in English and German', async () => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Continue with Corp ID' }).waitFor();
      await page.getByRole('button', { name: 'Continue with Apple' }).waitFor();
      await checkScreen(page, viewport, 's01-social-buttons-en');
      await chooseLanguage(page, 'Language', 'Deutsch', false);
      await page.getByRole('button', { name: 'Weiter mit Corp ID' }).waitFor();
      await page.getByRole('button', { name: 'Weiter mit Apple' }).waitFor();
      await checkScreen(page, viewport, 's02-social-buttons-de');
      await chooseLanguage(page, 'Sprache', 'English', false);
    });

    it('makes an account through the provider and comes back signed in', async () => {
      corp.nextPerson = { sub: `e2e-${tag}`, email: `social.${tag}@example.test`, email_verified: true, name: 'Noor' };
      await page.goto('/login');
      await page.getByRole('button', { name: 'Continue with Corp ID' }).click();
      await page.getByRole('button', { name: 'Account of Noor' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.goto('/profile');
      await page.getByRole('heading', { name: 'Sign-in providers' }).waitFor();
      await page.getByRole('button', { name: 'Remove sign-in with Corp ID' }).waitFor();
      await checkScreen(page, viewport, 's03-social-profile');
      await page.getByRole('button', { name: 'Remove sign-in with Corp ID' }).click();
      await page.getByText('This is your only way to sign in.').waitFor();
    });

    it('connects a provider from the profile after the password, and refuses one linked elsewhere', async () => {
      const register = async (email: string, name: string) => {
        const res = await fetch(`${env.url}/api/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: PASSWORD, name, lang: 'en' }),
        });
        expect(((await res.json()) as { code: number }).code).toBe(900);
      };
      const owner = `connect.${tag}@example.test`;
      const second = `connect2.${tag}@example.test`;
      await register(owner, 'Oda');
      await register(second, 'Per');
      const own = await newContext(env, viewport);
      const tab = await own.newPage();
      try {
        await tab.goto('/login');
        await signIn(tab, owner, PASSWORD);
        await tab.getByRole('button', { name: 'Account of Oda' }).waitFor();
        await tab.goto('/profile');
        await tab.getByText('No provider linked yet. Connect one below to sign in with it.').waitFor();
        await tab.getByRole('button', { name: 'Connect Apple' }).waitFor();
        await checkScreen(tab, viewport, 's06-social-connect-en');
        // The provider account has an address of its own: linking does not need it to match.
        corp.nextPerson = { sub: `e2e-connect-${tag}`, email: `work.${tag}@example.test`, email_verified: true };
        await tab.getByRole('button', { name: 'Connect Corp ID' }).click();
        const dialog = tab.getByRole('dialog', { name: "Confirm it's you" });
        await fill(dialog, 'Password', PASSWORD);
        await dialog.getByRole('button', { name: 'Confirm' }).click();
        await tab.getByText('Done: you can now sign in with Corp ID.').waitFor();
        await tab.getByRole('button', { name: 'Remove sign-in with Corp ID' }).waitFor();
        await tab.getByText(`Corp ID · work.${tag}@example.test`).waitFor();
        await tab.getByText('Sign-in with corp linked').waitFor();
        // The ticket left the address at once.
        expect(new URL(tab.url()).hash).toBe('');
        await checkScreen(tab, viewport, 's07-social-connected-en');
        await chooseLanguage(tab, 'Language', 'Deutsch', false);
        await tab.getByRole('button', { name: 'Apple verbinden' }).waitFor();
        await tab.getByRole('button', { name: 'Anmeldung mit Corp ID entfernen' }).waitFor();
        await checkScreen(tab, viewport, 's08-social-connected-de');
        await chooseLanguage(tab, 'Sprache', 'English', false);
        await signOut(tab);

        await tab.goto('/login');
        await signIn(tab, second, PASSWORD);
        await tab.getByRole('button', { name: 'Account of Per' }).waitFor();
        await tab.goto('/profile');
        await tab.getByRole('button', { name: 'Connect Corp ID' }).click();
        await fill(dialog, 'Password', PASSWORD);
        await dialog.getByRole('button', { name: 'Confirm' }).click();
        await tab.getByText('This provider account is linked to another Till account already.').waitFor();
        await tab.getByText('No provider linked yet. Connect one below to sign in with it.').waitFor();
        await checkScreen(tab, viewport, 's09-social-connect-refused-en');
      } finally {
        await own.close();
      }
    });

    it('says why a return was refused, in German too', async () => {
      const signedOut = await newContext(env, viewport);
      const other = await signedOut.newPage();
      try {
        await other.goto('/social/finish#error=denied');
        await other.getByText('The sign-in was cancelled at the provider.').waitFor();
        await checkScreen(other, viewport, 's04-social-refused-en');
        await chooseLanguage(other, 'Language', 'Deutsch', false);
        await other.getByText('Die Anmeldung wurde beim Anbieter abgebrochen.').waitFor();
        await checkScreen(other, viewport, 's05-social-refused-de');
      } finally {
        await signedOut.close();
      }
    });
  });
}
