// A CPU profile of a hot call under load: payWithCredits, doCheckout, getUserInfo, login or register (first argument)
// driven over loopback HTTP by 10 connections for a few seconds, with the V8 profiler of this process
// (the server runs here; the load comes from a child process so that it is not in the profile). Prints
// the functions with the most self time, grouped by package, and writes the whole profile for DevTools.
// On SQLite it also times every statement the server runs while the load lasts and prints the database's
// share of an answer: each statement's time, the commits, and how many transactions a commit carried.
//   node --import tsx bench/store/profile.ts payWithCredits|doCheckout|getUserInfo|login|register [sqlite|postgres://...]
import '../built.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';
import { UNLIMITED_ENV } from '../lib.js';

const call = process.argv[2] ?? 'payWithCredits';
const url = process.argv[3] ?? 'sqlite';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PASSWORD = 'a long, uncommon passphrase';

/** Time spent in each SQLite statement by its text, counted only while `on`. */
const statements = { on: false, bySql: new Map<string, { count: number; ns: bigint }>() };

/**
 * Wraps better-sqlite3's statement methods (the server loads the same module) so that each run is
 * timed. Two clock reads per statement: a fraction of a microsecond against the statements' tens.
 */
function timeStatements(): void {
  const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;
  const probe = new Driver(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['run', 'all', 'get'] as const) {
    const original = proto[method] as (this: { source: string }, ...args: unknown[]) => unknown;
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (!statements.on) return original.apply(this, args);
      const start = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const spent = process.hrtime.bigint() - start;
        const seen = statements.bySql.get(this.source) ?? { count: 0, ns: 0n };
        seen.count += 1;
        seen.ns += spent;
        statements.bySql.set(this.source, seen);
      }
    };
  }
}

/** Each statement's share of an answer, the commits' share, and the server's CPU beside them. */
function reportStatements(answers: number, cpuPerAnswer: number): void {
  const rows = [...statements.bySql].map(([sql, { count, ns }]) => ({
    sql: sql.replace(/\s+/g, ' ').slice(0, 60),
    perAnswer: count / answers,
    each: Number(ns) / 1000 / count,
    total: Number(ns) / 1000 / answers,
  }));
  rows.sort((a, b) => b.total - a.total);
  const all = rows.reduce((sum, r) => sum + r.total, 0);
  const commits = statements.bySql.get('commit')?.count ?? 0;
  const members = statements.bySql.get('savepoint till_member')?.count ?? 0;
  console.log('\nSQLite statements while the load lasted (µs per answer = runs per answer x µs each)');
  for (const r of rows.filter((r) => r.total >= 0.5))
    console.log(
      `${r.total.toFixed(1).padStart(7)} µs  ${r.perAnswer.toFixed(2).padStart(5)} x ${r.each.toFixed(1).padStart(6)} µs  ${r.sql}`,
    );
  console.log(
    `${all.toFixed(1).padStart(7)} µs of SQLite per answer, of ${cpuPerAnswer.toFixed(0)} µs of server CPU` +
      (commits ? `; ${(members / commits).toFixed(1)} transactions a commit` : ''),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'till-profile-'));
