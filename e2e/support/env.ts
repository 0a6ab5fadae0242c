import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect, type TestContext } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { FakePaymentwall } from '@till/test-support/fake-paymentwall';
import { FakeStripe, newWebhookSecret } from '@till/test-support/fake-stripe';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { CHROMIUM_FLAGS, CHROMIUM_HEADLESS_SHELL } from './chromium.js';

export const webDist = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
export const screensDir = fileURLToPath(new URL('../../test-output/screenshots', import.meta.url));

/**
 * After a test that failed: where each page stood and a screenshot of it (`test-output/screenshots/
 * <label>-FAILED-<test>.png`), named by the labels of `pages`. Nothing after a test that passed.
 */
export async function screenshotIfFailed(context: TestContext, pages: Record<string, Page | undefined>): Promise<void> {
  if (context.task.result?.state !== 'fail') return;
  const name = context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  mkdirSync(screensDir, { recursive: true });
  for (const [label, page] of Object.entries(pages)) {
    if (!page) continue;
    console.error(`[browser ${label}] failed at ${page.url()}`);
    await page.screenshot({ path: `${screensDir}/${label}-FAILED-${name}.png`, fullPage: true }).catch(() => undefined);
  }
}

export const viewports = [
  { name: 'desktop', width: 1280, height: 800, isMobile: false },
  { name: 'phone', width: 360, height: 640, isMobile: true },
] as const;
export type Viewport = (typeof viewports)[number];

export const PASSWORD = 'a long, uncommon passphrase';

/** The real server on a fresh SQLite database, mailing through a real SMTP server, and the worker's Chromium. */
export interface Env {
  app: TestApp;
  smtp: TestSmtp;
  browser: Browser;
  url: string;
  /** The card route's Stripe, when started with `providers`. */
  stripe?: FakeStripe;
  /** The payment wall's Paymentwall, when started with `providers`. */
  paymentwall?: FakePaymentwall;
  close(): Promise<void>;
}

let workerChromium: Promise<Browser> | undefined;

/**
 * The worker's Chromium, launched by its first file and kept for the files after it: a worker runs its
 * files one after another with the same modules (vitest.config.ts), and each file works in browser
 * profiles (contexts) of its own, which its `close` closes. A Chromium that crashed or was closed is
 * launched again; Playwright ends it when the worker exits.
 */
async function sharedChromium(): Promise<Browser> {
  const running = await workerChromium?.catch(() => undefined);
  if (running?.isConnected()) return running;
  workerChromium = chromium.launch({ executablePath: CHROMIUM_HEADLESS_SHELL, args: CHROMIUM_FLAGS });
  return workerChromium;
}

/** Keys the server and the fake Paymentwall share (letters and digits, as Paymentwall's are). */
const PAYMENTWALL_KEYS = { projectKey: 'e2eproject0123', secretKey: 'e2esecret0123456789' };

/**
 * `env` adds server variables (smaller upload limits, ...); `now` is the server's clock. With `providers`, the card and payment-wall routes are on, pointed at local fakes of Stripe and
 * Paymentwall that pay through their own pages and tell the server as the real ones do (signed
 * webhooks, signed pingbacks from 127.0.0.1).
 */
export async function startEnv(
  adminEmail: string,
  options: { providers?: boolean; env?: Record<string, string>; now?: () => number } = {},
): Promise<Env> {
  const smtp = await startSmtp();
  let stripe: FakeStripe | undefined;
  let paymentwall: FakePaymentwall | undefined;
  const env: Record<string, string> = { SMTP_URL: smtp.url, ADMIN_EMAILS: adminEmail, ...options.env };
  const webhookSecret = newWebhookSecret();
  if (options.providers) {
    stripe = new FakeStripe();
    await stripe.start();
    paymentwall = new FakePaymentwall(PAYMENTWALL_KEYS);
    await paymentwall.start();
    Object.assign(env, {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: stripe.url,
      PAYMENTWALL_PROJECT_KEY: PAYMENTWALL_KEYS.projectKey,
      PAYMENTWALL_SECRET_KEY: PAYMENTWALL_KEYS.secretKey,
      PAYMENTWALL_API_URL: paymentwall.widgetBaseUrl,
      PAYMENTWALL_PINGBACK_IPS: '127.0.0.1',
    });
  }
  const app = await startTestApp({
    listen: true,
    env,
    config: { webDist },
    ...(options.now ? { now: options.now } : {}),
  });
  // The fakes learn where to send their notifications once the server listens.
  if (stripe) stripe.webhook = { url: `${app.url}/api/payments/webhook/stripe`, secret: webhookSecret };
  if (paymentwall) paymentwall.pingbackUrl = `${app.url}/api/payments/pingback/paymentwall`;
  const browser = await sharedChromium();
  return {
    app,
    smtp,
    browser,
    url: app.url,
    ...(stripe ? { stripe } : {}),
    ...(paymentwall ? { paymentwall } : {}),
    async close() {
      // The file's profiles, with their pages and service workers; the browser stays for the next file.
      await Promise.all(browser.contexts().map((context) => context.close()));
      await app.close();
      await stripe?.close();
      await paymentwall?.close();
      await smtp.close();
    },
  };
}

/** Waits end on what the page does; their limit catches a page that never does it, not a slow machine. */
export function patient(context: BrowserContext): BrowserContext {
  context.setDefaultTimeout(60_000);
  return context;
}

