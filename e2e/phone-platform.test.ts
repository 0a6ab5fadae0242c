import { readFile } from 'node:fs/promises';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedToken, newContext, PASSWORD, startEnv, viewports, type Env } from './support/env.js';
import { addToCartFromCatalog, signIn, waitForText } from './support/flows.js';

// The platform's web side in Chromium (the same interface the phone app implements natively):
// saving a file, picking a photo, config files and the resume event.
describe("the platform's web side", () => {
  let env: Env;
  let ctx: BrowserContext;
  let page: Page;
  const user = 'phone@example.test';
  const warnings: string[] = [];

  beforeAll(async () => {
    env = await startEnv('nobody@example.test');
    expect(
      (await env.app.call('/api/register', { email: user, password: PASSWORD, name: 'Pia', lang: 'en' })).code,
    ).toBe(900);
    const token = await mailedToken(env, user, /Confirm your e-mail/, 'confirm');
    expect((await env.app.app.inject({ method: 'GET', url: `/api/confirmUser/${token}` })).json().code).toBe(900);
    ctx = await newContext(env, viewports[0], 'block', { acceptDownloads: true });
    page = await ctx.newPage();
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.goto('/login');
    await signIn(page, user, PASSWORD);
    await page.getByRole('button', { name: /^Account of/ }).waitFor();
  });
  afterAll(async () => {
    await ctx?.close();
    await env?.close();
  });

  it('uploads a picked 4000 x 3000 photo at no more than 1024 x 768, and saves it back as a download', async () => {
    const big = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#1e5b4f' } })
      .jpeg()
      .toBuffer();
    await page.goto('/files');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload a photo' }).click();
    await (await chooser).setFiles({ name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: big });
    await waitForText(page, '1 file uploaded.');
    await page.getByRole('button', { name: 'Download holiday.jpg' }).waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download holiday.jpg' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('holiday.jpg');
    await waitForText(page, 'holiday.jpg is in your downloads');
    const meta = await sharp(await readFile(await saved.path())).metadata();
    expect(meta.width).toBeLessThanOrEqual(1024);
    expect(meta.height).toBeLessThanOrEqual(768);
    expect([meta.width, meta.height]).toEqual([1024, 768]);
  });

  it('keeps a config file across a reload, and replaces a corrupt one by the defaults', async () => {
    await addToCartFromCatalog(page, 'Pro unlock');
    await page.goto('/cart');
    await page.getByRole('link', { name: 'Checkout' }).click();
    // The sandbox comes first; the route chosen instead is kept in config file checkout.json.
    await expect(page.getByRole('radio', { name: /Sandbox checkout/ }).isChecked()).resolves.toBe(true);
    await page.getByRole('radio', { name: /^Credits/ }).check();
    const configText = () =>
      page.evaluate(
        () =>
          new Promise<unknown>((resolve, reject) => {
            const req = indexedDB.open('till-config', 1);
            req.onsuccess = () => {
              const get = req.result.transaction('files').objectStore('files').get('checkout.json');
              get.onsuccess = () => {
                req.result.close();
                resolve(get.result);
              };
              get.onerror = () => reject(get.error);
            };
            req.onerror = () => reject(req.error);
          }),
      );
    await expect.poll(configText).toBe('{"provider":"credits"}');
    await page.reload();
    await expect.poll(() => page.getByRole('radio', { name: /^Credits/ }).isChecked()).toBe(true);
    await expect.poll(configText).toBe('{"provider":"credits"}');

    // A file cut short, as a crash in the middle of a write would leave it.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const req = indexedDB.open('till-config', 1);
          req.onsuccess = () => {
            const tx = req.result.transaction('files', 'readwrite');
            tx.objectStore('files').put('{"provider":"cre', 'checkout.json');
            tx.oncomplete = () => {
              req.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
          req.onerror = () => reject(req.error);
        }),
    );
    warnings.length = 0;
    await page.reload();
    await page.getByRole('radio', { name: /Sandbox checkout/ }).waitFor();
    await expect.poll(configText).toBe('{}');
    await expect(page.getByRole('radio', { name: /Sandbox checkout/ }).isChecked()).resolves.toBe(true);
    expect(warnings.join('\n')).toMatch(/Config file checkout\.json is not JSON .*replaced by the defaults/);
  });

  it('refreshes the catalog when the app comes back to the foreground', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Add to cart: 100 credits' }).waitFor();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/store/products')) asked.push(r.url());
    });
    // The catalog came with the page: nothing is asked for until the app is hidden and shown again.
    await page.waitForTimeout(500);
    expect(asked).toEqual([]);
    // A product renamed while the app was away shows once it is back.
    await env.app.db.kysely
      .updateTable('products')
      .set({ title: '100 credits, now renamed' })
      .where('id', '=', 'credits-100')
      .execute();
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((s) => {
        Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    await setVisibility('hidden');
    await setVisibility('visible');
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Add to cart: 100 credits, now renamed' }).waitFor();
  });
});
