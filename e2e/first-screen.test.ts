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

  /** Opens the catalog, sees that it fetched no wire layer, touches it and sees the layer come. */
  async function openAndTouch(page: Page) {
    const scripts = watchScripts(page);
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    expect((await scripts.all()).length).toBeGreaterThan(3);
    expect(await scripts.wireLayer()).toEqual([]);
    // The first touch starts the load, ahead of the call it leads to.
    await page.keyboard.press('Tab');
    await expect.poll(() => scripts.wireLayer()).toHaveLength(1);
    return (await scripts.wireLayer())[0]!;
  }

  it('loads the wire layer only once the visitor touches the page, and any other page loads it at once', async () => {
    const ctx = await newContext(env, viewports[1]);
    await openAndTouch(await ctx.newPage());

    // Any other page starts the load at once, beside its own chunk.
    const other = await ctx.newPage();
    const otherScripts = watchScripts(other);
    await other.goto('/login');
    // No touch: the page starts the load itself, once its entry script has run. That comes after
    // the network has gone quiet when the machine is busy, so it is waited for, not read at idle.
    await expect.poll(() => otherScripts.wireLayer()).toHaveLength(1);
    await ctx.close();
  });

  it('says it cannot reach the server when the wire layer cannot be fetched, and loads it on Try again', async () => {
    const ctx = await newContext(env, viewports[0]);
    const chunk = await openAndTouch(await ctx.newPage());

    // The wire layer's chunk does not arrive (the connection dropped); a visitor who opens another
    // page first has the catalog asked for when they go to the store.
    const fresh = await ctx.newPage();
    await fresh.route(`**${chunk}`, (route) => route.abort('internetdisconnected'));
    await fresh.goto('/login');
    await fresh.getByRole('banner').getByRole('link', { name: 'Till' }).click();
    await fresh.getByText("Can't reach the server. Check your connection and try again.").waitFor();
    await fresh.unroute(`**${chunk}`);
    await fresh.getByRole('button', { name: 'Try again' }).click();
    await fresh.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    await ctx.close();
  });

  it("starts React's scheduler in a stage of its own, not inside React DOM's evaluation", async () => {
    const ctx = await newContext(env, viewports[1]);
    // The scheduler's first act is to open a message channel: where it is opened from says which
    // stage evaluated the scheduler.
    await ctx.addInitScript(() => {
      const stacks: string[] = [];
      (window as unknown as { channels: string[] }).channels = stacks;
      const Native = window.MessageChannel;
      window.MessageChannel = class extends Native {
        constructor() {
          super();
          stacks.push(new Error().stack ?? '');
        }
      };
    });
    const page = await ctx.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    const stacks = await page.evaluate(() => (window as unknown as { channels: string[] }).channels);
    expect(stacks.length).toBeGreaterThan(0);
    expect(stacks[0]).toMatch(/\/assets\/scheduler-[^/]*\.js/);
    await ctx.close();
  });

  it("draws the store's front page in the app's first commit, without suspending on the page's chunk", async () => {
    const ctx = await newContext(env, viewports[1]);
    // React reports each commit to a developer tools hook when one is there; this one counts them.
    await ctx.addInitScript({
      content: `window.__commits = [];
        window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
          supportsFiber: true, isDisabled: false, renderers: new Map(),
          inject: function () { return 1; }, checkDCE: function () {},
          onScheduleFiberRoot: function () {}, onCommitFiberUnmount: function () {}, onPostCommitFiberRoot: function () {},
          onCommitFiberRoot: function () {
            window.__commits.push(document.querySelectorAll('#root li h2').length > 0 && !document.querySelector('.shell-page'));
          },
        };`,
    });
    const page = await ctx.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __commits: boolean[] }).__commits))
      .toContain(true);
    // The first commit already holds the app's catalog.
    const commits = await page.evaluate(() => (window as unknown as { __commits: boolean[] }).__commits);
    expect(commits[0]).toBe(true);
    await ctx.close();
  });

  it('makes no error object while the app starts (a debugger records a stack for each)', async () => {
    const ctx = await newContext(env, viewports[1]);
    // Every Error made, by call or by new, is noted with the scripts on its stack.
    await ctx.addInitScript({
      content: `window.__errorsMade = [];
        const Native = Error;
        const note = () => { const limit = Native.stackTraceLimit; window.__errorsMade.push(String(Reflect.construct(Native, []).stack)); Native.stackTraceLimit = limit; };
        window.Error = new Proxy(Native, {
          apply(target, self, args) { note(); return Reflect.apply(target, self, args); },
          construct(target, args, newTarget) { note(); return Reflect.construct(target, args, newTarget); },
        });`,
    });
    const page = await ctx.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    await expect.poll(() => page.locator('.shell-page').count()).toBe(0);
    const made = await page.evaluate(() => (window as unknown as { __errorsMade: string[] }).__errorsMade);
    expect(made).toEqual([]);
    await ctx.close();
  });

  it('checks and registers the service worker only once the app has drawn its first screen', async () => {
    const ctx = await newContext(env, viewports[1], 'allow');
    // Whether the app's catalog had replaced the drawn page when the worker script was checked and
    // when the worker was registered.
    await ctx.addInitScript({
      content: `window.__worker = [];
        const drawn = () => document.querySelectorAll('#root li h2').length > 0 && !document.querySelector('.shell-page');
        const fetchNative = window.fetch;
        window.fetch = function (input, init) {
          if (String(input instanceof Request ? input.url : input).endsWith('/sw.js')) window.__worker.push(['check', drawn()]);
          return fetchNative.call(this, input, init);
        };
        const registerNative = ServiceWorkerContainer.prototype.register;
        ServiceWorkerContainer.prototype.register = function (...args) {
          window.__worker.push(['register', drawn()]);
          return registerNative.apply(this, args);
        };`,
    });
    const page = await ctx.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    const steps = () => page.evaluate(() => (window as unknown as { __worker: [string, boolean][] }).__worker);
    await expect.poll(steps).toHaveLength(2);
    expect(await steps()).toEqual([
      ['check', true],
      ['register', true],
    ]);
    await ctx.close();
  });

  it("asks for no script before the drawn page's first frame", async () => {
    const ctx = await newContext(env, viewports[1]);
    // The page's first animation frame, noted by a callback asked for before any of the page's own:
    // the frame in which the drawn page is rendered. (Its paint entry is stamped when the frame is
    // shown, which a busy machine may delay past the requests that follow it.)
    await ctx.addInitScript({
      content: `requestAnimationFrame(() => { window.__firstFrame = performance.now(); });`,
    });
    const page = await ctx.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
    await expect.poll(() => page.locator('.shell-page').count()).toBe(0);
    const { frame, scripts } = await page.evaluate(() => ({
      frame: (window as unknown as { __firstFrame?: number }).__firstFrame ?? Infinity,
      scripts: performance
        .getEntriesByType('resource')
        .filter((r) => (r as PerformanceResourceTiming).initiatorType === 'script' || r.name.endsWith('.js'))
        .map((r) => ({ name: new URL(r.name).pathname, start: r.startTime })),
    }));
    expect(frame).toBeLessThan(Infinity);
    expect(scripts.length).toBeGreaterThan(5);
    for (const script of scripts) expect(script.start, script.name).toBeGreaterThanOrEqual(frame);
    await ctx.close();
  });

  it('draws the catalog before any script has run, where the app then draws it, as the largest paint', async () => {
    for (const viewport of viewports) {
      const ctx = await newContext(env, viewport);
      // A slow network: the entry script arrives only once the drawn page has been looked at.
      let release = () => {};
      const arrived = new Promise<void>((r) => (release = r));
      await ctx.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
        await arrived;
        await route.continue();
      });
      await ctx.addInitScript(() => {
        const seen: { drawn: boolean }[] = [];
        (window as unknown as { lcp: typeof seen }).lcp = seen;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { element: Element | null })[])
            seen.push({ drawn: Boolean(e.element?.closest('.shell-page')) });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      const page = await ctx.newPage();
      const where = (title: string) =>
        page.evaluate((t) => {
          const h2 = Array.from(document.querySelectorAll('#root li h2')).find((e) => e.textContent === t);
          const r = h2?.getBoundingClientRect();
          return r && { x: r.x, y: r.y, width: r.width, height: r.height };
        }, title);
      await page.goto('/', { waitUntil: 'commit' });
      await page.locator('.shell-card h2', { hasText: 'Pro unlock' }).waitFor();
      // Drawn by the server: no app yet, and nothing a screen reader would read twice.
      expect(await page.getByRole('banner').count()).toBe(0);
      expect(await page.locator('.shell-page').getAttribute('aria-hidden')).toBe('true');
      const drawn = await where('Pro unlock');
      release();

      await page.getByRole('heading', { name: 'Pro unlock' }).waitFor();
      expect(await page.locator('.shell-page').count()).toBe(0);
      const drawnByApp = await where('Pro unlock');
      // The same place, to within half a pixel.
      for (const key of ['x', 'y', 'width', 'height'] as const)
        expect(Math.abs((drawnByApp?.[key] ?? NaN) - (drawn?.[key] ?? NaN)), `${viewport.name} ${key}`).toBeLessThan(
          0.5,
        );
      // The app's cards are no larger than the drawn ones: the largest paint stays the drawn one.
      const lcp = await page.evaluate(() => (window as unknown as { lcp: { drawn: boolean }[] }).lcp);
      expect(lcp.length).toBeGreaterThan(0);
      expect(lcp.at(-1)?.drawn, viewport.name).toBe(true);
      await ctx.close();
    }
  });
});
