// The first screen's long tasks as Lighthouse's mobile preset sees them (simulated at the given
// slowdown, 4x unless RATE says otherwise): for each run, the score, TBT and every task Lighthouse
// counts as long with the script it blames. For finding which start-up work still blocks.
import '../built.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { throttling as presets } from 'lighthouse/core/config/constants.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../e2e/support/chromium.js';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 2);
const RATE = process.env.RATE ? Number(process.env.RATE) : undefined;
const dir = mkdtempSync(join(tmpdir(), 'till-tasks-'));
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${join(dir, 'till.db')}` });
const { app } = await buildApp(
  { ...config, webDist: process.env.WEB_DIST ?? join(root, 'apps/web/dist') },
  { logger: false },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const url = process.env.URL ?? `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`;
const port = await new Promise<number>((resolve) => {
  const srv = createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address() as AddressInfo;
    srv.close(() => resolve(port));
  });
});
const profile = mkdtempSync(join(tmpdir(), 'till-tasks-chrome-'));
const chrome = spawn(CHROMIUM, [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`], {
  stdio: 'ignore',
});
try {
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      if (tries > 75) throw new Error('no debugging port');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const { default: lighthouse } = await import('lighthouse');
  for (let i = 0; i < RUNS; i++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(RATE === undefined ? {} : { throttling: { ...presets.mobileSlow4G, cpuSlowdownMultiplier: RATE } }),
    });
    const lhr = result!.lhr;
    const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
    console.log(
      `score ${Math.round((lhr.categories.performance?.score ?? 0) * 100)} FCP ${ms('first-contentful-paint')} LCP ${ms('largest-contentful-paint')} TBT ${ms('total-blocking-time')} TTI ${ms('interactive')} index ${Math.round(lhr.environment.benchmarkIndex)}`,
    );
    const items =
      (lhr.audits['long-tasks']?.details as { items?: { url: string; startTime: number; duration: number }[] })
        ?.items ?? [];
    for (const t of items)
      console.log(
        `  ${String(Math.round(t.startTime)).padStart(6)} +${String(Math.round(t.duration)).padStart(4)}  ${t.url.replace(/^http:\/\/[^/]+/, '')}`,
      );
    if (process.env.DETAIL)
      for (const id of ['bootup-time', 'mainthread-work-breakdown']) {
        const d = lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined;
        for (const item of d?.items?.slice(0, 12) ?? []) console.log(`  ${id}: ${JSON.stringify(item)}`);
      }
  }
} finally {
  const exited = new Promise((r) => chrome.once('exit', r));
  chrome.kill();
  await exited;
  await app.close();
  rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  rmSync(dir, { recursive: true, force: true });
}
