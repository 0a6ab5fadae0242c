import type { ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, startEnv, viewports, type Env } from './support/env.js';

describe('the installable app', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv('nobody@example.test');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('has a manifest with icons and a worker that caches the app shell', async () => {
    const ctx = await newContext(env, viewports[1], 'allow');
    const page = await ctx.newPage();
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const manifest = (await (await page.request.get(href!)).json()) as {
      name: string;
      display: string;
      icons: { sizes: string }[];
    };
    expect(manifest.name).toBe('Till');
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${env.url}/`);
    const cachedPaths = () =>
      page.evaluate(async () => {
        const names = await caches.keys();
        const all = await Promise.all(names.map(async (n) => (await (await caches.open(n)).keys()).map((r) => r.url)));
        // Workbox keys its precache by URL plus a revision parameter.
        return all.flat().map((u) => new URL(u).pathname);
      });
    await expect.poll(cachedPaths, { timeout: 60_000 }).toContain('/index.html');
    const paths = await cachedPaths();
    expect(paths.some((p) => /^\/assets\/index-.*\.js$/.test(p))).toBe(true);
    await ctx.close();
  });

  it('reports a worker script served with the wrong type and unregisters the worker', async () => {
    const ctx = await newContext(env, viewports[0], 'allow');
    const page = await ctx.newPage();
    await page.goto('/');
    await page.evaluate(async () => navigator.serviceWorker.ready);
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    // The worker script now comes back as an HTML page, as a misconfigured host would serve it.
    await ctx.route('**/sw.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>' }),
    );
    await page.reload();
    await expect.poll(() => errors.join('\n'), { timeout: 60_000 }).toMatch(/offline support is off: .*not JavaScript/);
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), {
        timeout: 60_000,
      })
      .toBe(0);
    await ctx.close();
  });

  it('shows the catalog from the page itself on a first visit, and asks for it when the page comes from the worker', async () => {
    const ctx = await newContext(env, viewports[1], 'allow');
    const page = await ctx.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/store/products') asked.push(r.url());
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    expect(asked).toEqual([]);
    // Once the worker has cached the shell and controls the page, the shell comes from its cache,
    // without the catalog, and the app asks for the products.
    await page.evaluate(async () => navigator.serviceWorker.ready);
    const shellCached = () =>
      page.evaluate(async () => {
        for (const name of await caches.keys()) {
          const keys = await (await caches.open(name)).keys();
          if (keys.some((r) => new URL(r.url).pathname === '/index.html')) return true;
        }
        return false;
      });
    await expect.poll(shellCached, { timeout: 60_000 }).toBe(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await page.locator('#till-catalog').count()).toBe(0);
    expect(asked.length).toBeGreaterThan(0);
    await ctx.close();
  });
});
