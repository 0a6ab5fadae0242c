import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from './connect.js';

describe('one server process per SQLite file', () => {
  let dir: string;
  let url: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'till-owner-'));
    url = `sqlite:${join(dir, 'till.db')}`;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a second while the first has the file open, and takes it once the first closes', async () => {
    const first = await connect(url);
    await expect(connect(url)).rejects.toThrow(/in use by another Till server.*PostgreSQL/);
    await first.close();
    const second = await connect(url);
    await second.close();
  });

  it('takes the file at once after the process holding it was killed', async () => {
    const module = fileURLToPath(new URL('./connect.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        // It holds the database, as a server does, until it is killed: unreferenced, the lock's connection
        // would be closed by the garbage collector, and nothing else would keep the process running.
        `import(${JSON.stringify(module)}).then((m) => m.connect(${JSON.stringify(url)})).then((db) => { globalThis.held = db; console.log('held'); setInterval(() => undefined, 60_000); })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
        child.on('exit', (code) => reject(new Error(`the holder ended with ${code}`)));
      });
      await expect(connect(url)).rejects.toThrow(/in use by another Till server/);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('close', resolve));
    }
    const next = await connect(url);
    await next.close();
  });
});