if (url === 'sqlite') timeStatements();
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: url === 'sqlite' ? `sqlite:${join(dir, 'till.db')}` : url,
  ...UNLIMITED_ENV,
});
const { app, ctx } = await buildApp(config, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function post(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (json.code !== 900) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The functions and packages with the most self time, and the whole profile written for DevTools. */
function printProfile(profile: { nodes: ProfileNode[] }): void {
  const file = join(tmpdir(), `till-${call}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  const total = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const u = n.callFrame.url;
    const pkg = u.includes('node_modules/')
      ? u
          .slice(u.lastIndexOf('node_modules/') + 13)
          .split('/')
          .slice(0, u.includes('node_modules/@') ? 2 : 1)
          .join('/')
      : u.includes('/packages/')
        ? `till:${u
            .slice(u.indexOf('/packages/') + 10)
            .split('/')
            .slice(0, 1)
            .join('/')}`
        : u.startsWith('node:')
          ? 'node'
          : n.callFrame.functionName.startsWith('(')
            ? n.callFrame.functionName
            : 'other';
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
    const key = `${n.callFrame.functionName || '(anonymous)'} ${u.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  }
  const pct = (h: number) => `${((100 * h) / total).toFixed(1).padStart(5)} %`;
  console.log('\nself time by package');
  for (const [k, v] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(v)}  ${k}`);
  console.log('\nself time by function');
  for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${pct(v)}  ${k}`);
  console.log(`\nwhole profile: ${file} (open in Chrome DevTools)`);
}

try {
  const email = `profile-${Date.now()}@example.test`;
  // A PostgreSQL database keeps the products of earlier runs, and aliases are unique.
  const gem = `profile-gem-${Date.now().toString(36)}`;
  const reg = await post('/api/register', { email, password: PASSWORD, name: 'Profile' });
  const token = reg.token as string;
  const userId = (reg.user as { id: string }).id;
  await ctx.db.kysely.updateTable('users').set({ level: 9, email_confirmed: 1 }).where('id', '=', userId).execute();
  await post('/api/admin/products/save', {
    token,
    product: { alias: gem, title: 'Gem', type: 0, creditPrice: 1, grants: {} },
  });
  // Only the call that spends credits gets them: a grant marks the kept session's balance stale, and
  // getUserInfo would then read the balance again on every call, which bench/accounts never does.
  if (call === 'payWithCredits') {
    await post('/api/admin/credits/adjust', { token, userId, amount: 1_000_000_000, reason: 'profile funds' });
  }
  const calls: Record<string, [string, object]> = {
    doCheckout: ['/api/store/doCheckout', { token, products: 'credits-100;monthly', couponCode: 'WELCOME10' }],
    getUserInfo: ['/api/auth/getUserInfo', { token }],
    login: ['/api/login', { email, password: PASSWORD }],
    register: ['/api/register', { email: 'new-@example.test', password: PASSWORD, name: 'New' }],
    payWithCredits: [
      '/api/auth/payWithCredits',
      { token, products: JSON.stringify([gem]), dataObj: '{"source":"profile"}' },
    ],
  };
  const [path, body] = calls[call] ?? calls.payWithCredits!;
  // The body as a JavaScript string literal, for the load process's source.
  const bodySource = JSON.stringify(JSON.stringify(body));

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  if (process.env.BENCH_PROFILE !== '0') await session.post('Profiler.start');
  const cpuBefore = process.cpuUsage();
  statements.on = true;
  // The load from another process: autocannon's own work stays out of this profile.
  const load = spawn(
    process.execPath,
    [
      '-e',
      `require('autocannon')({url:${JSON.stringify(base + path)},method:'POST',headers:{'content-type':'application/json'},` +
        `body:${bodySource},connections:10,duration:${SECONDS},` +
        // Each sign-up needs an address of its own.
        (call === 'register'
          ? `requests:[{setupRequest:(q)=>({...q,body:${bodySource}.replace('new-@','new-'+Math.random().toString(36).slice(2)+'@')})}],`
          : '') +
        `},(e,r)=>{` +
        `console.log(JSON.stringify({rate:r.requests.average,non2xx:r.non2xx,errors:r.errors}))})`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  load.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => load.on('exit', resolve));
  const cpu = process.cpuUsage(cpuBefore);
  statements.on = false;
  const { profile } = (
    process.env.BENCH_PROFILE !== '0' ? await session.post('Profiler.stop') : { profile: { nodes: [] } }
  ) as { profile: { nodes: ProfileNode[] } };
  session.disconnect();
  const { rate } = JSON.parse(out.trim()) as { rate: number };
  const cpuPerAnswer = (cpu.user + cpu.system) / (rate * SECONDS);
  // CPU time per answer holds steadier than the rate when other work shares the machine.
  console.log(
    `${call} on ${url === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: ${rate.toFixed(0)}/s, ` +
      `${cpuPerAnswer.toFixed(0)} µs of server CPU per answer (profiler ${process.env.BENCH_PROFILE !== '0' ? 'on' : 'off'})`,
  );
  if (url === 'sqlite') reportStatements(rate * SECONDS, cpuPerAnswer);

  if (profile.nodes.length) printProfile(profile);
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
