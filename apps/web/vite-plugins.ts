// Build steps of the web app, shared with bench/web (which builds the stack's smallest app the same way).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Writes `.br` and `.gz` beside every text asset of the build, so that the server sends them
 * compressed without compressing on each request (the first screen's load time depends on it).
 */
export function precompress(): Plugin {
  const compressible = /\.(js|css|html|svg|json|webmanifest)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  let outDir = '';
  return {
    name: 'till-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      handler() {
        for (const file of walk(outDir).filter((f) => compressible.test(f))) {
          const body = readFileSync(file);
          if (body.length < 1024) continue;
          writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        }
      },
    },
  };
}

/**
 * Leaves axios's fetch adapter out of the build: the SDK runs over XHR in the browser (it reports
 * upload progress), and axios picks XHR before fetch, yet its adapter table imports the fetch
 * adapter and its stream helpers unconditionally (about 4 KB gzip on the first screen). Asking for
 * `adapter: 'fetch'` in this build fails with axios's own "adapter not available" error.
 */
export function axiosWithoutFetch(): Plugin {
  const stub = '\0till:axios-no-fetch';
  return {
    name: 'till-axios-without-fetch',
    enforce: 'pre',
    apply: 'build',
    resolveId(source, importer) {
      if (source === './fetch.js' && importer?.replaceAll('\\', '/').endsWith('/axios/lib/adapters/adapters.js'))
        return stub;
      return null;
    },
    load(id) {
      return id === stub ? 'export const getFetch = () => false;\nexport default false;\n' : null;
    },
  };
}

/**
 * Creates React DOM's sentinel errors without a stack. React DOM makes four `Error`s as its module
 * is evaluated (`SuspenseException` and its kin: values React throws and compares by identity, never
 * shown). While a debugger is attached, as in every Lighthouse run, the browser records a detailed
 * stack for each new error, and for that collects the source positions of every function on the
 * stack: React DOM's whole module, a re-parse of about 200 KB, 50-80 ms of the start's longest task
 * on this project's machines (decision record 022). The sentinels keep their message and prototype.
 * The build fails if React DOM no longer makes them this way, rather than quietly paying again.
 */
export function reactSentinelsWithoutStacks(): Plugin {
  const sentinel = /^(var | {2})(\w+Exception) = Error\((formatProdErrorMessage\(\d+\))\)([,;])$/gm;
  return {
    name: 'till-react-sentinels-without-stacks',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith('/react-dom/cjs/react-dom-client.production.js')) return null;
      const found: string[] = [];
      const rewritten = code.replace(sentinel, (_all, lead: string, name: string, message: string, end: string) => {
        found.push(name);
        return `${lead}${name} = stacklessError(${message})${end}`;
      });
      const expected = [
        'SuspenseException',
        'SuspenseyCommitException',
        'SuspenseActionException',
        'SelectiveHydrationException',
      ];
      if (expected.some((name) => !found.includes(name)))
        this.error(
          `React DOM's sentinel errors changed: found ${found.join(', ') || 'none'}; see reactSentinelsWithoutStacks`,
        );
      const helper =
        'function stacklessError(message) {\n' +
        '  return Object.create(Error.prototype, { message: { value: message, writable: true, configurable: true } });\n' +
        '}\n';
      // After the module's "use strict" directive (a declaration, hoisted): appended.
      return { code: `${rewritten}\n${helper}`, map: null };
    },
  };
}

/**
 * Builds MUI's `createTheme` as the theme-without-CSS-variables function it calls for such themes.
 * `createTheme` picks between that and the CSS-variables theme at run time, so both ship, and
 * every styled component imports it through MUI's default theme: the CSS-variables half (its
 * variables, colour-scheme selectors and channel colours) reaches the first screen unused. For
 * options without `cssVariables` and `colorSchemes`, as this app's theme and MUI's default are,
 * `createTheme` returns exactly `createThemeNoVars(options)`. A theme that sets either of them
 * needs this plugin gone.
 */
export function muiThemeWithoutVars(): Plugin {
  return {
    name: 'till-mui-theme-without-vars',
    enforce: 'pre',
    apply: 'build',
    async resolveId(source, importer, options) {
      const from = importer?.replaceAll('\\', '/') ?? '';
      if (!/\/@mui\/material\/(esm\/)?styles\/(index|defaultTheme)\.m?js$/.test(from)) return null;
      if (!/^\.\/createTheme(\.m?js)?$/.test(source)) return null;
      return this.resolve(source.replace('createTheme', 'createThemeNoVars'), importer, { ...options, skipSelf: true });
    },
  };
}

/**
 * Builds with React Router's production bundle. Its package points every condition at
 * `dist/development` (remix-run/react-router#12532, #14753), which ships the development warnings
 * and their strings to the browser; `dist/production` is the same API without them.
 */
