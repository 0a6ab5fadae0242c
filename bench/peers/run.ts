// Till beside Better Auth (the most used TypeScript auth framework), both started by this run as
// processes of their own on this machine, measured in alternating rounds by the same load generator:
// sign-in, sign-up, session reads, and session-read latency while sign-ins saturate the password hash.
// Both use SQLite through the same driver with the same settings and argon2id with the same library
// (@node-rs/argon2) and parameters: Till on its own low-priority hashing threads, Better Auth through
// its custom hash option on libuv's pool. Better Auth is installed by this benchmark into
// bench/peers/.install (not by `npm ci`), at the version pinned below.
import '../built.js';
import { spawnSync } from 'node:child_process';
import { Agent } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ARGON2_OPTIONS } from '../../packages/server/dist/security/passwords.js';
import {
  alternate,
  checkQuiet,
  hashRun,
  median,
  percentile,
  rawHashRate,
  reportQuiet,
  send,
  serverLoopCpuMs,
  startServer,
  stopServers,
  UNLIMITED_ENV,
} from '../lib.js';

const BETTER_AUTH = process.env.BENCH_BETTER_AUTH ?? '1.7.25';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const PASSWORD = 'a long, uncommon passphrase';

/** Installs Better Auth into a folder of its own, once per version. */
function installBetterAuth(): string {
  const folder = join(here, '.install', `better-auth-${BETTER_AUTH}`);
  if (!existsSync(join(folder, 'node_modules', 'better-auth', 'package.json'))) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
    console.log(`installing better-auth@${BETTER_AUTH} into ${folder}`);
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', `better-auth@${BETTER_AUTH}`], {
      cwd: folder,
      stdio: 'inherit',
    });
    if (npm.status !== 0) throw new Error('could not install Better Auth');
  }
  copyFileSync(join(here, 'better-auth-server.mjs'), join(folder, 'server.mjs'));
  return folder;
}

interface Load {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  /** A new body for every request (sign-up needs a new address each time). */
  bodies?: () => unknown;
  connections?: number;
}

