import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from '@/i18n/en.json';
import screens from '@/i18n/en.screens.json';

const src = join(dirname(fileURLToPath(import.meta.url)), '..') + '/';

/** Every text's key, plural forms folded into their base key. */
function keys(texts: object, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keys(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`.replace(/_(zero|one|two|few|many|other)$/, '')],
  );
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the keys the screens look up', () => {
  it('each name an English text, or a group of texts where the key is built', () => {
    const known = new Set(keys({ ...en, ...screens }));
    const groups = new Set(
      [...known].flatMap((k) => k.split('.').map((_, i, parts) => parts.slice(0, i).join('.') + '.')),
    );
    const missing: string[] = [];
    for (const file of sources(src)) {
      const code = readFileSync(file, 'utf8');
      const where = file.slice(src.length);
      for (const m of code.matchAll(/\bt\(\s*'([\w.]+)'/g)) if (!known.has(m[1]!)) missing.push(`${where}: ${m[1]}`);
      for (const m of code.matchAll(/\bt\(\s*`([\w.]+)\$\{/g))
        if (!groups.has(m[1]!)) missing.push(`${where}: ${m[1]}…`);
    }
    expect(missing).toEqual([]);
  });
});