export function reactRouterProduction(): Plugin {
  return {
    name: 'till-react-router-production',
    enforce: 'pre',
    apply: 'build',
    async resolveId(source, importer, options) {
      if (source !== 'react-router' && !source.startsWith('react-router/')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      const production = resolved.id.replace(/([\\/])dist\1development\1/, '$1dist$1production$1');
      return production !== resolved.id && existsSync(production) ? { ...resolved, id: production } : resolved;
    },
  };
}

export type Bundle = Parameters<NonNullable<Extract<Plugin['generateBundle'], { handler: unknown }>['handler']>>[1];

/** A chunk's file and every chunk it imports statically (the bundle is keyed by file name). */
export function withStaticImports(bundle: Bundle, fileNames: string[]): Set<string> {
  const found = new Set<string>();
  const visit = (fileName: string) => {
    if (found.has(fileName)) return;
    found.add(fileName);
    const chunk = bundle[fileName];
    for (const dep of chunk?.type === 'chunk' ? chunk.imports : []) visit(dep);
  };
  fileNames.forEach(visit);
  return found;
}

type OutputChunk = Extract<Bundle[string], { type: 'chunk' }>;

/** The chunk whose own module (the one it stands for) is `module`, a path such as `src/start.tsx`. */
function chunkOf(chunks: OutputChunk[], module: string): OutputChunk | undefined {
  return chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(module));
}

/**
 * The chunks that run at start: the entry's, those of the modules `atStart` (paths such as
 * `src/start.tsx`, which the entry imports dynamically), and every chunk they import statically.
 */
function startChunks(bundle: Bundle, atStart: string[]): Set<string> {
  const starts = Object.values(bundle).flatMap((o) => {
    const id = o.type === 'chunk' ? o.facadeModuleId?.replaceAll('\\', '/') : undefined;
    return o.type === 'chunk' && (o.isEntry || atStart.some((m) => id?.endsWith(m))) ? [o.fileName] : [];
  });
  return withStaticImports(bundle, starts);
}

/** The global name the entry (src/main.tsx) reads the chunks it preloads from; the build writes them there. */
export const START_CHUNKS_MARK = '__TILL_START_CHUNKS__';

/**
 * Writes into the entry, where its source names `START_CHUNKS_MARK`, the chunks that run at start
 * (those of the modules `atStart`, in that order, each after what it imports) as an array of paths
 * behind the comment `till-start-chunks`, and has the entry's own dynamic imports preload nothing
 * (`resolveDependencies`, for `build.modulePreload`). The entry imports the app in stages, one
 * after another, each evaluated in a task of its own, and preloads the list itself, a few at a
 * time: with Vite's lists each stage's chunks would be requested only once the stage before had
 * run, and Vite's preload helper asks for all of an import's chunks in one task (setting up a
 * request takes about a millisecond of a slow phone's main thread).
 */
export function startChunkList(atStart: string[]): {
  plugin: Plugin;
  resolveDependencies: (file: string, deps: string[], context: { hostId: string; hostType: 'html' | 'js' }) => string[];
} {
  const mark = new RegExp(`\\b${START_CHUNKS_MARK}\\b`);
  let bundle: Bundle | undefined;
  return {
    resolveDependencies(_file, deps, { hostId, hostType }) {
      const host = bundle?.[hostId];
      return hostType === 'html' || (host?.type === 'chunk' && host.isEntry) ? [] : deps;
    },
    plugin: {
      name: 'till-start-chunk-list',
      apply: 'build',
      generateBundle: {
        // `pre`: before Vite's import analysis, which asks `resolveDependencies`; the list is
        // written then too, once every chunk has its name.
        order: 'pre',
        handler(_options, output) {
          bundle = output;
          const chunks = Object.values(output).flatMap((o) => (o.type === 'chunk' ? [o] : []));
          const ordered: string[] = [];
          const visit = (fileName: string) => {
            const chunk = output[fileName];
            if (ordered.includes(fileName) || chunk?.type !== 'chunk' || chunk.isEntry) return;
            chunk.imports.forEach(visit);
            ordered.push(fileName);
          };
          for (const module of atStart) {
            const chunk = chunkOf(chunks, module);
            if (!chunk) throw new Error(`startChunkList: no chunk for ${module}`);
            visit(chunk.fileName);
          }
          for (const entry of chunks.filter((c) => c.isEntry && mark.test(c.code)))
            entry.code = entry.code.replace(mark, () => `/*till-start-chunks*/${JSON.stringify(ordered)}`);
        },
      },
    },
  };
}

