// The benchmarks measure the server as it ships: the JavaScript that `npm run build` writes to
// packages/*/dist and `npm start` runs, not the TypeScript sources as a loader compiles them on the fly
// (tsx keeps every function's name with a call per function made, a cost the build does not have).
// Each benchmark imports this first: it stops when a source file is newer than the build, so that no
// figure comes from old code. `npm run bench` builds before it runs them.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest file under `dir` (its mtime and path) whose name passes `keep`. */
function newest(dir: string, keep: (name: string) => boolean): { at: number; path: string } {
  let found = { at: 0, path: '' };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const candidate = entry.isDirectory()
      ? newest(path, keep)
      : keep(entry.name)
        ? { at: statSync(path).mtimeMs, path }
        : found;
    if (candidate.at > found.at) found = candidate;
  }
  return found;
}

for (const pkg of ['protocol', 'server']) {
  const src = newest(join(root, 'packages', pkg, 'src'), (n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));
  const dist = join(root, 'packages', pkg, 'dist');
  // tsc -b writes its build info on every build, also when no output changed (a file touched only).
  const buildInfo = join(root, 'packages', pkg, 'tsconfig.tsbuildinfo');
  let at = 0;
  try {
    at = Math.max(newest(dist, (n) => n.endsWith('.js')).at, statSync(buildInfo).mtimeMs);
  } catch {
    // Not built yet.
  }
  if (src.at > at) {
    throw new Error(
      `bench: ${src.path.slice(root.length)} is newer than the build of packages/${pkg}: run \`npm run build\` first (\`npm run bench\` does)`,
    );
  }
}
