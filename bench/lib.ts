import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Agent, request } from 'node:http';
import * as argon2 from '@node-rs/argon2';
import autocannon from 'autocannon';
import { ARGON2_OPTIONS } from '../packages/server/dist/security/passwords.js';

/** Jiffies the whole machine spent busy and in all, from /proc/stat (Linux). */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

const started: ChildProcess[] = [];
/** The process id of each started server, by the address it answered with. */
const pids = new Map<string, number>();

/** utime + stime, in jiffies, from a `/proc/.../stat` file; undefined when it cannot be read (an ended process). */
function statTicks(file: string): number | undefined {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Jiffies the server processes this benchmark started have used (they finish a round's last requests). */
function serverTicks(): number {
  // An ended server uses nothing.
  return started.reduce((ticks, child) => ticks + (statTicks(`/proc/${child.pid}/stat`) ?? 0), 0);
}

/**
 * How much of the machine other processes use while this benchmark is idle between rounds: the share
 * of all cores busy over `ms`, less the use of this process and of the servers it started. Undefined
 * where /proc/stat is not there.
 */
export async function otherLoad(ms = 500): Promise<number | undefined> {
  const before = machineTicks();
  const serversBefore = serverTicks();
  const ownBefore = process.cpuUsage();
  const start = process.hrtime.bigint();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineTicks();
  if (!before || !after) return undefined;
  const own = process.cpuUsage(ownBefore);
  const wallUs = Number(process.hrtime.bigint() - start) / 1000;
  const cores = (after.total - before.total) / ((wallUs / 1e6) * 100) || 1;
  const servers = serverTicks() - serversBefore;
  const share = (after.busy - before.busy - servers) / Math.max(1, after.total - before.total);
  const ownShare = (own.user + own.system) / (wallUs * cores);
  return Math.max(0, share - ownShare);
}

/** Above this share of the machine used by others before a round, the figures are not to be trusted. */
export const BUSY_SHARE = 0.15;
const busyRounds: string[] = [];

/** Measures the others' load before a round and remembers it when the machine was too busy. */
export async function checkQuiet(label: string): Promise<void> {
  const load = await otherLoad();
  if (load !== undefined && load > BUSY_SHARE) busyRounds.push(`${label}: ${(load * 100).toFixed(0)} %`);
}

/** Says whether any round ran on a busy machine; every benchmark prints it last. */
export function reportQuiet(): boolean {
  if (busyRounds.length === 0) {
    console.log(`machine: quiet before every round (other processes under ${BUSY_SHARE * 100} % of the CPU)`);
    return true;
  }
  console.log(
    `machine: TOO BUSY to trust these figures: other processes used more than ${BUSY_SHARE * 100} % of the CPU ` +
      `before ${busyRounds.length} round(s) (${busyRounds.slice(0, 6).join(', ')}${busyRounds.length > 6 ? ', ...' : ''})`,
  );
  return false;
}

/** Requests per second of one route under load, measured with autocannon on loopback. */
export async function measure(opts: {
  url: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  connections?: number;
  seconds?: number;
}): Promise<number> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'POST',
    headers: { 'content-type': 'application/json' },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
    connections: opts.connections ?? 10,
    duration: opts.seconds ?? 5,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${opts.url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result.requests.average;
}

/**
 * Prints one line: the figure, its baseline, the ratio (the two's quotient unless given, as
 * {@link paired} gives it) and whether it meets the goal.
 */
export function report(
  name: string,
  value: number,
  baseline: number,
  baselineName: string,
  goal: number,
  ratio = value / baseline,
): boolean {
  const ok = ratio >= goal;
  console.log(
    `${name.padEnd(22)} ${value.toFixed(0).padStart(8)}/s   ${baselineName} ${baseline.toFixed(0).padStart(8)}/s   ratio ${ratio.toFixed(2)} (goal >= ${goal.toFixed(2)}) ${ok ? 'met' : 'MISSED'}`,
  );
  return ok;
}

/**
 * Runs the measurements in alternating rounds and keeps each one's best. On a shared machine a
 * passing load lowers whichever figure is being taken at that moment; alternating and keeping the
 * best compares the two at their least disturbed.
 */
export async function alternate<K extends string>(
  rounds: number,
  measurements: Record<K, () => Promise<number>>,
): Promise<Record<K, number>> {
  const best = {} as Record<K, number>;
  for (let r = 0; r < rounds; r++) {
    for (const key of Object.keys(measurements) as K[]) {
      await checkQuiet(`${key} round ${r + 1}`);
      const value = await measurements[key]();
      best[key] = Math.max(best[key] ?? 0, value);
    }
  }
  return best;
}

/** The median of the values, in any order. */
export const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/**
 * A figure and its baseline measured back to back in every round, the one that goes first swapped
 * each round, and their ratio as the median of the rounds' own ratios (the rates printed are each
 * side's median). This machine's speed drifts for tens of seconds at a time, with other processes
 * idle: the bare route alone ran anywhere from 9,000 to 18,000 a second within one quiet hour. Two
 * measurements a few seconds apart share that drift; the best of each side, as {@link alternate}
 * keeps it, may come from different minutes, and a ratio of those moved by 10 % between runs.
 */
export async function paired(
  rounds: number,
  names: { value: string; baseline: string },
  value: () => Promise<number>,
  baseline: () => Promise<number>,
): Promise<{ value: number; baseline: number; ratio: number }> {
  const taken = await inRounds(rounds, { [names.baseline]: baseline, [names.value]: value });
  return {
    value: roundMedian(taken, names.value),
    baseline: roundMedian(taken, names.baseline),
    ratio: roundRatios(taken, names.value, names.baseline).ratio,
  };
}

/** The median over the rounds of one measurement. */
export function roundMedian<K extends string>(taken: readonly Record<K, number>[], key: K): number {
  return median(taken.map((round) => round[key]));
}

/**
 * Takes every measurement once a round, in the order given in even rounds and the reverse in odd
 * ones, and returns each round's figures: measurements next to each other in the order share the
 * machine's drift, and reversing the order evens out which one goes first. See {@link paired}.
 */
export async function inRounds<K extends string>(
  rounds: number,
  measurements: Record<K, () => Promise<number>>,
): Promise<Record<K, number>[]> {
  const keys = Object.keys(measurements) as K[];
  const taken: Record<K, number>[] = [];
  for (let r = 0; r < rounds; r++) {
    const round = {} as Record<K, number>;
    for (const key of r % 2 === 0 ? keys : [...keys].reverse()) {
      await checkQuiet(`${key} round ${r + 1}`);
      round[key] = await measurements[key]();
    }
    taken.push(round);
  }
  return taken;
}

/** The median of the rounds' own ratios of two measurements, and the lowest and highest of them. */
export function roundRatios<K extends string>(
  taken: readonly Record<K, number>[],
  value: K,
  baseline: K,
): { ratio: number; low: number; high: number } {
  const ratios = taken.map((round) => round[value] / round[baseline]).sort((a, b) => a - b);
  return { ratio: percentile(ratios, 50), low: ratios[0]!, high: ratios[ratios.length - 1]! };
}

/** Starts a server process (`node ARGS`) and waits for the `{"url": ...}` line it prints. */
export function startServer(args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      const { url } = JSON.parse(line) as { url: string };
      pids.set(url, child.pid!);
      resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`node ${args.join(' ')} exited with ${code}`)));
  });
}