/**
 * Requests the entry script only once the page has painted: the page names it in a small inline
 * script instead of a `<script type="module">` tag, which the browser fetches as it parses and runs
 * before the first frame. The page paints without it (the shell draws the bar, and the server the
 * catalog's cards), and Lighthouse's simulation counted the entry's download and evaluation, and
 * the preload helper's it imports, before its first and largest paints whenever they finished
 * first (decision record 015). A hidden page paints nothing and gets the script at once. The server
 * allows this one inline script by its hash (`shellScriptSources`, packages/server/src/web.ts); the
 * entry keeps `fetchpriority="low"` and `crossorigin`, as the tag had them.
 */
export function entryAfterFirstPaint(): Plugin {
  return {
    name: 'till-entry-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const tags = [...html.matchAll(/<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/g)];
        const [tag, src] = tags.length === 1 && tags[0] ? tags[0] : [];
        if (!tag || !src) throw new Error(`entryAfterFirstPaint: expected one module script, found ${tags.length}`);
        const loader =
          `(function(){function load(){var s=document.createElement('script');s.type='module';s.crossOrigin='';` +
          `s.setAttribute('fetchpriority','low');s.src=${JSON.stringify(src)};document.head.appendChild(s)}` +
          `if(document.visibilityState==='visible')requestAnimationFrame(function(){setTimeout(load,0)});else load()})()`;
        return html.replace(tag, () => `<script>${loader}</script>`);
      },
    },
  };
}

/**
 * Marks the scripts that run at start (the entry, the modules `atStart`, and what they import) with
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chrome 136+): their functions are
 * compiled while the script streams in, on a background thread, instead of one by one on the main
 * thread as the app starts calling them. Other engines read it as a comment.
 */
export function eagerCompileHint(atStart: string[]): Plugin {
  const hint = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'till-eager-compile-hint',
    apply: 'build',
    generateBundle: {
      // After Vite's own additions to the entry (its preload map), so that the hint stays first.
      order: 'post',
      handler(_options, bundle) {
        for (const fileName of startChunks(bundle, atStart)) {
          const chunk = bundle[fileName];
          if (chunk?.type !== 'chunk' || chunk.code.startsWith(hint)) continue;
          chunk.code = hint + chunk.code;
          // One line more at the top: the source map's lines move down by one.
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
        }
      },
    },
  };
}

/**
 * The modules each start stage is the first to run (decision record 015), by stage (the modules of
 * `atStart`, as `src/start.tsx`), from a build of the app kept in memory: the chunks a stage loads
 * that no earlier stage loaded, less the stages' own modules, which stay what the stages import
 * (`start.tsx` waits at its top level for the first page's chunk, which must not import the chunk it
 * is in). What the entry loads itself stays apart. `build` makes the app's build with nothing
 * grouped by stage and nothing written.
 */
export async function startStageModules(
  atStart: string[],
  build: () => Promise<Bundle[string][]>,
): Promise<Map<string, string>> {
  const output = await build();
  const bundle = Object.fromEntries(output.map((o) => [o.fileName, o])) as Bundle;
  const chunks = output.flatMap((o) => (o.type === 'chunk' ? [o] : []));
  const roots = atStart.map((module) => {
    const chunk = chunkOf(chunks, module);
    if (!chunk?.facadeModuleId) throw new Error(`startStageModules: no chunk for ${module}`);
    return { stage: module.replace(/^.*\//, '').replace(/\.[jt]sx?$/, ''), chunk };
  });
  const rootIds = new Set(roots.map((r) => r.chunk.facadeModuleId));
  const taken = withStaticImports(
    bundle,
    chunks.filter((c) => c.isEntry).map((c) => c.fileName),
  );
  const stages = new Map<string, string>();
  for (const { stage, chunk } of roots)
    for (const fileName of withStaticImports(bundle, [chunk.fileName])) {
      if (taken.has(fileName)) continue;
      taken.add(fileName);
      const loaded = bundle[fileName];
      for (const id of loaded?.type === 'chunk' ? loaded.moduleIds : [])
        if (!rootIds.has(id) && !id.startsWith('\0')) stages.set(id, stage);
    }
  return stages;
}

/**
 * One chunk per start stage, of the modules `startStageModules` found for it. Left to itself the
 * bundler cuts the start into some 35 chunks along what later pages share, and the browser spends
 * main-thread time on each chunk it is asked for, compiles and finishes (decision record 015).
 */
export function startStageGroups(stages: Map<string, string>, priority: number) {
  return [...new Set(stages.values())].map((stage, i) => ({
    name: `start-${stage}`,
    test: (id: string) => stages.get(id) === stage,
    priority: priority - i,
    // Each stage's modules are whole already (what they import is in the stage or an earlier one):
    // taken along, an earlier stage's modules would move to a later stage's chunk.
    includeDependenciesRecursively: false,
  }));
}
