// The whole shop at a fixed arrival rate, on SQLite and (with BENCH_DATABASE_URL or TEST_DATABASE_URL)
// on PostgreSQL: catalog reads, sign-ins, getUserInfo, doCheckout, the sandbox provider's signed
// notifications for those checkouts, order polling every 2 s per open order, payWithCredits and coupon
// redemptions, all at once against one Till process. Sign-ins arrive at the rate the machine hashes
// passwords (measured first), so that they alone saturate the hash. The mix runs in rounds (three by
// default) on one server; it prints throughput, p50 and p99 per call as the median of the rounds, each
// round's p99, and errors, beside two ceilings measured in the same run: a bare Fastify JSON route
// (before every round, since the machine's pace drifts) and the database's own rate for a small write
// transaction (a guarded balance update and a ledger insert).
import '../built.js';
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { connect } from '../../packages/server/dist/db/connect.js';
import { sign } from '../../packages/server/dist/security/tokens.js';
import {
  checkQuiet,
  measure,
  median,
  percentile,
  rawHashRate,
  reportQuiet,
  send,
  startServer,
  stopServers,
  UNLIMITED_ENV,
} from '../lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const USERS = Number(process.env.BENCH_USERS ?? 60);
/** Arrival rates per second of everything but sign-ins (those follow the hash rate). */
const RATES = {
  catalog: 200,
  getUserInfo: 200,
  doCheckout: 20,
  payWithCredits: 40,
  redeemCoupon: 10,
};
const P99_GOAL_MS = 50;
/** Rounds of the mix per engine; each figure printed is the median of the rounds'. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** How often the load generator's event loop is sampled for its own lateness. */
const DELAY_RESOLUTION_MS = 5;
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const SECRET = randomBytes(32).toString('hex');
const PASSWORD = 'a long, uncommon passphrase';

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
/**
 * Sign-ins waiting for the hash hold connections of their own, as separate visitors would: sharing the
 * pool above, their queue would hold every other call back in this process, not in the server.
 */
const signInAgent = new Agent({ keepAlive: true });

