import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const web = fileURLToPath(new URL('../../apps/web', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'till-native-build-'));

/** `vite build` as `npm run mobile:sync` runs it, with these server variables and no others. */
function nativeBuild(hosts: Record<string, string>) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITE_')));
  return spawnSync('npm', ['exec', '--', 'vite', 'build', '--mode', 'native', '--outDir', out, '--emptyOutDir'], {
    cwd: web,
    env: { ...env, NODE_ENV: 'production', ...hosts },
    encoding: 'utf8',
  });
}

describe("the phone apps' build", () => {
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('fails without the API host, saying which variable to set', () => {
    const res = nativeBuild({ VITE_STORE_HOST: 'https://till.example' });
    expect(res.status).not.toBe(0);
    expect(`${res.stdout}${res.stderr}`).toMatch(/phone apps' build needs the server's address in VITE_API_HOST /);
  });

  it('fails on a host that is not an http(s) address, naming both variables', () => {
    const res = nativeBuild({ VITE_API_HOST: 'till.example' });
    expect(res.status).not.toBe(0);
    expect(`${res.stdout}${res.stderr}`).toMatch(/needs the server's address in VITE_API_HOST and VITE_STORE_HOST/);
  });
});
