// Runs every benchmark (bench/<name>/run.ts), or the ones named: `npm run bench -- accounts store`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const names = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(here, d.name, 'run.ts')))
  .map((d) => d.name)
  .filter((n) => wanted.length === 0 || wanted.includes(n));

let failed = 0;
for (const name of names) {
  console.log(`\n=== bench/${name} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, name, 'run.ts')], { stdio: 'inherit' });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
