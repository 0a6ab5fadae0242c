// Credit purchases while the server takes a backup, beside the same purchases without: the p99 of
// payWithCredits in both, measured in the same run on the same database, on SQLite, and the longest
// any purchase waited. The database is grown first to BENCH_BACKUP_MB (60 by default; 1024 for the
// issue's 1 GB) by bulk inserts straight into SQLite before the server opens it (./grow.ts).
import '../built.js';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';
import { inRounds, reportQuiet, roundMedian, roundRatios } from '../lib.js';
import { growDatabase, syncFile } from './grow.js';
import { watchStalls } from './stalls.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const TARGET_MB = Number(process.env.BENCH_BACKUP_MB ?? 60);
const CONNECTIONS = 10;
const GOAL = 2;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

const dir = mkdtempSync(join(tmpdir(), 'till-bench-backup-'));
const dbFile = join(dir, 'till.db');
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: `sqlite:${dbFile}`,
  STORAGE_URL: `file:${join(dir, 'uploads')}`,
  BACKUP_URL: `file:${join(dir, 'backups')}`,
  BACKUP_KEEP: '1',
});

// The schema first (the server migrates at start), then the history, with no server on the file.
// BENCH_BACKUP_GROWN names a file that keeps a grown database for the next runs: copied in when it
// is there (the server migrates it forward if it is older), written after growing when it is not.
const kept = process.env.BENCH_BACKUP_GROWN;
if (kept && existsSync(kept)) {
  copyFileSync(kept, dbFile);
  syncFile(dbFile);
  console.log(`database: ${mb(statSync(dbFile).size)}, copied from ${kept}`);
} else {
  await (await buildApp(config, { logger: false })).app.close();
  const grown = growDatabase(dbFile, TARGET_MB * 1024 * 1024);
  console.log(
    `database: ${grown.users} users, ${grown.orders} paid orders, ${grown.ledger} ledger entries: ${mb(grown.bytes)} ` +
      `(grown in ${(grown.ms / 1000).toFixed(1)} s)`,
  );
  if (kept) copyFileSync(dbFile, kept);
}

