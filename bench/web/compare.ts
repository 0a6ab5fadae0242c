// Builds side by side: alternates loads of the builds in `WEB_DISTS` (folders, comma-separated),
// ROUNDS rounds (3), each load recorded once and scored (score, blocking time, largest paint) at the preset's 4x, at 6x and at the slowdown
// its own benchmark index calls for (decision record 011). For telling a change from the machine's
// drift, which moves these figures as much as a change does: build the before into one folder and
// the after into another (`npm run build -w @till/web`, then copy apps/web/dist).
import '../built.js';
import { lighthouseChrome, performanceScore, scoreLoad, serveTill, slowdownFor } from './serve.js';

const dists = (process.env.WEB_DISTS ?? '').split(',').filter(Boolean);
if (dists.length < 2) throw new Error('WEB_DISTS names at least two build folders, comma-separated');
const servers = await Promise.all(dists.map((dist) => serveTill(dist)));
const chrome = await lighthouseChrome();
const lines = new Map<string, string[]>(dists.map((d) => [d, []]));
try {
  for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
    for (const [i, dist] of dists.entries()) {
      const load = await scoreLoad(
        chrome,
        `${servers[i]!.base}/`,
        (index) => [4, 6, slowdownFor(index)],
        (reason) => console.log(`${dist}: load taken again: ${reason}`),
      );
      const scores = load.results.map(
        (lhr) =>
          `${(lhr.configSettings.throttling.cpuSlowdownMultiplier ?? 4).toFixed(2)}x ${performanceScore(lhr)}, TBT ${Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0)} ms, LCP ${Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0)} ms`,
      );
      const line = `index ${Math.round(load.index)}   ${scores.join('   ')}`;
      lines.get(dist)!.push(line);
      console.log(`${dist}: ${line}`);
    }
  }
} finally {
  await chrome.close();
  for (const server of servers) await server.close();
}
for (const [dist, runs] of lines) {
  console.log(dist);
  for (const line of runs) console.log(`  ${line}`);
}
