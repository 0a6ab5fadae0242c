// Lint rules for the shape of the code: no import circles (type-only imports included), and the
// server's layers. They read the import graph with TypeScript's own pre-processor, so they need no
// resolver with native parts, and see `import type` too, which a circle of types also is: two
// layers that know each other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The source roots whose files import one another, and the aliases each uses. */
const ROOTS = [
  { dir: join(repo, 'packages/protocol/src'), aliases: {} },
  { dir: join(repo, 'packages/client/src'), aliases: {} },
  { dir: join(repo, 'packages/server/src'), aliases: {} },
  { dir: join(repo, 'packages/test-support/src'), aliases: {} },
  { dir: join(repo, 'apps/web/src'), aliases: { '@/': join(repo, 'apps/web/src') + sep } },
];

/** Every .ts/.tsx file under `dir` (declaration files aside). */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.d\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The file a specifier names within the sources (`./x.js` is `./x.ts`), or undefined. */
export function resolveSpecifier(from, specifier, aliases = {}) {
  let base;
  const alias = Object.keys(aliases).find((a) => specifier.startsWith(a));
  if (alias) base = aliases[alias] + specifier.slice(alias.length);
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return undefined;
  base = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((p) => existsSync(p));
}

/** Every import of a file's text (static, type-only and dynamic), with the file it names. */
export function importsOf(file, text, aliases = {}) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.flatMap((i) => {
    const target = resolveSpecifier(file, i.fileName, aliases);
    return target ? [{ specifier: i.fileName, target, pos: i.pos, end: i.end }] : [];
  });
}

/** A file's imports as on disk, kept while the file is unchanged: lint asks for the graph per file. */
const onDisk = new Map();
function diskEdges(file, targets) {
  const mtime = statSync(file).mtimeMs;
  const seen = onDisk.get(file);
  if (seen && seen.mtime === mtime) return seen.edges;
  const edges = targets(readFileSync(file, 'utf8'));
  onDisk.set(file, { mtime, edges });
  return edges;
}

/**
 * The circles among the files under `dir`: Tarjan's strongly connected components of the import
 * graph, each of more than one file (or a file importing itself). `override` gives one file's text
 * as it is being linted, rather than as it is on disk.
 */
export function importCircles(dir, aliases = {}, override) {
  const files = sources(dir);
  if (override && !files.includes(override.file)) files.push(override.file);
  const edges = new Map();
  for (const file of files) {
    const targets = (text) => [...new Set(importsOf(file, text, aliases).map((i) => i.target))];
    if (override && override.file === file) edges.set(file, targets(override.text));
    else edges.set(file, diskEdges(file, targets));
  }
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (v) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indices.get(w)));
    }
    if (low.get(v) === indices.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) circles.push(component.sort());
    }
  };
  for (const file of files) if (!indices.has(file)) visit(file);
  return circles;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses import circles, type-only imports included.' },
    schema: [],
    messages: { circle: 'This import is part of a circle among: {{path}}.' },
  },
  create(context) {
    const file = context.filename;
    const root = ROOTS.find((r) => file.startsWith(r.dir + sep));
    if (!root) return {};
    return {
      'Program:exit'() {
        const text = context.sourceCode.text;
        const circle = importCircles(root.dir, root.aliases, { file, text }).find((c) => c.includes(file));
        if (!circle) return;
        const members = new Set(circle);
        for (const imp of importsOf(file, text, root.aliases)) {
          if (!members.has(imp.target)) continue;
          const path = [file, ...circle.filter((f) => f !== file)].map((f) => relative(root.dir, f)).join(', ');
          context.report({
            loc: {
              start: context.sourceCode.getLocFromIndex(imp.pos),
              end: context.sourceCode.getLocFromIndex(imp.end),
            },
            messageId: 'circle',
            data: { path },
          });
          return;
        }
      },
    };
  },
};

const server = join(repo, 'packages/server/src');
const PLATFORM = new Set(['db', 'http', 'mail', 'security', 'errors.ts', 'config.ts', 'variables.ts']);
const APP = new Set(['app.ts', 'context.ts', 'main.ts', 'index.ts', 'web.ts']);

/** Where a server file sits: the platform, a module (by name), the flows, the app, or tests. */
function layerOf(file) {
  const parts = relative(server, file).split(sep);
  const [top, name] = parts;
  if (top === 'testing.ts' || /\.test\.tsx?$/.test(file))
    return { kind: 'test', module: top === 'modules' ? name : undefined };
  // A payment provider's variables (its folder's config.ts) are read with the rest of the configuration:
  // config.ts composes them, so they belong to the platform and import nothing above it.
  if (
    top === 'modules' &&
    name === 'payments' &&
    parts[2] === 'providers' &&
    parts.length === 5 &&
    parts[4] === 'config.ts'
  )
    return { kind: 'platform' };
  if (top === 'modules') return { kind: 'module', module: name, entry: parts.length === 3 && parts[2] === 'index.ts' };
  if (top === 'flows') return { kind: 'flows' };
  if (PLATFORM.has(top)) return { kind: 'platform' };
  if (APP.has(top)) return { kind: 'app' };
  return { kind: 'other' };
}

/** Why an import from `from` to `to` crosses the layers the wrong way, or undefined when it may. */
function violation(from, to) {
  const a = layerOf(from);
  const b = layerOf(to);
  if (b.kind === 'test' && a.kind !== 'test') return 'only tests import test support';
  if (a.module && b.kind === 'module' && b.module !== a.module)
    return 'modules never import each other: take what you need as a constructor argument, or move the work into a flow';
  if (a.kind === 'test') return undefined;
  if (a.kind === 'module' && (b.kind === 'flows' || b.kind === 'app'))
    return 'modules sit below the flows and the app: they are handed what they need';
  if (a.kind === 'platform' && (b.kind === 'module' || b.kind === 'flows' || b.kind === 'app'))
    return 'the platform (db, http, mail, security, errors, config) knows no module, flow or app';
  if (a.kind === 'flows' && b.kind === 'app') return 'the flows sit below the app';
  if ((a.kind === 'flows' || a.kind === 'app') && b.kind === 'module' && !b.entry)
    return "use the module's entry (its index.ts)";
  return undefined;
}

const serverLayers = {
  meta: {
    type: 'problem',
    docs: { description: "Holds the server's layers: platform <- modules <- flows <- app (docs/DEVELOPING.md)." },
    schema: [],
    messages: { layer: '{{why}} ({{specifier}}).' },
  },
  create(context) {
    const file = context.filename;
    if (!file.startsWith(server + sep)) return {};
    return {
      'Program:exit'() {
        for (const imp of importsOf(file, context.sourceCode.text)) {
          const why = imp.target.startsWith(server + sep) ? violation(file, imp.target) : undefined;
          if (!why) continue;
          context.report({
            loc: {
              start: context.sourceCode.getLocFromIndex(imp.pos),
              end: context.sourceCode.getLocFromIndex(imp.end),
            },
            messageId: 'layer',
            data: { why, specifier: imp.specifier },
          });
        }
      },
    };
  },
};

export default { meta: { name: 'till' }, rules: { 'no-import-cycle': noImportCycle, 'server-layers': serverLayers } };