/** One POST with a JSON body over a kept-alive connection; the answer's body as JSON. */
async function post(url: string, body: unknown, via = agent): Promise<Record<string, unknown>> {
  const { status, text } = await send(url, { body, agent: via });
  if (status !== 200) throw new Error(`HTTP ${status}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function ok(url: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await post(url, body);
  if (answer.code !== 900) throw new Error(`${url}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Latencies and errors of one kind of call. */
class Stats {
  readonly ms: number[] = [];
  errors = 0;
  /** When the first call was sent and the last answer arrived (performance.now()). */
  first = Infinity;
  last = 0;
  readonly reasons = new Map<string, number>();
  /** `ms` in ascending order, kept from the first percentile asked until the next answer. */
  private sorted: number[] | undefined;
  async time(work: () => Promise<Record<string, unknown>>, expect = (a: Record<string, unknown>) => a.code === 900) {
    const start = performance.now();
    this.first = Math.min(this.first, start);
    try {
      const answer = await work();
      this.last = performance.now();
      this.ms.push(this.last - start);
      this.sorted = undefined;
      if (!expect(answer)) this.fail(`code ${String(answer.code)}${answer.reason ? ` ${String(answer.reason)}` : ''}`);
      return answer;
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }
  private fail(reason: string) {
    this.errors += 1;
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
  }
  /** Answers a second, over the time from the first call sent to the last answer. */
  get rate(): number {
    return this.ms.length / Math.max(1e-9, (this.last - this.first) / 1000);
  }
  percentile(p: number): number {
    // Sorted once when first asked, after the round: the report asks for more than one percentile.
    this.sorted ??= [...this.ms].sort((a, b) => a - b);
    return percentile(this.sorted, p);
  }
}

/** The database's own pace: small write transactions (guarded update + insert) on the same engine. */
async function rawTransactionRate(url: string, seconds: number): Promise<number> {
  if (url.startsWith('sqlite:')) {
    const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;
    const db = new Driver(url.slice('sqlite:'.length));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE IF NOT EXISTS raw_balance (id INTEGER PRIMARY KEY, credits INTEGER NOT NULL)');
    db.exec('CREATE TABLE IF NOT EXISTS raw_ledger (id INTEGER PRIMARY KEY, amount INTEGER, at INTEGER)');
    db.prepare('INSERT OR REPLACE INTO raw_balance VALUES (1, 1000000000)').run();
    const update = db.prepare('UPDATE raw_balance SET credits = credits - 1 WHERE id = 1 AND credits - 1 >= 0');
    const insert = db.prepare('INSERT INTO raw_ledger (amount, at) VALUES (?, ?)');
    const tx = db.transaction(() => {
      update.run();
      insert.run(-1, Date.now());
    });
    let done = 0;
    const end = Date.now() + seconds * 1000;
    const start = Date.now();
    while (Date.now() < end) {
      for (let i = 0; i < 100; i++) tx();
      done += 100;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const rate = done / ((Date.now() - start) / 1000);
    db.close();
    return rate;
  }
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query('CREATE TABLE IF NOT EXISTS raw_balance (id INTEGER PRIMARY KEY, credits INTEGER NOT NULL)');
  await pool.query('CREATE TABLE IF NOT EXISTS raw_ledger (id SERIAL PRIMARY KEY, amount INTEGER, at BIGINT)');
  await pool.query(
    'INSERT INTO raw_balance VALUES (1, 1000000000) ON CONFLICT (id) DO UPDATE SET credits = 1000000000',
  );
  let done = 0;
  const end = Date.now() + seconds * 1000;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      const client = await pool.connect();
      try {
        while (Date.now() < end) {
          await client.query('BEGIN');
          await client.query('UPDATE raw_balance SET credits = credits - 1 WHERE id = 1 AND credits - 1 >= 0');
          await client.query('INSERT INTO raw_ledger (amount, at) VALUES ($1, $2)', [-1, Date.now()]);
          await client.query('COMMIT');
          done += 1;
        }
      } finally {
        client.release();
      }
    }),
  );
  const rate = done / ((Date.now() - start) / 1000);
  await pool.end();
  return rate;
}

/** Fires `fire` at `perSecond` on a fixed schedule, whatever the answers' pace (an open load). */
function schedule(perSecond: number, until: number, fire: () => void): Promise<void> {
  const start = performance.now();
  let issued = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      const due = Math.floor(((Math.min(now, until) - start) / 1000) * perSecond);
      while (issued < due) {
        issued += 1;
        fire();
      }
      if (now >= until) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
}

interface Shopper {
  email: string;
  token: string;
}

/** One engine's run; `withGoal` holds its p99s to the goal (SQLite), otherwise they are recorded (PostgreSQL). */
async function shop(
  engine: string,
  databaseUrl: string,
  bareRate: () => Promise<number>,
  signInRate: number,
  withGoal: boolean,
) {
  const start = () =>
    startServer(
      ['--import', 'tsx', join(root, 'bench', 'till-server.ts')],
      { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, SIGNING_SECRET: SECRET, ...UNLIMITED_ENV },
      root,
    );
  let base = await start();
  const api = (path: string) => `${base}${path}`;
  // Shoppers, the first of them an administrator (made so in the database, as an operator would),
  // who funds the others through the admin call so that every balance has its ledger entry.
  const shoppers: Shopper[] = [];
  for (let i = 0; i < USERS; i++) {
    const email = `shopper-${i}-${Date.now().toString(36)}@example.test`;
    const reg = await ok(api('/api/register'), { email, password: PASSWORD, name: `Shopper ${i}` });
    shoppers.push({ email, token: reg.token as string });
  }
  // The administrator is appointed in the database with the server stopped, as an operator would:
  // a SQLite file has one server process, and the server's own writes are the ones it sees.
  await stopServers();
  const db = await connect(databaseUrl);
  const admin = shoppers[0]!;
  const adminUser = await db.kysely
    .selectFrom('users')
    .select('id')
    .where('email', '=', admin.email)
    .executeTakeFirstOrThrow();
  await db.kysely.updateTable('users').set({ level: 9, email_confirmed: 1 }).where('id', '=', adminUser.id).execute();
  const users = await db.kysely.selectFrom('users').select(['id', 'email']).execute();
  await db.close();
  base = await start();
  for (const u of users) {
    await ok(api('/api/admin/credits/adjust'), {
      token: admin.token,
      userId: u.id,
      amount: 1_000_000,
      reason: 'shop bench',
    });
  }
  await ok(api('/api/admin/products/save'), {
    token: admin.token,
    product: { alias: 'shop-gem', title: 'Gem', type: 0, creditPrice: 1, grants: {} },
  });
  const coupons = (
    (await ok(api('/api/admin/coupons/bulk'), {
      token: admin.token,
      count: 1_000,
      prefix: 'SHOP',
      coupon: { kind: 'grant', grantCredits: 5 },
    })) as { data: { codes: string[] } }
  ).data.codes;

  const rounds: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await checkQuiet(`bare route before round ${r + 1} on ${engine}`);
    const bare = await bareRate();
    await checkQuiet(`shop mix round ${r + 1} on ${engine}`);
    rounds.push({ bare, ...(await mix(api, shoppers, coupons, signInRate)) });
  }
  await stopServers();

  console.log(
    `\n${engine}: ${ROUNDS} rounds of ${SECONDS} s, ${USERS} shoppers, sign-ins offered at ${signInRate.toFixed(0)}/s ` +
      `(the hash rate); each figure the median of the rounds, each round's p99 in brackets`,
  );
  let met = true;
  let total = 0;
  for (const name of CALLS) {
    const each = rounds.map((round) => round.stats[name]);
    const p99s = each.map((s) => s.percentile(99));
    const p99 = median(p99s);
    const p50 = median(each.map((s) => s.percentile(50)));
    const errors = each.reduce((sum, s) => sum + s.errors, 0);
    const rate = median(each.map((s) => s.rate));
    total += rate;
    const held = withGoal && name !== 'signIn';
    // A call with no answers in a round (orders are first polled 2 s in) cannot be held to the goal.
    const answered = each.every((s) => s.ms.length > 0);
    const goal = !held
      ? ''
      : !answered
        ? 'MISSED: no answers in a round (BENCH_SECONDS too short?)'
        : p99 < P99_GOAL_MS
          ? `p99 < ${P99_GOAL_MS} ms met`
          : `p99 < ${P99_GOAL_MS} ms MISSED`;
    if (held && !(answered && p99 < P99_GOAL_MS)) met = false;
    if (errors) met = false;
    const reasons = new Map<string, number>();
    for (const s of each) for (const [reason, n] of s.reasons) reasons.set(reason, (reasons.get(reason) ?? 0) + n);
    const why = [...reasons].map(([reason, n]) => `${n}x ${reason}`).join(', ');
    console.log(
      `${name.padEnd(15)} ${rate.toFixed(1).padStart(7)}/s  p50 ${p50.toFixed(1).padStart(6)} ms` +
        `  p99 ${p99.toFixed(1).padStart(7)} ms (${p99s.map((v) => v.toFixed(1)).join(' ')})` +
        `  errors ${String(errors).padStart(4)}  ${goal}${why ? `  (${why})` : ''}`,
    );
  }
  for (const [i, round] of rounds.entries()) {
    console.log(
      `round ${i + 1}: bare route just before ${round.bare.toFixed(0)}/s; load generator's own event loop late by ` +
        `p99 ${round.late.p99.toFixed(1)} ms, at most ${round.late.max.toFixed(1)} ms`,
    );
  }
  console.log(
    `all calls ${total.toFixed(0)}/s; ceilings: bare route ${median(rounds.map((round) => round.bare)).toFixed(0)}/s, ` +
      `raw write transaction ${(await rawTransactionRate(databaseUrl, 3)).toFixed(0)}/s`,
  );
  return met;
}

