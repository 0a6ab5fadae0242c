import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Waits until the locator's text matches, polling (playwright-core has no web-first assertions). */
export async function waitForText(page: Page, text: string | RegExp, timeout = 60_000): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible', timeout });
}

/** The text box with that label (forms carry labels too, so the match is narrowed to fields). */
export function field(scope: Page | Locator, label: string | RegExp): Locator {
  return scope.locator('input:not([type=hidden]), textarea').and(scope.getByLabel(label)).first();
}

export async function fill(scope: Page | Locator, label: string | RegExp, value: string): Promise<void> {
  await field(scope, label).fill(value);
}

/**
 * Answers the dialog that asks for the password again before a credential change (the server's 914),
 * when it comes: a session that proved it within the last minutes is not asked, and the change shows
 * `done` at once.
 */
export async function proveItsMe(page: Page, password: string, done: string | RegExp): Promise<void> {
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  const asked = await Promise.race([
    dialog.waitFor({ timeout: 60_000 }).then(() => true),
    page
      .getByText(done)
      .first()
      .waitFor({ timeout: 60_000 })
      .then(() => false),
  ]);
  if (!asked) return;
  await fill(dialog, 'Password', password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Signs in on the sign-in page (or dialog) that is showing. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await fill(page, 'E-mail', email);
  await fill(page, 'Password', password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
}

/** Signs out through the account menu. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account of/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
}

/** Picks the payment route, presses Buy, and answers once the browser is on the sandbox checkout page. */
export async function buyWithDefault(page: Page): Promise<void> {
  await page.getByRole('radio', { name: /Sandbox checkout/ }).check();
  await page.getByRole('button', { name: 'Buy', exact: true }).click();
  await page.waitForURL(/\/api\/pay\/default\//, { timeout: 60_000 });
}

/** Pays on the sandbox checkout page and waits for the order page to say Paid. */
export async function payOnSandbox(page: Page): Promise<string> {
  // Paying on the page brings the buyer back to the order page by itself.
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(/\/orders\/[^/]+$/, { timeout: 60_000 });
  await waitForText(page, 'Paid. You now have:', 60_000);
  const iden = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  expect(iden).not.toBe('');
  return iden;
}

export async function addToCartFromCatalog(page: Page, title: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: `Add to cart: ${title}` }).click();
}

/**
 * Chooses a language in the app's bar (the globe button, named in the language shown now); signed
 * in, waits for the account to keep it.
 */
export async function chooseLanguage(
  page: Page,
  now: 'Language' | 'Sprache',
  to: 'English' | 'Deutsch',
  signedIn = true,
): Promise<void> {
  const saved = signedIn ? page.waitForResponse((r) => r.url().endsWith('/api/auth/updateInfo')) : null;
  await page.getByRole('banner').getByRole('button', { name: now, exact: true }).click();
  await page.getByRole('menuitem', { name: to }).click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, to === 'Deutsch' ? 'de' : 'en');
  if (saved) expect((await (await saved).json()) as { code: number }).toMatchObject({ code: 900 });
}
