import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { patient, startEnv, type Env } from '../support/env.js';
import { API_PLACEHOLDER, ensurePhoneBuild, phoneDist } from './build.js';
import { NativeSide, PHONE_ORIGIN } from './native-side.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.woff2': 'font/woff2',
};

/** The server on 127.0.0.1, allowing the shell's origin as the phone apps need. */
export function startPhoneEnv(
  adminEmail: string,
  options: { providers?: boolean; env?: Record<string, string> } = {},
): Promise<Env> {
  return startEnv(adminEmail, { ...options, env: { CORS_ORIGINS: PHONE_ORIGIN, ...options.env } });
}

export interface Phone {
  ctx: BrowserContext;
  page: Page;
  native: NativeSide;
  /** Opens an app route, as the shell's WebView loads the app and the router shows the route. */
  open(path?: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The phone app: the phone build served from `https://localhost` (as Android's shell serves its
 * bundled assets, every unknown path answering index.html), the bridge stand-in injected into
 * every page, and the API on the test server's own origin.
 */
export async function openPhone(env: Env, native = new NativeSide()): Promise<Phone> {
  ensurePhoneBuild();
  const ctx = patient(
    await env.browser.newContext({
      viewport: { width: 360, height: 640 },
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
      locale: 'en-US',
    }),
  );
  // The test server is on this machine's loopback; a phone's server is on the internet, which the
  // WebView reaches without asking. The permission puts the test where the phone is.
  await ctx.grantPermissions(['local-network-access'], { origin: PHONE_ORIGIN });
  await ctx.exposeBinding('__tillNative', ({ page }, call) => native.receive(page, call));
  await ctx.addInitScript({ content: native.initScript() });
  await ctx.route(`${PHONE_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    // Files the app reads back from the device (a picked photo's webPath).
    if (url.pathname.startsWith('/_capacitor_file_/')) {
      const file = native.files.get(url.pathname.slice('/_capacitor_file_'.length));
      if (!file) return route.fulfill({ status: 404 });
      return route.fulfill({ body: Buffer.from(file.data, 'base64'), contentType: 'image/jpeg' });
    }
    const path = join(phoneDist, decodeURIComponent(url.pathname));
    const asset = path.startsWith(phoneDist) && existsSync(path) && statSync(path).isFile() ? path : null;
    const file = asset ?? join(phoneDist, 'index.html');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const bytes = readFileSync(file);
    const body = /^text\/|javascript|json/.test(type)
      ? Buffer.from(bytes.toString('utf8').replaceAll(API_PLACEHOLDER, env.url))
      : bytes;
    return route.fulfill({ status: 200, body, contentType: type });
  });
  const page = await ctx.newPage();
  return {
    ctx,
    page,
    native,
    async open(path = '/') {
      await page.goto(`${PHONE_ORIGIN}${path}`);
    },
    close: () => ctx.close(),
  };
}