/**
 * CPU time (ms) the main thread of the server answering at `url` (its event loop) has used so far, from
 * `/proc` in jiffies of 10 ms; undefined where there is no `/proc`.
 */
export function serverLoopCpuMs(url: string): number | undefined {
  const pid = pids.get(url);
  const ticks = pid === undefined ? undefined : statTicks(`/proc/${pid}/task/${pid}/stat`);
  return ticks === undefined ? undefined : ticks * 10;
}

/** Stops every server {@link startServer} started and waits for them to exit. */
export async function stopServers(): Promise<void> {
  await Promise.all(
    started.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }),
    ),
  );
}

/** Till's limits raised out of the way of a load test (a real deployment keeps its defaults). */
export const UNLIMITED_ENV = {
  RATE_LOGIN_PER_IP: '1000000000',
  RATE_LOGIN_FAILURES_PER_ACCOUNT_IP: '1000000000',
  RATE_LOGIN_FAILURES_PER_ACCOUNT: '1000000000',
  RATE_REGISTER_PER_IP: '1000000000',
  RATE_MAIL_PER_IP: '1000000000',
  RATE_MAIL_PER_ADDRESS: '1000000000',
};

/** One request over `agent`'s kept-alive connections: the answer's status and body as text. */
export function send(
  url: string,
  {
    method = 'POST',
    headers = {},
    body,
    agent,
  }: { method?: string; headers?: Record<string, string>; body?: unknown; agent: Agent },
): Promise<{ status: number; text: string }> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(data === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** The `p`th percentile of ascending `sorted` values (NaN when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

/** Password hashes per second with Till's argon2id settings, `concurrency` at a time on libuv's pool. */
export async function rawHashRate(concurrency: number, seconds: number): Promise<number> {
  return (await hashRun(concurrency, seconds)).rate;
}

/**
 * {@link rawHashRate}, with where a hash's CPU goes: the share this process spent in the kernel and the
 * minor page faults per hash while it hashed (the hashes are nearly all this process does meanwhile).
 */
export async function hashRun(
  concurrency: number,
  seconds: number,
): Promise<{ rate: number; kernelShare: number; faultsPerHash: number }> {
  let done = 0;
  const end = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      await argon2.hash('a long, uncommon passphrase', ARGON2_OPTIONS);
      done += 1;
    }
  };
  const cpu = process.cpuUsage();
  const faults = process.resourceUsage().minorPageFault;
  const start = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (Date.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    rate: done / elapsed,
    kernelShare: used.system / (used.user + used.system),
    faultsPerHash: (process.resourceUsage().minorPageFault - faults) / done,
  };
}