async function load(l: Load): Promise<autocannon.Result> {
  const headers = { 'content-type': 'application/json', ...l.headers };
  const result = await autocannon({
    url: l.url,
    method: l.method ?? 'POST',
    headers,
    ...(l.body === undefined ? {} : { body: JSON.stringify(l.body) }),
    ...(l.bodies
      ? {
          requests: [
            { method: 'POST', setupRequest: (req) => ({ ...req, headers, body: JSON.stringify(l.bodies!()) }) },
          ],
        }
      : {}),
    connections: l.connections ?? CONNECTIONS,
    duration: SECONDS,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${l.url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result;
}

const rate = async (l: Load) => (await load(l)).requests.average;

/** One connection's reads, one after another, timed here to the microsecond. */
async function readTimes(read: Load, seconds: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  try {
    while (performance.now() < end) {
      const start = performance.now();
      const { status } = await send(read.url, {
        method: read.method ?? 'POST',
        headers: read.headers,
        body: read.body,
        agent,
      });
      if (status !== 200) throw new Error(`${read.url}: HTTP ${status}`);
      times.push(performance.now() - start);
    }
  } finally {
    agent.destroy();
  }
  return times.sort((a, b) => a - b);
}

/** Read latency (p50 and p99, ms) with one connection reading while sign-ins saturate the hash. */
async function readLatencyUnderSignIns(read: Load, signIn: Load): Promise<{ p50: number; p99: number }> {
  const [, times] = await Promise.all([load(signIn), readTimes(read, SECONDS)]);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function json(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return res;
}

const dir = mkdtempSync(join(tmpdir(), 'till-bench-peers-'));
try {
  const betterAuthFolder = installBetterAuth();
  const [till, peer] = await Promise.all([
    startServer(
      ['--import', 'tsx', join(here, '..', 'till-server.ts')],
      { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${join(dir, 'till.db')}`, ...UNLIMITED_ENV },
      root,
    ),
    startServer(
      [join(betterAuthFolder, 'server.mjs')],
      {
        NODE_ENV: 'production',
        TILL_ROOT: root,
        SQLITE_DRIVER: 'better-sqlite3',
        ARGON2_OPTIONS: JSON.stringify(ARGON2_OPTIONS),
        DB_FILE: join(dir, 'better-auth.db'),
      },
      betterAuthFolder,
    ),
  ]);

  const email = 'bench@example.test';
  const tillToken = (
    (await (await json(`${till}/api/register`, { email, password: PASSWORD, name: 'Bench' })).json()) as {
      token: string;
    }
  ).token;
  const origin = { origin: peer };
  const signedUp = await json(`${peer}/api/auth/sign-up/email`, { email, password: PASSWORD, name: 'Bench' }, origin);
  const cookie = signedUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  if (!cookie.includes('session_token')) throw new Error('Better Auth answered sign-up without a session cookie');

  let n = 0;
  const run = `${Date.now().toString(36)}`;
  const newAccount = () => ({ email: `new-${run}-${n++}@example.test`, password: PASSWORD, name: 'New' });
  const tillRead: Load = { url: `${till}/api/auth/getUserInfo`, body: { token: tillToken } };
  const peerRead: Load = { url: `${peer}/api/auth/get-session`, method: 'GET', headers: { cookie, ...origin } };
  const tillSignIn: Load = { url: `${till}/api/login`, body: { email, password: PASSWORD } };
  const peerSignIn: Load = {
    url: `${peer}/api/auth/sign-in/email`,
    body: { email, password: PASSWORD },
    headers: origin,
  };

  // What Till's event loop (HTTP, SQLite, the sign-up's own code) spends per sign-up, in each round:
  // the hashes run on other threads, and on a machine whose cores all hash, its time is taken from them.
  const loopPerSignUp: number[] = [];
  // Where the hash's own CPU goes, from the rounds that hash 4 at a time.
  const hashKernel: { kernelShare: number; faultsPerHash: number }[] = [];
  const best = await alternate(ROUNDS, {
    tillRead: () => rate(tillRead),
    peerRead: () => rate(peerRead),
    tillSignIn: () => rate(tillSignIn),
    peerSignIn: () => rate(peerSignIn),
    tillSignUp: async () => {
      const before = serverLoopCpuMs(till);
      const result = await load({ url: `${till}/api/register`, bodies: newAccount });
      const after = serverLoopCpuMs(till);
      if (before !== undefined && after !== undefined) loopPerSignUp.push((after - before) / result.requests.total);
      return result.requests.average;
    },
    peerSignUp: () => rate({ url: `${peer}/api/auth/sign-up/email`, bodies: newAccount, headers: origin }),
    // The same sign-ups over one connection: equal to the above when they run one at a time.
    peerSignUpAlone: () =>
      rate({ url: `${peer}/api/auth/sign-up/email`, bodies: newAccount, headers: origin, connections: 1 }),
    // What bounds both servers' sign-ups, each one hash: hashes as many at a time as the cores,
    hash: async () => {
      const run = await hashRun(4, SECONDS);
      hashKernel.push(run);
      return run.rate;
    },
    // or one at a time, where the hash runs inside a transaction on SQLite's one connection.
    hashAlone: () => rawHashRate(1, SECONDS),
  });
  // Latency: lower is better, so the best round is the one with the lowest p99.
  const none = { p50: Infinity, p99: Infinity };
  const latency = { till: none, peer: none };
  const better = (a: typeof none, b: typeof none) => (b.p99 < a.p99 ? b : a);
  for (let r = 0; r < ROUNDS; r++) {
    await checkQuiet(`latency round ${r + 1}`);
    latency.till = better(latency.till, await readLatencyUnderSignIns(tillRead, tillSignIn));
    latency.peer = better(latency.peer, await readLatencyUnderSignIns(peerRead, peerSignIn));
  }

  console.log(
    `Till vs Better Auth ${BETTER_AUTH}, Node ${process.versions.node}, SQLite (better-sqlite3, WAL), ` +
      `argon2id m=${ARGON2_OPTIONS.memoryCost} t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}, ` +
      `${CONNECTIONS} connections, best of ${ROUNDS} alternating rounds of ${SECONDS} s`,
  );
  const rows: [string, number, number, number][] = [
    ['session reads', best.tillRead, best.peerRead, 10],
    ['sign-up', best.tillSignUp, best.peerSignUp, 2],
    ['sign-in', best.tillSignIn, best.peerSignIn, 1.1],
  ];
  let ok = true;
  for (const [name, a, b, goal] of rows) {
    const ratio = a / b;
    ok &&= ratio >= goal;
    console.log(
      `${name.padEnd(16)} Till ${a.toFixed(0).padStart(7)}/s   Better Auth ${b.toFixed(0).padStart(7)}/s   ` +
        `Till / Better Auth ${ratio.toFixed(2)} (goal >= ${goal}) ${ratio >= goal ? 'met' : 'MISSED'}`,
    );
  }
  // A sign-up is one hash. Till hashes before its transaction, as many at a time as the cores. Better
  // Auth hashes inside its sign-up's transaction (runWithTransaction), and its SQLite connection runs one
  // transaction at a time, so its sign-ups hash one at a time. Till / Better Auth at sign-up is therefore
  // the two servers' shares of those two hash rates times how much faster this machine hashes in
  // parallel than alone: only the first share is Till's to raise.
  const tillShare = best.tillSignUp / best.hash;
  const peerShare = best.peerSignUp / best.hashAlone;
  console.log(
    `sign-up (one hash each): Till at ${tillShare.toFixed(2)} of the hash rate 4 at a time (${best.hash.toFixed(0)}/s); ` +
      `Better Auth at ${peerShare.toFixed(2)} of the rate one at a time (${best.hashAlone.toFixed(0)}/s), as it hashes ` +
      `inside a transaction (its sign-ups over ${CONNECTIONS} connections at ${(best.peerSignUp / best.peerSignUpAlone).toFixed(2)} ` +
      `of those over one); parallel hashing here ${(best.hash / best.hashAlone).toFixed(2)}x, so ` +
      `Till / Better Auth = ${tillShare.toFixed(2)} / ${peerShare.toFixed(2)} x ${(best.hash / best.hashAlone).toFixed(2)}`,
  );
  if (loopPerSignUp.length) {
    const loop = median(loopPerSignUp);
    const hashCpu = (availableParallelism() * 1000) / best.hash;
    console.log(
      `sign-up, Till's share: its event loop used ${loop.toFixed(2)} ms of CPU a sign-up (median of rounds), beside ` +
        `${hashCpu.toFixed(1)} ms of the machine's CPU a hash 4 at a time (${availableParallelism()} cores / ${best.hash.toFixed(0)}/s): ` +
        `a share of about ${(hashCpu / (hashCpu + loop)).toFixed(2)} while every core hashes`,
    );
  }
  if (hashKernel.length) {
    // The hash library maps its m KiB afresh for every hash and unmaps them after, so the kernel faults in
    // and zeroes that memory each time: CPU taken from both servers' hashes alike. Memory in whole 2 MiB
    // pages keeps it to a few huge pages (see docs/decisions/005-argon2id-20-mib.md).
    console.log(
      `a hash's CPU, 4 at a time: ${(median(hashKernel.map((h) => h.kernelShare)) * 100).toFixed(0)} % in the kernel, ` +
        `${median(hashKernel.map((h) => h.faultsPerHash)).toFixed(0)} page faults a hash (median of rounds)`,
    );
  }
  const ms = (l: typeof none) => `p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms`;
  console.log(
    `read latency while sign-ins saturate the hash: Till ${ms(latency.till)}; Better Auth ${ms(latency.peer)} ` +
      `(Better Auth / Till at p99 ${(latency.peer.p99 / latency.till.p99).toFixed(1)})`,
  );
  reportQuiet();
  if (!ok) process.exitCode = 1;
} finally {
  await stopServers();
  rmSync(dir, { recursive: true, force: true });
}
