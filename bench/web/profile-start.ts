// Where the first screen's main-thread time goes: loads the store's front page in Chromium with the
// CPU slowed down 4 times (as Lighthouse's mobile preset simulates), records a CPU profile and the
// long tasks, and prints the functions and scripts that took the most time. For finding what to
// defer; figures vary with the machine, the split between them does not.
import '../built.js';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../e2e/support/chromium.js';
import { serveTill } from './serve.js';

const till = await serveTill();
const base = till.base;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: CHROMIUM_FLAGS.filter((f) => f !== '--headless'),
});
try {
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.RATE ?? 4) });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.addInitScript(() => {
    (window as unknown as { __long: { start: number; duration: number }[] }).__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        (window as unknown as { __long: { start: number; duration: number }[] }).__long.push({
          start: Math.round(e.startTime),
          duration: Math.round(e.duration),
        });
    }).observe({ type: 'longtask', buffered: true });
  });
  await cdp.send('Profiler.start');
  await page.goto(base + '/', { waitUntil: 'networkidle' });
  await page.waitForTimeout(3000);
  const { profile } = (await cdp.send('Profiler.stop')) as {
    profile: {
      nodes: {
        id: number;
        callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
        children?: number[];
      }[];
      samples: number[];
      timeDeltas: number[];
    };
  };
  const long = await page.evaluate(() => (window as unknown as { __long: unknown[] }).__long);
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
  console.log('FCP', Math.round(fcp ?? 0), 'long tasks', JSON.stringify(long));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFn = new Map<string, number>();
  const byUrl = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byNode.get(id)!;
    const url = n.callFrame.url.replace(base, '');
    const key = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    byUrl.set(url || n.callFrame.functionName, (byUrl.get(url || n.callFrame.functionName) ?? 0) + us);
  }
  // Inclusive time of each module's top-level code (a node at line 0, column 0 of its script).
  const inclusive = (id: number): number => {
    const n = byNode.get(id)!;
    return (self.get(id) ?? 0) + (n.children ?? []).reduce((sum, c) => sum + inclusive(c), 0);
  };
  const modules = new Map<string, number>();
  for (const n of profile.nodes)
    if (n.callFrame.lineNumber === 0 && n.callFrame.columnNumber === 0 && n.callFrame.url.startsWith(base)) {
      const url = n.callFrame.url.replace(base, '');
      modules.set(url, (modules.get(url) ?? 0) + inclusive(n.id));
    }
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  // The profile's own tasks: runs of samples between idle ones. Each one over 50 ms, with the
  // functions that took most of it (self time) and the stack's outermost script frame.
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const n = byNode.get(id)!;
    return `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(base, '')}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
  };
  const outermost = (id: number) => {
    let at = id;
    let found = id;
    while (parent.has(at)) {
      at = parent.get(at)!;
      if (byNode.get(at)!.callFrame.url) found = at;
    }
    return label(found);
  };
  let task: { at: number; us: number; fns: Map<string, number>; roots: Map<string, number> } | undefined;
  let clock = 0;
  const tasks: NonNullable<typeof task>[] = [];
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    clock += dt;
    if (idle.has(id)) {
      if (task) tasks.push(task);
      task = undefined;
      return;
    }
    task ??= { at: clock, us: 0, fns: new Map(), roots: new Map() };
    task.us += dt;
    task.fns.set(label(id), (task.fns.get(label(id)) ?? 0) + dt);
    const root = outermost(id);
    task.roots.set(root, (task.roots.get(root) ?? 0) + dt);
  });
  console.log('tasks over 50 ms (profile time, ms):');
  for (const t of tasks.filter((t) => t.us > 50_000)) {
    console.log(`  at ${(t.at / 1000).toFixed(0)}: ${(t.us / 1000).toFixed(0)} ms`);
    for (const [k, v] of top(t.roots, 4)) console.log(`      from ${(v / 1000).toFixed(1).padStart(6)}  ${k}`);
    for (const [k, v] of top(t.fns, 8)) console.log(`      self ${(v / 1000).toFixed(1).padStart(6)}  ${k}`);
  }
  console.log('self time by script (ms):');
  for (const [k, v] of top(byUrl, 15)) console.log(`  ${(v / 1000).toFixed(1).padStart(8)}  ${k}`);
  console.log('module evaluation, inclusive (ms):');
  for (const [k, v] of top(modules, 15)) console.log(`  ${(v / 1000).toFixed(1).padStart(8)}  ${k}`);
  console.log('self time by function (ms):');
  for (const [k, v] of top(byFn, Number(process.env.TOP ?? 40)))
    console.log(`  ${(v / 1000).toFixed(1).padStart(8)}  ${k}`);
} finally {
  await browser.close();
  await till.close();
}
