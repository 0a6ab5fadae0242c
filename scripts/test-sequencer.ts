import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A test file's size, counting the shared suites it runs (`./suites/*.js`): the browser tests' files are a
 * hundred bytes each that run a suite written once for the desktop and once for the phone.
 */
function weight(file: string): number {
  const text = readFileSync(file, 'utf8');
  let size = text.length;
  for (const m of text.matchAll(/from '(\.\/suites\/[\w-]+)\.js'/g)) {
    size += statSync(resolve(dirname(file), `${m[1]}.ts`)).size;
  }
  return size;
}

/**
 * The order Vitest starts test files in. With every file's duration from an earlier run (Vitest's cache),
 * Vitest's own: the longest first. Without (a fresh clone, as CI runs), Vitest starts the largest files
 * first, and the browser tests' longest files, which are the smallest, started after two thirds of the run
 * had gone, and the run ended on them. Here the size counts the suite a file runs.
 */
export default class TestSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const known = files.every((f) =>
      this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(root, f.moduleId)}`),
    );
    if (known) return super.sort(files);
    const weights = new Map(files.map((f) => [f, weight(f.moduleId)]));
    return [...files].sort((a, b) =>
      a.project.name === b.project.name ? weights.get(b)! - weights.get(a)! : a.project.name < b.project.name ? -1 : 1,
    );
  }
}
