// What every first-screen tool here starts: the built web app served by the real server, as
// `npm start` serves it (on a throwaway SQLite database), and Chromium for Lighthouse to drive.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type lighthouse from 'lighthouse';
import { throttling as presets } from 'lighthouse/core/config/constants.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../e2e/support/chromium.js';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A server of the web build in `webDist` (`WEB_DIST`, else the last `npm run build`); `base` is its address. */
export async function serveTill(
  webDist = process.env.WEB_DIST ?? join(root, 'apps/web/dist'),
): Promise<{ base: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'till-bench-web-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${join(dir, 'till.db')}` });
  const { app } = await buildApp({ ...config, webDist }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForDebugger(port: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`Chromium opened no debugging port ${port} within 15 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/**
 * A Chromium with a debugging port, for Lighthouse: `run` takes one run of its mobile preset with
 * the CPU slowed down `multiplier` times (the preset's 4 when not given; its network as it is).
 */
export async function lighthouseChrome(): Promise<{
  run: (url: string, multiplier?: number) => Promise<LighthouseResult>;
  close: () => Promise<void>;
}> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'till-bench-chrome-'));
  const chrome = spawn(
    CHROMIUM,
    [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const close = async () => {
    const exited = new Promise((r) => chrome.once('exit', r));
    chrome.kill();
    await exited;
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    await waitForDebugger(port);
  } catch (error) {
    await close();
    throw error;
  }
  const { default: run } = await import('lighthouse');
  return {
    run: async (url, multiplier) => {
      const result = await run(url, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        ...(multiplier === undefined
          ? {}
          : { throttling: { ...presets.mobileSlow4G, cpuSlowdownMultiplier: multiplier } }),
      });
      if (!result) throw new Error('Lighthouse answered nothing');
      if (result.lhr.runtimeError)
        throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
      return result.lhr;
    },
    close,
  };
}
