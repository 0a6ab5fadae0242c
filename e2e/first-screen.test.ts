import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, startEnv, viewports, type Env } from './support/env.js';

// The SDK's wire layer (axios) is left off the first screen: the catalog is drawn from the page's
// own copy, so nothing is called until the visitor does something.
describe('the first screen', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv('nobody@example.test');
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Every script the page fetches, with whether it holds axios (its error class names itself). */
  function watchScripts(page: Page) {
    const scripts: { path: string; axios: boolean }[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script') return;
      const path = new URL(res.url()).pathname;
      pending.push(
        res.body().then(
          (body) => void scripts.push({ path, axios: body.toString('utf8').includes('ERR_BAD_RESPONSE') }),
          () => undefined,
        ),
      );
    });
    return {
      async wireLayer() {
        await Promise.all(pending);
        return scripts.filter((s) => s.axios).map((s) => s.path);
      },
      async all() {
        await Promise.all(pending);
        return scripts.map((s) => s.path);
      },
    };
  }

  it('loads the wire layer only once the visitor touches the page, and any other page loads it at once', async () => {
    const ctx = await newContext(env, viewports[1]);
    const page = await ctx.newPage();
    const scripts = watchScripts(page);
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    expect((await scripts.all()).length).toBeGreaterThan(3);
    expect(await scripts.wireLayer()).toEqual([]);

    // The first touch starts the load, ahead of the call it leads to.
    await page.keyboard.press('Tab');
    await expect.poll(() => scripts.wireLayer()).toHaveLength(1);

    // Any other page starts the load at once, beside its own chunk.
    const other = await ctx.newPage();
    const otherScripts = watchScripts(other);
    await other.goto('/login', { waitUntil: 'networkidle' });
    expect(await otherScripts.wireLayer()).toHaveLength(1);
    await ctx.close();
  });

  it('says it cannot reach the server when the wire layer cannot be fetched, and loads it on Try again', async () => {
    const ctx = await newContext(env, viewports[0]);
    const page = await ctx.newPage();
    const scripts = watchScripts(page);
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    await page.keyboard.press('Tab');
    await expect.poll(() => scripts.wireLayer()).toHaveLength(1);
    const [chunk] = await scripts.wireLayer();

    // The wire layer's chunk does not arrive (the connection dropped); a visitor who opens another
    // page first has the catalog asked for when they go to the store.
    const fresh = await ctx.newPage();
    await fresh.route(`**${chunk!}`, (route) => route.abort('internetdisconnected'));
    await fresh.goto('/login');
    await fresh.getByRole('banner').getByRole('link', { name: 'Till' }).click();
    await fresh.getByText("Can't reach the server. Check your connection and try again.").waitFor();
    await fresh.unroute(`**${chunk!}`);
    await fresh.getByRole('button', { name: 'Try again' }).click();
    await fresh.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    await ctx.close();
  });
});
