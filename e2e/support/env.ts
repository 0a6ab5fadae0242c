import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from '../../packages/server/src/test-support/app.js';
import { linkToken, startSmtp, type TestSmtp } from '../../packages/server/src/test-support/smtp.js';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.js';

export const webDist = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
export const screensDir = fileURLToPath(new URL('../../test-output/screens', import.meta.url));

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
  close(): Promise<void>;
}

export async function startEnv(adminEmail: string): Promise<Env> {
  const smtp = await startSmtp();
  const app = await startTestApp({
    listen: true,
    env: { SMTP_URL: smtp.url, ADMIN_EMAILS: adminEmail },
    config: { webDist },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
  });
  return {
    app,
    smtp,
    browser,
    url: app.url,
    async close() {
      await browser.close();
      await app.close();
      await smtp.close();
    },
  };
}

/** A fresh browser profile at the given size; service workers stay off so every test sees the network. */
export async function newContext(
  env: Env,
  viewport: Viewport,
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<BrowserContext> {
  return env.browser.newContext({
    baseURL: env.url,
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.isMobile,
    hasTouch: viewport.isMobile,
    serviceWorkers,
    locale: 'en-US',
  });
}

/**
 * Keeps a screenshot of the screen and checks it with axe: no serious or critical violation. Also
 * checks the page does not scroll sideways (the phone-size requirement).
 */
export async function checkScreen(page: Page, viewport: Viewport, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Dialogs and menus fade in: axe must see the finished screen, not a half-transparent one.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  mkdirSync(screensDir, { recursive: true });
  await page.screenshot({ path: `${screensDir}/${viewport.name}-${name}.png`, fullPage: true });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
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
