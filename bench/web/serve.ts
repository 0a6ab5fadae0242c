// What every first-screen tool here starts: the built web app served by the real server, as
// `npm start` serves it (on a throwaway SQLite database), and Chromium for Lighthouse to drive.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type lighthouse from 'lighthouse';
import { throttling as presets } from 'lighthouse/core/config/constants.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../e2e/support/chromium.js';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';
import { portForProcess } from '../../packages/test-support/src/ports.js';

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
 * One page load recorded by Lighthouse's mobile preset, to be scored at any CPU slowdown. The preset
 * simulates its phone (its throttling method is `simulate`): it records the load on the host at full
 * speed, then multiplies what the main thread did by the slowdown when it computes the metrics, so
 * one recording can be scored at several slowdowns. `index` is the benchmark index Lighthouse
 * measured on the host right before this load.
 */
export type LighthouseRecording = {
  index: number;
  score: (multiplier: number) => Promise<LighthouseResult>;
  dispose: () => void;
};

/**
 * A Chromium with a debugging port, for Lighthouse: `run` takes one run of its mobile preset with
 * the CPU slowed down `multiplier` times (the preset's 4 when not given; its network as it is);
 * `record` records one load to be scored at any slowdown afterwards.
 */
export async function lighthouseChrome(): Promise<{
  run: (url: string, multiplier?: number) => Promise<LighthouseResult>;
  record: (url: string) => Promise<LighthouseRecording>;
  close: () => Promise<void>;
}> {
  const port = await portForProcess();
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
  const { default: lighthouse } = await import('lighthouse');
  const flags = (multiplier: number) => ({
    port,
    output: 'json' as const,
    logLevel: 'error' as const,
    onlyCategories: ['performance'],
    throttling: { ...presets.mobileSlow4G, cpuSlowdownMultiplier: multiplier },
  });
  const answer = (result: Awaited<ReturnType<typeof lighthouse>>): LighthouseResult => {
    if (!result) throw new Error('Lighthouse answered nothing');
    if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
    return result.lhr;
  };
  return {
    run: async (url, multiplier = presets.mobileSlow4G.cpuSlowdownMultiplier) =>
      answer(await lighthouse(url, flags(multiplier))),
    record: async (url) => {
      // Lighthouse's own gather-then-audit split (its CLI's -G and -A): the load is recorded into
      // `dir`, then audited from there as often as asked.
      const dir = mkdtempSync(join(tmpdir(), 'till-bench-lighthouse-'));
      try {
        const preset = presets.mobileSlow4G.cpuSlowdownMultiplier;
        await lighthouse(url, { ...flags(preset), gatherMode: dir });
        const file = join(dir, 'artifacts.json');
        const artifacts = JSON.parse(readFileSync(file, 'utf8')) as {
          BenchmarkIndex: number;
          settings: { throttling: { cpuSlowdownMultiplier: number } };
        };
        return {
          index: artifacts.BenchmarkIndex,
          score: async (multiplier) => {
            // Lighthouse audits only with the settings it recorded with. The slowdown is not one it
            // recorded with: under `simulate` the load runs at full speed, and the slowdown reaches the
            // page only through requestIdleCallback's deadlines, which Till does not use.
            artifacts.settings.throttling.cpuSlowdownMultiplier = multiplier;
            writeFileSync(file, JSON.stringify(artifacts));
            return answer(await lighthouse(undefined, { ...flags(multiplier), auditMode: dir }));
          },
          dispose: () => rmSync(dir, { recursive: true, force: true }),
        };
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    },
    close,
  };
}

/**
 * The CPU slowdown that turns a machine of this Lighthouse benchmark index into the device the mobile
 * preset stands for (its 4x assumes a machine of index 1,533): the formula of Lighthouse's CPU
 * throttling calculator, to which its docs/throttling.md sends a slower or faster machine.
 */
export function slowdownFor(index: number): number {
  if (index >= 1300) return 3 + (index - 1300) / 233;
  if (index >= 800) return 2 + (index - 800) / 500;
  return Math.max(1, 1 + (index - 150) / 650);
}

/** Lighthouse's performance score of a run, 0-100. */
export function performanceScore(lhr: LighthouseResult): number {
  return Math.round((lhr.categories.performance?.score ?? 0) * 100);
}

/**
 * One load of `url`, recorded once and scored at each slowdown `slowdowns` names for the benchmark
 * index measured right before it. Lighthouse now and then records no navigation (NO_NAVSTART): such
 * a load is taken again, once, and `onRetry` hears why.
 */
export async function scoreLoad(
  chrome: Awaited<ReturnType<typeof lighthouseChrome>>,
  url: string,
  slowdowns: (index: number) => number[],
  onRetry: (reason: string) => void = () => {},
): Promise<{ index: number; results: LighthouseResult[] }> {
  const take = async () => {
    const recording = await chrome.record(url);
    try {
      const results: LighthouseResult[] = [];
      for (const multiplier of slowdowns(recording.index)) results.push(await recording.score(multiplier));
      return { index: recording.index, results };
    } finally {
      recording.dispose();
    }
  };
  return take().catch((error: unknown) => {
    onRetry(error instanceof Error ? error.message : String(error));
    return take();
  });
}
