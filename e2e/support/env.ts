import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect, type TestContext } from 'vitest';
import { startTestApp, type TestApp } from '../../packages/server/src/test-support/app.js';
import { FakePaymentwall } from '../../packages/server/src/test-support/fake-paymentwall.js';
import { FakeStripe, newWebhookSecret } from '../../packages/server/src/test-support/fake-stripe.js';
import { linkToken, startSmtp, type TestSmtp } from '../../packages/server/src/test-support/smtp.js';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.js';

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

/** The real server on a fresh SQLite database, mailing through a real SMTP server. */
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

/** Keys the server and the fake Paymentwall share (letters and digits, as Paymentwall's are). */
const PAYMENTWALL_KEYS = { projectKey: 'e2eproject0123', secretKey: 'e2esecret0123456789' };

/**
 * `env` adds server variables (smaller upload limits, ...). With `providers`, the card and payment-wall routes are on, pointed at local fakes of Stripe and
 * Paymentwall that pay through their own pages and tell the server as the real ones do (signed
 * webhooks, signed pingbacks from 127.0.0.1).
 */
export async function startEnv(
  adminEmail: string,
  options: { providers?: boolean; env?: Record<string, string> } = {},
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
  const app = await startTestApp({ listen: true, env, config: { webDist } });
  // The fakes learn where to send their notifications once the server listens.
  if (stripe) stripe.webhook = { url: `${app.url}/api/payments/webhook/stripe`, secret: webhookSecret };
  if (paymentwall) paymentwall.pingbackUrl = `${app.url}/api/payments/pingback/paymentwall`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
  });
  return {
    app,
    smtp,
    browser,
    url: app.url,
    ...(stripe ? { stripe } : {}),
    ...(paymentwall ? { paymentwall } : {}),
    async close() {
      await browser.close();
      await app.close();
      await stripe?.close();
      await paymentwall?.close();
      await smtp.close();
    },
  };
}

/** A fresh browser profile at the given size; service workers stay off so every test sees the network. */
export async function newContext(
  env: Env,
  viewport: Viewport,
  serviceWorkers: 'allow' | 'block' = 'block',
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await env.browser.newContext({
    ...options,
    baseURL: env.url,
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.isMobile,
    hasTouch: viewport.isMobile,
    serviceWorkers,
    locale: 'en-US',
  });
  // Waits end on what the page does; their limit catches a page that never does it, not a slow machine.
  context.setDefaultTimeout(60_000);
  return context;
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
  // A control's accessible name must contain its visible text (WCAG 2.5.3), so that people who speak
  // to their device can say what they see; axe keeps that rule among its experimental ones.
  // (`options` first: it replaces what `withTags` sets.)
  let axe = new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of options.exclude ?? []) axe = axe.exclude(selector);
  const results = await axe.analyze();
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

/** Follows the link of the next mail of that kind to `to`, answering the token in it. */
export async function mailedToken(env: Env, to: string, subject: RegExp, page: 'confirm' | 'reset'): Promise<string> {
  const mail = await env.smtp.next(to, subject);
  return linkToken(mail, page);
}
