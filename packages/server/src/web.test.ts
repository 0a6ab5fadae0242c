import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from './http/html.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { saveProduct } from '@till/test-support/store';

describe('serving the built web app', () => {
  const dist = mkdtempSync(join(tmpdir(), 'till-dist-'));
  let t: TestApp;
  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>Till shell</title><script>load("/assets/app-1a2b.js")</script>' +
        '<script type="application/json">{}</script><script src="/assets/app-1a2b.js"></script>',
    );
    writeFileSync(join(dist, 'assets', 'app-1a2b.js'), 'console.log("app")');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Till"}');
    writeFileSync(join(tmpdir(), 'outside-the-build.txt'), 'secret');
    t = await startTestApp({ config: { webDist: dist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves the files of the build, hashed assets for a year', async () => {
    const asset = await get('/assets/app-1a2b.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toContain('immutable');
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toContain('max-age=0');
  });

  it('answers client-side routes with the shell, and unknown files, APIs and the worker with 404', async () => {
    for (const route of ['/', '/orders/abc', '/confirm/some-token']) {
      const page = await get(route);
      expect(page.statusCode, route).toBe(200);
      expect(page.body).toContain('Till shell');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    }
    for (const missing of ['/assets/gone-9z.js', '/api/nothing', '/sw.js']) {
      expect((await get(missing)).statusCode, missing).toBe(404);
    }
  });

  it("lets the shell's inline script run, by its hash, and no other inline script", async () => {
    const policy = (await get('/')).headers['content-security-policy'] as string;
    const scriptSrc = /script-src ([^;]*)/.exec(policy)?.[1]?.split(' ');
    const hash = createHash('sha256').update('load("/assets/app-1a2b.js")').digest('base64');
    expect(scriptSrc).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });

  it('never serves a file outside the build', async () => {
    for (const url of [
      '/../outside-the-build.txt',
      '/%2e%2e/outside-the-build.txt',
      '/assets/..%2f..%2foutside-the-build.txt',
    ]) {
      const res = await get(url);
      expect(res.body, url).not.toContain('secret');
    }
  });
});

describe("the store's pages", () => {
  const dist = mkdtempSync(join(tmpdir(), 'till-dist-'));
  let t: TestApp;
  beforeAll(async () => {
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>Till shell</title><body><div id="root"><!--till-first-screen--></div></body>',
    );
    t = await startTestApp({ config: { webDist: dist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  /** The catalog the page carries, read as the app reads it. */
  const catalogOf = (html: string) => {
    const text = /<script type="application\/json" id="till-catalog">(.*?)<\/script>/s.exec(html)?.[1];
    return text === undefined ? undefined : (JSON.parse(text) as { at: number; answer: Record<string, unknown> });
  };

  it('carry the active catalog as the products call answers it, taken at the request', async () => {
    const before = Date.now();
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const catalog = catalogOf(page.body);
    expect(catalog?.answer).toEqual(await t.call('/api/store/products', {}));
    expect(catalog?.at).toBeGreaterThanOrEqual(before);
    expect(catalogOf((await t.app.inject({ method: 'GET', url: '/products/pro-unlock' })).body)?.answer).toEqual(
      catalog?.answer,
    );
  });

  it("carry the catalog in the visitor's language, saying which", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(page.headers.vary).toContain('accept-language');
    const catalog = catalogOf(page.body) as unknown as {
      lang?: string;
      answer: { data: { products: { id: string; title: string }[] } };
    };
    expect(catalog.lang).toBe('de');
    expect(catalog.answer).toEqual(await t.call('/api/store/products', { lang: 'de' }));
    expect(catalog.answer.data.products.find((p) => p.id === 'pro-unlock')?.title).toBe('Pro freischalten');
    expect(
      (catalogOf((await t.app.inject({ method: 'GET', url: '/' })).body) as unknown as { lang?: string }).lang,
    ).toBe('en');
  });

  it('follow the catalog from one request to the next', async () => {
    const id = await saveProduct(t, {
      alias: 'new-in',
      title: 'New in',
      type: 0,
      price: { amount: 100, currency: 'USD' },
    });
    const answer = catalogOf((await t.app.inject({ method: 'GET', url: '/' })).body)?.answer as {
      data: { products: { id: string }[] };
    };
    expect(answer.data.products.map((p) => p.id)).toContain(id);
  });

  it('keep a product text from closing the element or running as script', async () => {
    const title = '</script><script>alert(1)</script> line\u2028separator';
    await saveProduct(t, { alias: 'sneaky', title, type: 0, price: { amount: 100, currency: 'USD' } });
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<script>alert(1)');
    const products = (catalogOf(html)?.answer as { data: { products: { title: string }[] } }).data.products;
    expect(products.map((p) => p.title)).toContain(title);
  });

  it('are compressed as the browser asks, and other pages are the plain shell', async () => {
    const plain = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const br = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(catalogOf(brotliDecompressSync(br.rawPayload).toString('utf8'))?.answer).toEqual(catalogOf(plain)?.answer);
    const gz = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(catalogOf(gunzipSync(gz.rawPayload).toString('utf8'))?.answer).toEqual(catalogOf(plain)?.answer);
    const refused = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(catalogOf(refused.body)?.answer).toEqual(catalogOf(plain)?.answer);
    for (const url of ['/orders', '/login', '/products/a/b']) {
      expect(catalogOf((await t.app.inject({ method: 'GET', url })).body), url).toBeUndefined();
    }
  });

  /** The cards the page draws: each one's title, description and picture, as the HTML holds them. */
  const drawnCards = (html: string) =>
    [
      ...html.matchAll(
        /<li class="shell-card">(?:<img src="([^"]*)"[^>]*>)?<div><h2>(.*?)<\/h2><span class="shell-chip"><\/span><p>(.*?)<\/p><\/div><\/li>/gs,
      ),
    ].map((m) => ({ image: m[1], title: m[2], description: m[3] }));

  it("draw the catalog's first cards in the catalog's page, escaped, and no other page does", async () => {
    for (const alias of ['more-1', 'more-2'])
      await saveProduct(t, { alias, title: alias, type: 0, price: { amount: 100, currency: 'USD' } });
    await saveProduct(t, {
      alias: 'drawn',
      title: 'Drawn <b>"bold"</b> & $& $\' $1',
      description: "<img src=x onerror=alert(1)> it's here",
      imageUrl: 'https://img.example.test/p.png?a=1&b="2"',
      type: 0,
      price: { amount: 100, currency: 'USD' },
    });
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const products = (catalogOf(html)?.answer as { data: { products: { title: string }[] } }).data.products;
    const cards = drawnCards(html);
    // The first six products of the catalog, in its order.
    expect(products.length).toBeGreaterThan(6);
    expect(cards.map((c) => c.title)).toHaveLength(6);
    expect(html.match(/<li class="shell-card">/g)).toHaveLength(6);
    expect(html).not.toContain('<!--till-first-screen-->');
    expect(html).toContain('<div class="shell-page" aria-hidden="true">');
    expect(cards.map((c) => c.title)).toEqual(products.slice(0, 6).map((p) => escapeHtml(p.title)));
    const drawn = products.findIndex((p) => p.title.startsWith('Drawn'));
    expect(cards[drawn]).toEqual({
      title: 'Drawn &#60;b&#62;&#34;bold&#34;&#60;/b&#62; &#38; $&#38; $&#39; $1',
      description: '&#60;img src=x onerror=alert(1)&#62; it&#39;s here',
      image: 'https://img.example.test/p.png?a=1&#38;b=&#34;2&#34;',
    });
    // The replacement patterns in the texts stayed text: the shell around them is whole, once.
    expect(html.match(/<title>Till shell<\/title>/g)).toHaveLength(1);
    expect(html.match(/<\/body>/g)).toHaveLength(1);
    for (const url of ['/products/drawn', '/orders', '/login']) {
      expect(drawnCards((await t.app.inject({ method: 'GET', url })).body), url).toEqual([]);
    }
  });
});
