// The first screen's long tasks as Lighthouse's mobile preset sees them (simulated at the given
// slowdown, 4x unless RATE says otherwise): for each run, the score, TBT and every task Lighthouse
// counts as long with the script it blames. For finding which start-up work still blocks.
import '../built.js';
import { lighthouseChrome, performanceScore, serveTill } from './serve.js';

const RUNS = Number(process.env.RUNS ?? 2);
const RATE = process.env.RATE ? Number(process.env.RATE) : undefined;
const till = await serveTill();
const url = process.env.URL ?? `${till.base}/`;
const chrome = await lighthouseChrome();
try {
  for (let i = 0; i < RUNS; i++) {
    const lhr = await chrome.run(url, RATE);
    const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
    console.log(
      `score ${performanceScore(lhr)} FCP ${ms('first-contentful-paint')} LCP ${ms('largest-contentful-paint')} TBT ${ms('total-blocking-time')} TTI ${ms('interactive')} index ${Math.round(lhr.environment.benchmarkIndex)}`,
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
  await chrome.close();
  await till.close();
}