/** A fresh browser profile at the given size; service workers stay off so every test sees the network. */
export async function newContext(
  env: Env,
  viewport: Viewport,
  serviceWorkers: 'allow' | 'block' = 'block',
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return patient(
    await env.browser.newContext({
      locale: 'en-US',
      ...options,
      baseURL: env.url,
      viewport: { width: viewport.width, height: viewport.height },
      isMobile: viewport.isMobile,
      hasTouch: viewport.isMobile,
      serviceWorkers,
    }),
  );
}

/** Registers `email` through the API and confirms it through the mailed link. */
export async function confirmedAccount(env: Env, email: string, name: string): Promise<void> {
  expect((await env.app.call('/api/register', { email, password: PASSWORD, name, lang: 'en' })).code).toBe(900);
  const confirm = await mailedToken(env, email, /Confirm your e-mail/, 'confirm');
  expect((await env.app.app.inject({ method: 'GET', url: `/api/confirmUser/${confirm}` })).json().code).toBe(900);
}

/**
 * A browser profile signed in as `email` (a session from the API, stored where the app keeps it,
 * once; the stored level is what the server said at sign-in). Answers the profile, its page and the
 * session's token.
 */
export async function signedInProfile(
  env: Env,
  viewport: Viewport,
  email: string,
  options: BrowserContextOptions = {},
): Promise<{ ctx: BrowserContext; page: Page; token: string }> {
  const login = await env.app.call('/api/login', { email, password: PASSWORD });
  expect(login.code).toBe(900);
  const ctx = await newContext(env, viewport, 'block', options);
  const state = {
    token: login.token,
    issuedAt: Math.floor(Date.now() / 1000),
    expire: login.expire,
    level: (login.user as { level: number }).level,
    user: login.user,
  };
  await ctx.addInitScript((stored: string) => {
    if (!localStorage.getItem('till.session')) localStorage.setItem('till.session', stored);
  }, JSON.stringify(state));
  const page = await ctx.newPage();
  page.on('pageerror', (error) => console.error(`[browser ${viewport.name}] ${error.message}`));
  return { ctx, page, token: String(login.token) };
}

/** A confirmed account `email` (`confirmedAccount`) and a browser profile signed in as it (`signedInProfile`). */
export async function signedInAccount(
  env: Env,
  viewport: Viewport,
  email: string,
  name: string,
  options: BrowserContextOptions = {},
): Promise<{ ctx: BrowserContext; page: Page; token: string }> {
  await confirmedAccount(env, email, name);
  return signedInProfile(env, viewport, email, options);
}

/**
 * Keeps a screenshot of the screen and checks it with axe: no serious or critical violation. Also
 * checks the page does not scroll sideways (the phone-size requirement). `exclude` leaves parts
 * out of axe's check: a provider's page framed in the app is the provider's, not the app's.
 */
export async function checkScreen(
  page: Page,
  viewport: Viewport,
  name: string,
  options: { exclude?: string[] } = {},
): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Dialogs and menus fade in: axe must see the finished screen, not a half-transparent one.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  mkdirSync(screensDir, { recursive: true });
  await page.screenshot({ path: `${screensDir}/${viewport.name}-${name}.png`, fullPage: true });
  const results = await axeResults(page, options.exclude ?? []);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe on ${name} at ${viewport.name}`,
  ).toEqual([]);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `horizontal scroll on ${name} at ${viewport.name}`).toBeLessThanOrEqual(0);
}

/** The axe-core that `AxeBuilder` brings (its own version), so that both ways below apply the same rules. */
const axeSource = (
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))('axe-core') as typeof axe
).source;

/**
 * What axe finds on the page. A control's accessible name must contain its visible text (WCAG 2.5.3),
 * so that people who speak to their device can say what they see; axe keeps that rule among its
 * experimental ones, so it is switched on here.
 */
const AXE_OPTIONS: axe.RunOptions = {
  rules: { 'label-content-name-mismatch': { enabled: true } },
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  // Only the violations are read: axe then lists one element, not every one, for the rules that pass
  // or do not apply, and checks the same rules in less time (a sixth less on the journey's screens).
  resultTypes: ['violations'],
};

/**
 * Runs axe on the page. A page of one frame (the app's pages) keeps axe from one check to the next: it
 * is put in once per document and run there with `axe.run`. `AxeBuilder` puts it in again for every
 * check and finishes each run in a fresh page of its own, seconds a check for the same rules and
 * results. A page with frames (a provider's page framed in the app) goes through `AxeBuilder`, which
 * checks each frame in its own origin. `exclude` leaves parts out, as `AxeBuilder.exclude` does.
 */
async function axeResults(page: Page, exclude: string[]): Promise<axe.AxeResults> {
  if (page.frames().length > 1) {
    let builder = new AxeBuilder({ page, axeSource }).options(AXE_OPTIONS);
    for (const selector of exclude) builder = builder.exclude(selector);
    return builder.analyze();
  }
  const loaded = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!loaded) await page.evaluate(axeSource);
  // The page's axe, typed loosely: the page's own types do not cross into this function.
  type PageAxe = { run(context: unknown, options: unknown): Promise<axe.AxeResults> };
  return page.evaluate(
    ({ exclude, options }) => (window as unknown as { axe: PageAxe }).axe.run({ include: [], exclude }, options),
    { exclude, options: AXE_OPTIONS as unknown },
  );
}

/** Follows the link of the next mail of that kind to `to`, answering the token in it. */
export async function mailedToken(env: Env, to: string, subject: RegExp, page: 'confirm' | 'reset'): Promise<string> {
  const mail = await env.smtp.next(to, subject);
  return linkToken(mail, page);
}