/** The calls the mix times, in the order they are reported. */
const CALLS = [
  'catalog',
  'signIn',
  'getUserInfo',
  'doCheckout',
  'notification',
  'orderStatus',
  'payWithCredits',
  'redeemCoupon',
] as const;
type Call = (typeof CALLS)[number];

interface Round {
  /** The bare route's rate measured just before the round. */
  bare: number;
  stats: Record<Call, Stats>;
  /** How late the load generator's own event loop ran (ms beyond the timer's interval). */
  late: { p99: number; max: number };
}

/** One round of the mix for SECONDS: every call fired on its schedule, then the answers awaited. */
async function mix(
  api: (path: string) => string,
  shoppers: Shopper[],
  coupons: string[],
  signInRate: number,
): Promise<Omit<Round, 'bare'>> {
  const stats = Object.fromEntries(CALLS.map((name) => [name, new Stats()])) as Record<Call, Stats>;
  const pick = () => shoppers[Math.floor(Math.random() * shoppers.length)]!;
  const until = performance.now() + SECONDS * 1000;
  const open = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, work: () => void) => {
    if (performance.now() + ms >= until) return;
    const t = setTimeout(() => {
      timers.delete(t);
      work();
    }, ms);
    timers.add(t);
  };
  const inflight = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };

  /** Polls an open order every 2 s until it is paid, as the web app's order page does. */
  const poll = (who: Shopper, iden: string) =>
    later(2_000, () =>
      track(
        stats.orderStatus
          .time(() => post(api('/api/store/orderStatus'), { token: who.token, iden }))
          .then((a) => {
            const status = (a?.data as { status?: string } | undefined)?.status;
            if (status === 'pending') poll(who, iden);
            else open.delete(iden);
          }),
      ),
    );

  // The latencies are timed in this process: a stall of its own event loop would show in every call's.
  const ownDelay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  ownDelay.enable();
  await Promise.all([
    schedule(RATES.catalog, until, () => track(stats.catalog.time(() => post(api('/api/store/products'), {})))),
    schedule(RATES.getUserInfo, until, () =>
      track(stats.getUserInfo.time(() => post(api('/api/auth/getUserInfo'), { token: pick().token }))),
    ),
    schedule(signInRate, until, () => {
      const who = pick();
      track(stats.signIn.time(() => post(api('/api/login'), { email: who.email, password: PASSWORD }, signInAgent)));
    }),
    schedule(RATES.payWithCredits, until, () =>
      track(
        stats.payWithCredits.time(() =>
          post(api('/api/auth/payWithCredits'), { token: pick().token, products: '["shop-gem"]' }),
        ),
      ),
    ),
    schedule(RATES.redeemCoupon, until, () => {
      // Each code once, across the rounds: a coupon used up would answer an error, not a redemption.
      const code = coupons.shift() ?? 'NONE-LEFT';
      track(
        stats.redeemCoupon.time(() => post(api('/api/store/redeemCoupon'), { token: pick().token, couponCode: code })),
      );
    }),
    schedule(RATES.doCheckout, until, () => {
      const who = pick();
      track(
        stats.doCheckout
          .time(() =>
            post(api('/api/store/doCheckout'), { token: who.token, products: 'credits-100', couponCode: 'WELCOME10' }),
          )
          .then((a) => {
            const order = (a?.data as { order?: { iden: string; total: { amount: number; currency: string } } })?.order;
            if (!order) return;
            open.add(order.iden);
            poll(who, order.iden);
            // The buyer pays on the sandbox page a second later; the page's notification arrives.
            later(1_000, () => {
              const payload = JSON.stringify({
                eventId: `evt_${order.iden}`,
                orderId: order.iden,
                outcome: 'paid',
                amount: order.total.amount,
                currency: order.total.currency,
              });
              track(
                stats.notification.time(() =>
                  post(api('/api/payments/notify/default'), {
                    payload,
                    signature: sign(SECRET, `default-notify:${payload}`),
                  }),
                ),
              );
            });
          }),
      );
    }),
  ]);
  for (const t of timers) clearTimeout(t);
  while (inflight.size) await Promise.allSettled([...inflight]);
  ownDelay.disable();
  // The histogram holds whole intervals between the timer's turns: less the interval, the lateness.
  const late = (ns: number) => Math.max(0, ns / 1e6 - DELAY_RESOLUTION_MS);
  return { stats, late: { p99: late(ownDelay.percentile(99)), max: late(ownDelay.max) } };
}

