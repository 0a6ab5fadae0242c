import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code, DEFAULT_LANGUAGE, pickLanguage, type Product, type ShopLanguage } from '@till/protocol';
import type { Config } from './config.js';
import { escapeHtml } from './http/html.js';

const defaultDist = fileURLToPath(new URL('../../../apps/web/dist', import.meta.url));

export interface WebAppOptions {
  /** The active catalog, put into the store's pages so that they show it without asking first. */
  catalog?: (lang: ShopLanguage) => Promise<Product[]>;
}

/** The store's pages: the catalog and a product. */
const STORE_PAGE = /^(?:products\/[^/]+)?$/;
/** The catalog's page, whose cards the shell also draws. */
const CATALOG_PAGE = '';

/**
 * The catalog as the products call answers it, for a `<script type="application/json">`: `<` is
 * escaped so that no text of a product can close the element, and the line separators that JSON
 * allows but some parsers do not are escaped too.
 */
export function catalogScript(products: Product[], at: number, lang: ShopLanguage = DEFAULT_LANGUAGE): string {
  const json = JSON.stringify({ at, lang, answer: { code: Code.Ok, data: { products } } })
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="till-catalog">${json}</script>`;
}

/** Where the shell (`apps/web/index.html`) takes the drawn catalog: inside `#root`, after the bar. */
const FIRST_SCREEN_MARK = '<!--till-first-screen-->';
/** Cards drawn: as many as the widest layout shows in its first rows (three columns, two rows). */
const DRAWN_CARDS = 6;

/**
 * The catalog's first cards as plain HTML, drawn where the app draws them (the shell's styles
 * follow the app's layout), so that a phone shows the products as soon as the page arrives rather
 * than after the scripts have loaded and run. Only the products' own texts and pictures: the page
 * heading, the kinds and the prices are written in the visitor's language, which only the app
 * knows, so their places are kept blank. The app's first render replaces it.
 */
function catalogPreview(products: Product[]): string {
  const cards = products.slice(0, DRAWN_CARDS).map((p) => {
    const image = p.imageUrl
      ? `<img src="${escapeHtml(p.imageUrl)}" alt="" loading="lazy" width="640" height="360">`
      : '';
    return `<li class="shell-card">${image}<div><h2>${escapeHtml(p.title)}</h2><span class="shell-chip"></span><p>${escapeHtml(p.description)}</p></div></li>`;
  });
  return `<div class="shell-page" aria-hidden="true"><div class="shell-head"></div><ul class="shell-catalog">${cards.join('')}</ul></div>`;
}

/** Whether an Accept-Encoding header accepts `coding` (named with a quality above 0). */
function accepts(header: string | undefined, coding: string): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return name === coding && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * Sends the shell with the catalog in it, compressed for this request (the page is small: about a
 * millisecond of brotli), and never cached: the next visit gets the catalog as it is then.
 */
function sendStorePage(request: FastifyRequest, reply: FastifyReply, html: string) {
  const header = request.headers['accept-encoding'];
  void reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding, accept-language');
  if (accepts(header, 'br')) {
    return reply
      .header('content-encoding', 'br')
      .send(brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  }
  if (accepts(header, 'gzip')) return reply.header('content-encoding', 'gzip').send(gzipSync(html));
  return reply.send(html);
}

/** The built web app: its folder, and its shell (`index.html`) as the build wrote it. */
export interface WebBuild {
  root: string;
  shell: string;
}

/**
 * The built web app, read once at start (the build does not change while it is served: `npm start`
 * builds first); none when there is no build.
 */
export function readWebBuild(config: Pick<Config, 'webDist'>): WebBuild | undefined {
  const root = resolve(config.webDist ?? defaultDist);
  const index = resolve(root, 'index.html');
  return existsSync(index) ? { root, shell: readFileSync(index, 'utf8') } : undefined;
}

/**
 * The CSP sources (`'sha256-…'`) of the scripts the shell carries inline: the one that asks for the
 * app's entry once the page has painted (`entryAfterFirstPaint` in apps/web/vite-plugins.ts). Only
 * those exact texts may run inline.
 */
export function shellScriptSources(shell: string): string[] {
  return (
    [...shell.matchAll(/<script(\s[^>]*)?>([^<]*)<\/script>/g)]
      // Not a script fetched from a file, nor a data block (`type="application/json"`).
      .filter(
        ([, attributes = '']) =>
          !/\ssrc=/.test(attributes) && !/\stype="(?!module"|text\/javascript")/.test(attributes),
      )
      .map(([, , text = '']) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`)
  );
}

/**
 * Serves the built web app when there is one: its files, and `index.html` for any other GET that
 * asks for HTML, so that client-side routes (`/confirm/:token`, `/orders/:iden`) load the app. The
 * store's pages also carry the catalog (`options.catalog`), so that the first screen renders as soon
 * as its scripts have run instead of asking for the products after them, and the catalog's page
 * draws its first cards before any script has run.
 */
export async function registerWebApp(app: FastifyInstance, web: WebBuild, options: WebAppOptions = {}): Promise<void> {
  const { root, shell } = web;
  // The build writes .br and .gz beside its assets; they are sent to clients that accept them.
  await app.register(fastifyStatic, { root, wildcard: false, index: false, serve: false, preCompressed: true });
  // The build does not change while it is served (`npm start` builds first), so its files are listed
  // once: a request is then a set lookup, with no file-system call and no path to escape the folder.
  const files = new Set(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, resolve(entry.parentPath, entry.name)).split(sep).join('/')),
  );
  const { catalog } = options;
  app.get('/*', async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (files.has(path)) {
      // Hashed assets never change; the shell and the worker must be revalidated.
      const immutable = path.startsWith('assets/');
      return reply.sendFile(path, root, { maxAge: immutable ? 31_536_000_000 : 0, immutable });
    }
    if (path.startsWith('api/') || path === 'sw.js' || /\.[a-z0-9]+$/i.test(path)) {
      return reply.status(404).send({ code: 404, error: 'not_found' });
    }
    if (catalog && STORE_PAGE.test(path) && shell.includes('</body>')) {
      // Product texts in the visitor's language; the app uses them only when it speaks that language.
      const lang = pickLanguage(request.headers['accept-language']);
      const products = await catalog(lang);
      // Replaced through functions: a `$&` or `$'` in a product's text is text, not a replacement pattern.
      let html = shell.replace('</body>', () => `${catalogScript(products, Date.now(), lang)}</body>`);
      if (path === CATALOG_PAGE && products.length)
        html = html.replace(FIRST_SCREEN_MARK, () => catalogPreview(products));
      return sendStorePage(request, reply, html);
    }
    return reply.sendFile('index.html', root, { maxAge: 0 });
  });
}
