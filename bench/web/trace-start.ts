// The first screen's main-thread tasks, unthrottled, as Lighthouse's simulation takes them before it
// multiplies them by its CPU slowdown: every task longer than MIN ms (8 by default; at 4x a task
// above 12.5 ms blocks) with what took its time. For splitting start-up work into short tasks.
import '../built.js';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../e2e/support/chromium.js';
import { serveTill } from './serve.js';

const MIN = Number(process.env.MIN ?? 8);
const till = await serveTill();
const base = till.base;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
type Ev = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
};
try {
  for (let run = 0; run < Number(process.env.RUNS ?? 1); run++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'blink.user_timing',
        'loading',
      ],
    });
    await page.goto(base + (process.env.PAGE ?? '/'), { waitUntil: 'networkidle' });
    await page.waitForTimeout(1500);
    const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: Ev[] }).traceEvents;
    // The page's main thread: the renderer main thread that ran the most.
    const busy = new Map<string, number>();
    const names = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    const ours = new Set(
      events.filter((e) => String(e.args?.data?.url ?? '').startsWith(base)).map((e) => `${e.pid}:${e.tid}`),
    );
    for (const e of events)
      if (
        e.name === 'RunTask' &&
        ours.has(`${e.pid}:${e.tid}`) &&
        names.some((n) => n.pid === e.pid && n.tid === e.tid)
      )
        busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
    const [pid, tid] = ([...busy].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '0:0').split(':').map(Number);
    const main = { pid, tid };
    const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
    const start = events.find((e) => e.name === 'navigationStart' || e.name === 'TracingStartedInBrowser')?.ts ?? 0;
    const fcp = events.find((e) => e.name === 'firstContentfulPaint');
    console.log(`run ${run + 1}: FCP ${fcp ? ((fcp.ts - start) / 1000).toFixed(0) : '?'} ms`);
    const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) >= MIN * 1000);
    let blocking = 0;
    for (const t of tasks) {
      const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur!);
      const byName = new Map<string, number>();
      for (const e of inside) {
        const what = e.args?.data?.url
          ? `${e.name} ${String(e.args.data.url).replace(base, '')}`
          : e.args?.data?.functionName
            ? `${e.name} ${e.args.data.functionName}`
            : e.name;
        byName.set(what, Math.max(byName.get(what) ?? 0, 0) + (e.dur ?? 0));
      }
      const top = [...byName]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`);
      blocking += Math.max(0, (t.dur! / 1000) * 4 - 50);
      console.log(
        `  ${((t.ts - start) / 1000).toFixed(0).padStart(6)} ${(t.dur! / 1000).toFixed(1).padStart(6)} ms  ${top.join(' | ')}`,
      );
    }
    console.log(`  blocking at 4x if every task counted: ${blocking.toFixed(0)} ms`);
    await context.close();
  }
} finally {
  await browser.close();
  await till.close();
}