const dir = mkdtempSync(join(tmpdir(), 'till-bench-shop-'));
const bare = Fastify({ logger: false });
bare.post('/bare', async () => ({ code: 900, data: { status: 'paid' } }));
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
let pgDatabase: string | undefined;
try {
  await bare.listen({ port: 0, host: '127.0.0.1' });
  // Measured before every round: this machine's pace drifts by as much as half between minutes.
  const bareRate = () =>
    measure({ url: `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`, body: {}, seconds: 3 });
  await checkQuiet('hash rate');
  // libuv's four threads at a time: the rate at which sign-ins saturate the hash.
  const signInRate = await rawHashRate(4, 3);
  console.log(
    `Node ${process.versions.node}; ceilings measured in this run; goal on SQLite: p99 under ${P99_GOAL_MS} ms for every call but sign-in; ` +
      `PostgreSQL's figures are recorded beside it; no errors on either`,
  );

  let met = await shop('SQLite', `sqlite:${join(dir, 'till.db')}`, bareRate, signInRate, true);
  if (pgUrl) {
    const { default: pg } = await import('pg');
    pgDatabase = `till_bench_shop_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgDatabase}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${pgDatabase}`;
    met = (await shop('PostgreSQL', url.toString(), bareRate, signInRate, false)) && met;
  } else {
    console.log('\nPostgreSQL: not measured (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  }
  reportQuiet();
  if (!met) process.exitCode = 1;
} finally {
  await stopServers();
  await bare.close();
  agent.destroy();
  rmSync(dir, { recursive: true, force: true });
  if (pgUrl && pgDatabase) {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`);
    await admin.end();
  }
}
