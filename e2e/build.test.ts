import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { webDist } from './support/env.js';

const HINT = '//# allFunctionsCalledOnLoad\n';
// The first screen's JavaScript, gzipped as bench/web weighs it (KB).
const FIRST_SCREEN_BUDGET_KB = 150;
const read = (path: string) => readFileSync(join(webDist, path), 'utf8');

describe('the production build', () => {
  const html = read('index.html');
  // The page names one script, the small entry; once the drawn page is painted, it fetches what
  // runs at start (its stages, the app and the first page, with what they import), which the build
  // lists in it (`startChunkList`, vite-plugins.ts).
  // It names it in a small inline script that asks for it once the page has painted.
  const entries = [...html.matchAll(/<script>[^<]*\.src="\/([^"]+\.js)"[^<]*<\/script>/g)].map((m) => m[1]!);
  /** The chunks a script lists for Vite's preload helper (what its dynamic imports fetch). */
  const listed = (path: string) => JSON.parse(/m\.f=(\[[^\]]*\])/.exec(read(path))?.[1] ?? '[]') as string[];
  /** The chunks the entry preloads itself before its stages run. */
  const preloaded = (path: string) =>
    JSON.parse(/\/\*till-start-chunks\*\/(\[[^\]]*\])/.exec(read(path))?.[1] ?? '[]') as string[];
  /** The chunks a script imports statically. */
  const imports = (path: string) =>
    [...read(path).matchAll(/(?:^|[;}])\s*(?:import|export)\s*(?:[^'"`;]*?from\s*)?["'`]\.\/([^"'`]+)["'`]/g)].map(
      (m) => `assets/${m[1]!}`,
    );
  const atStart = [...entries, ...entries.flatMap(preloaded)];

  it('marks the scripts every page runs at start for eager compilation, and only those', () => {
    expect(atStart.length).toBeGreaterThan(5);
    for (const path of atStart) expect(read(path).startsWith(HINT), path).toBe(true);

    // The app lists the chunks it loads later (a page, a menu): they stay lazily compiled.
    const lazy = [...new Set(atStart.flatMap(listed))].filter((p) => !atStart.includes(p));
    expect(lazy.length).toBeGreaterThan(5);
    for (const path of lazy) expect(read(path).startsWith(HINT), path).toBe(false);
  });

  it('has the entry preload every chunk its stages run, so that no stage waits for the network', () => {
    const list = preloaded(entries[0]!);
    expect(list.length).toBeGreaterThan(5);
    for (const path of list) for (const dep of imports(path)) expect(list, `${path} imports ${dep}`).toContain(dep);
    // The entry's own imports (the stages and the app) are in it, and Vite's helper preloads nothing for them.
    const stages = [...read(entries[0]!).matchAll(/import\(["'`]\.\/([^"'`]+)["'`]\)/g)].map((m) => `assets/${m[1]!}`);
    expect(stages.length).toBeGreaterThanOrEqual(3);
    for (const stage of stages) expect(list).toContain(stage);
    expect(listed(entries[0]!)).toEqual([]);
  });

  it('runs each start stage from a chunk of its own, which no earlier stage loads', () => {
    const list = preloaded(entries[0]!);
    // Left to the bundler, the start came in some 35 chunks along what later pages share.
    expect(list.length).toBeLessThanOrEqual(14);
    const closure = (path: string, seen = new Set<string>()): Set<string> => {
      if (!seen.has(path)) {
        seen.add(path);
        for (const dep of imports(path)) closure(dep, seen);
      }
      return seen;
    };
    const stages = ['scheduler', 'react', 'ui', 'start', 'catalog'].map((stage) => {
      const chunks = list.filter((p) => p.startsWith(`assets/start-${stage}-`));
      expect(chunks, stage).toHaveLength(1);
      return chunks[0]!;
    });
    for (const [i, chunk] of stages.entries()) {
      const loads = closure(chunk);
      for (const earlier of stages.slice(0, i)) expect(loads, `${chunk} loads ${earlier}`).toContain(earlier);
      for (const later of stages.slice(i + 1)) expect(loads, `${chunk} loads ${later}`).not.toContain(later);
    }
  });

  it('names only the small entry in the page, asked for at low priority once the page has painted', () => {
    const tags = [...html.matchAll(/<(?:script|link rel="modulepreload")[^>]*>/g)].map((m) => m[0]);
    // One script, inline, no preload: the browser fetches nothing of the app as it parses the page.
    expect(tags).toEqual(['<script>']);
    expect(entries).toHaveLength(1);
    const loader = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(loader).toMatch(/requestAnimationFrame\(/);
    expect(loader).toContain(`setAttribute('fetchpriority','low')`);
    expect(gzipSync(read(entries[0]!), { level: 9 }).length).toBeLessThan(3 * 1024);
  });

  it('gives the page raster icons only: an SVG image builds a document of its own on the main thread', () => {
    const icons = [...html.matchAll(/<link rel="(?:icon|apple-touch-icon)"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
    expect(icons.length).toBeGreaterThan(0);
    for (const icon of icons) expect(icon, icon).toMatch(/\.png$/);
  });

  it('keeps the precompressed copies the server sends equal to the hinted scripts', () => {
    for (const path of atStart.filter((p) => read(p).length >= 1024)) {
      expect(brotliDecompressSync(readFileSync(join(webDist, `${path}.br`))).toString('utf8'), path).toBe(read(path));
      expect(gunzipSync(readFileSync(join(webDist, `${path}.gz`))).toString('utf8'), path).toBe(read(path));
    }
  });

  it("carries React Router's production bundle, without its development warnings", () => {
    const scripts = readdirSync(join(webDist, 'assets')).filter((f) => f.endsWith('.js'));
    const all = scripts.map((f) => read(`assets/${f}`)).join('\n');
    // A string of the router (in both bundles), then one of a warning only the development one has.
    expect(all).toContain('useNavigate() may be used only in the context of a <Router> component.');
    expect(all).not.toContain('No routes matched location');
  });

  it('keeps the wire layer (axios) out of the scripts every page runs at start', () => {
    // axios names its error codes; the chunk that holds it is loaded by the first call.
    for (const path of atStart) expect(read(path), path).not.toContain('ERR_BAD_RESPONSE');
    const scripts = readdirSync(join(webDist, 'assets')).filter((f) => f.endsWith('.js'));
    expect(scripts.filter((f) => read(`assets/${f}`).includes('ERR_BAD_RESPONSE'))).toHaveLength(1);
  });

  it("leaves MUI's CSS-variables theme out: the theme has no CSS variables", () => {
    // A name the CSS-variables theme gives each palette colour's channel (muiThemeWithoutVars).
    const scripts = readdirSync(join(webDist, 'assets')).filter((f) => f.endsWith('.js'));
    for (const f of scripts) expect(read(`assets/${f}`), f).not.toContain('contrastTextChannel');
  });

  it('keeps the scripts every page runs at start within the first screen budget', () => {
    const kb = atStart.reduce((n, path) => n + gzipSync(read(path), { level: 9 }).length, 0) / 1024;
    expect(kb).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_KB);
  });

  it('keeps the wire schemas (zod) out of the scripts every page runs at start', () => {
    // zod names its classes in strings; the forms that validate with it load it with their page.
    for (const path of atStart) expect(read(path), path).not.toContain('$ZodType');
    const scripts = readdirSync(join(webDist, 'assets')).filter((f) => f.endsWith('.js'));
    expect(scripts.filter((f) => read(`assets/${f}`).includes('$ZodType')).length).toBeGreaterThan(0);
  });
});
