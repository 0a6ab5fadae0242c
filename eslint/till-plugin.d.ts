import type { ESLint } from 'eslint';

/** The import circles among the TypeScript files under `dir` (type-only and dynamic imports included). */
export function importCircles(
  dir: string,
  aliases?: Record<string, string>,
  override?: { file: string; text: string },
): string[][];

declare const plugin: ESLint.Plugin;
export default plugin;