const { app, ctx } = await buildApp(config, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const db = ctx.db.kysely;

/** A call through node:http, which waits as long as the answer takes (fetch gives up after 300 s). */
function call(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

// A buyer with credits for the whole run (given by the administrator, a ledger entry like any
// other), and the administrator, who also starts the backups.
const registered = async (email: string) => {
  const r = await call('/api/register', { email, password: 'a long, uncommon passphrase', name: 'Bench', lang: 'en' });
  return { token: r.token as string, id: (r.user as { id: string }).id };
};
const buyer = await registered('buyer@bench.test');
const admin = await registered('admin@bench.test');
await db.updateTable('users').set({ level: 9, email_confirmed: 1 }).where('id', '=', admin.id).execute();
const funded = await call('/api/admin/credits/adjust', {
  token: admin.token,
  userId: buyer.id,
  amount: 1_000_000_000,
  reason: 'bench funds',
});
if (funded.code !== 900) throw new Error(`funding the buyer failed: ${JSON.stringify(funded)}`);
const now = Date.now();
await db
  .insertInto('products')
  .values({
    id: 'bench-gem',
    alias: 'bench-gem',
    title: 'Gem',
    description: '',
    type: 0,
    price_amount: null,
    price_currency: null,
    credit_price: 1,
    grant_credits: null,
    grant_period: null,
    image_url: null,
    store_ids: '{}',
    active: 1,
    created_at: now,
    updated_at: now,
  })
  .execute();

const purchase = { token: buyer.token, products: JSON.stringify(['bench-gem']) };

interface Taken {
  p99: number;
  /** The longest a purchase waited for its answer. */
  max: number;
  /** The event loop's longest delay meanwhile. */
  loopMax: number;
  /** The longest garbage collection pause meanwhile (the server and the load share the process). */
  gcMax: number;
}
const taken: Record<'without' | 'during', Taken[]> = { without: [], during: [] };

/**
 * payWithCredits from 10 connections until `until` settles (at least SECONDS): its p99 and longest
 * latency, and the event loop's longest delay meanwhile.
 */
async function purchases(until: () => Promise<unknown>): Promise<Taken> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  let stop: () => void = () => undefined;
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${base}/api/auth/payWithCredits`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(purchase),
        connections: CONNECTIONS,
        duration: 24 * 60 * 60,
        // A purchase held up by a backup is a stall to measure, not an error (autocannon's own limit is 10 s).
        timeout: 600,
      },
      (error: unknown, r) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(r)),
    );
    stop = () => instance.stop();
  });
  await Promise.all([until(), new Promise((r) => setTimeout(r, SECONDS * 1000))]);
  stop();
  const r = await result;
  loop.disable();
  gc.disconnect();
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { p99: r.latency.p99, max: r.latency.max, loopMax: loop.max / 1e6, gcMax };
}

async function without(): Promise<number> {
  const t = await purchases(() => Promise.resolve());
  taken.without.push(t);
  return t.p99;
}

const backups: { ms: number; size: number }[] = [];
/** The event loop's longest delay in each step of the backups (the step as the list last told it). */
const loopByStep: Record<string, number> = {};
/** The WAL's size as each copy of the database ended: what the purchases wrote while it read. */
const walAfterSnapshot: number[] = [];
/** The WAL's largest size while a backup ran: it cannot start over until the backup has ended. */
let walLargest = 0;
/** The purchases over whole backups: one, and more one after another until SECONDS have passed. */
async function during(): Promise<number> {
  const t0 = Date.now();
  const t = await purchases(async () => {
    do {
      const b0 = Date.now();
      const r = await call('/api/admin/backups/start', { token: admin.token });
      if (stalls) steps.push(`${new Date().toISOString().slice(11, 23)} backup started`);
      if (r.code !== 900) throw new Error(`the backup was refused: ${JSON.stringify(r)}`);
      let step = 'snapshot';
      let last = performance.now();
      const sampler = setInterval(() => {
        const at = performance.now();
        loopByStep[step] = Math.max(loopByStep[step] ?? 0, at - last - 10);
        last = at;
      }, 10);
      // The call answers at once; the list tells when the backup has ended.
      type Run = { state: string; step: string; backup: { size: number } | null } | null;
      let run: Run;
      do {
        await new Promise((resolve) => setTimeout(resolve, 500));
        run = ((await call('/api/admin/backups/list', { token: admin.token })).data as { run: Run }).run;
        const wal = statSync(`${dbFile}-wal`).size;
        walLargest = Math.max(walLargest, wal);
        if (step === 'snapshot' && run?.step !== 'snapshot') walAfterSnapshot.push(wal);
        if (stalls && run?.step && run.step !== step)
          steps.push(`${new Date().toISOString().slice(11, 23)} ${run.step}`);
        step = run?.step ?? step;
      } while (run?.state === 'running');
      clearInterval(sampler);
      if (run?.state !== 'done' || !run.backup) throw new Error(`the backup failed: ${JSON.stringify(run)}`);
      backups.push({ ms: Date.now() - b0, size: run.backup.size });
    } while (Date.now() - t0 < SECONDS * 1000);
  });
  taken.during.push(t);
  return t.p99;
}

// BENCH_STALLS=1 (Linux): what the server's thread waited for in the kernel, over 40 ms at a time.
const stalls = process.env.BENCH_STALLS ? watchStalls() : undefined;
/** With BENCH_STALLS, when each backup started and went to its next step, beside the stretches' times. */
const steps: string[] = [];
const rounds = await inRounds(ROUNDS, { without, during });
const stalled = await stalls?.();
const { ratio, low, high } = roundRatios(rounds, 'during', 'without');
rounds.forEach((round, i) => {
  const [w, d] = [taken.without[i]!, taken.during[i]!];
  console.log(
    `round ${i + 1}: p99 without ${round.without.toFixed(1)} ms, during ${round.during.toFixed(1)} ms, ` +
      `ratio ${(round.during / round.without).toFixed(2)}; longest wait ${w.max} / ${d.max} ms, ` +
      `event loop's longest delay ${w.loopMax.toFixed(0)} / ${d.loopMax.toFixed(0)} ms, ` +
      `longest garbage collection ${w.gcMax.toFixed(0)} / ${d.gcMax.toFixed(0)} ms (without / during)`,
  );
});
const backupMs = backups.map((b) => b.ms).sort((a, b) => a - b);
const longest = (list: Taken[], key: 'max' | 'loopMax') => Math.max(...list.map((t) => t[key]));

console.log(
  `backups: ${backups.length} taken, ${(backupMs[0]! / 1000).toFixed(1)}-${(backupMs.at(-1)! / 1000).toFixed(1)} s each, ` +
    `archive ${mb(backups.at(-1)?.size ?? 0)}`,
);
console.log(
  `payWithCredits p99  without ${roundMedian(rounds, 'without').toFixed(1)} ms   during backups ${roundMedian(rounds, 'during').toFixed(1)} ms   ` +
    `ratio ${ratio.toFixed(2)} (${low.toFixed(2)}-${high.toFixed(2)} over ${ROUNDS} rounds; goal < ${GOAL.toFixed(2)}) ${ratio < GOAL ? 'met' : 'MISSED'}`,
);
console.log(
  `longest stall: a purchase waited ${longest(taken.during, 'max')} ms during backups (${longest(taken.without, 'max')} ms without); ` +
    `event loop delayed ${longest(taken.during, 'loopMax').toFixed(0)} ms at most during backups (${longest(taken.without, 'loopMax').toFixed(0)} ms without)`,
);
console.log(
  `event loop's longest delay by the backup's step: ${Object.entries(loopByStep)
    .map(([step, ms]) => `${step} ${ms.toFixed(0)} ms`)
    .join(', ')}; the WAL as the database's copy ended: ${walAfterSnapshot.map(mb).join(', ')}, ` +
    `at most ${mb(walLargest)} while a backup ran`,
);
if (stalled) {
  console.log(`the server's thread in the kernel over 40 ms at a time, during the rounds: ${stalled.length}`);
  for (const line of stalled) console.log(`  ${line}`);
  console.log(`the backups' steps: ${steps.join(', ')}`);
}
reportQuiet();
// The checkpoint worker is unref'd and may still be copying a large WAL when the database closes:
// a timer keeps the process up until the close has waited for it.
const keepAlive = setInterval(() => undefined, 1000);
await app.close();
clearInterval(keepAlive);
rmSync(dir, { recursive: true, force: true });
process.exit(ratio < GOAL ? 0 : 1);
