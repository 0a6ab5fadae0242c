import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { webDist } from './support/env.js';

const HINT = '//# allFunctionsCalledOnLoad\n';
// The first screen's JavaScript, gzipped as bench/web weighs it (KB).
const FIRST_SCREEN_BUDGET_KB = 170;
const read = (path: string) => readFileSync(join(webDist, path), 'utf8');

describe('the production build', () => {
  const html = read('index.html');
  // What every page runs at start: the entry script and the chunks it preloads.
  const atStart = [
    ...html.matchAll(/<(?:script type="module"[^>]*src|link rel="modulepreload"[^>]*href)="\/([^"]+)"/g),
  ].map((m) => m[1]!);

  it('marks the scripts every page runs at start for eager compilation, and only those', () => {
    expect(atStart.length).toBeGreaterThan(1);
    for (const path of atStart) expect(read(path).startsWith(HINT), path).toBe(true);

    // The entry lists the chunks it loads later (a page, a menu): they stay lazily compiled.
    const entry = read(atStart[0]!);
    const later = JSON.parse(/m\.f=(\[[^\]]*\])/.exec(entry)?.[1] ?? '[]') as string[];
    const lazy = later.filter((p) => !atStart.includes(p));
    expect(lazy.length).toBeGreaterThan(5);
    for (const path of lazy) expect(read(path).startsWith(HINT), path).toBe(false);
  });

  it('fetches the scripts every page runs at start at low priority: the page paints without them', () => {
    const tags = [...html.matchAll(/<(?:script type="module"|link rel="modulepreload")[^>]*>/g)].map((m) => m[0]);
    expect(tags.length).toBe(atStart.length);
    for (const tag of tags) expect(tag).toContain('fetchpriority="low"');
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
