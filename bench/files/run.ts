// Upload throughput of 1 MB and 50 MB files through the real server (a child process on a temp
// SQLite database and upload folder) beside a raw loopback write (a plain Node server, also a child,
// that pipes the same request bodies to a file), measured in this run on this machine; and the
// server's peak RSS while 1 GB in total goes through it (goal: under 150 MB). The server runs
// twice: with Node's default flags, and with a 1 MB young generation (`--max-semi-space-size=1`),
// which makes V8 free dead socket buffers sooner (see docs/api.md, "Files").
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkQuiet, reportQuiet } from '../lib.js';
import { portForProcess } from '../../packages/test-support/src/ports.js';
import { MB, memoryOf, RssSampler, throughput, waitFor } from './lib.js';

const RSS_GOAL_MB = 150;
const SMALL = { size: MB, count: 200 };
const LARGE = { size: 50 * MB, count: 16 };
const PARALLEL = 4;
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'till-bench-files-'));
const children: ChildProcess[] = [];

const rawServer = `
const http = require('node:http'); const fs = require('node:fs'); let n = 0;
http.createServer((req, res) => {
  if (req.method !== 'POST') return res.end('ok');
  const file = require('node:path').join(process.env.DIR, 'raw-' + (n++ % 8));
  req.pipe(fs.createWriteStream(file)).on('finish', () => res.end('{"code":900}'));
}).listen(Number(process.env.PORT), '127.0.0.1');`;

interface Run {
  small: number;
  large: number;
  idle: number;
  peak: number;
}

/** Uploads 1 GB (200 x 1 MB, then 16 x 50 MB) to `url` while sampling the RSS of `pid`. */
async function uploadGigabyte(url: string, token: string, pid: number): Promise<Run> {
  const idle = memoryOf(pid).rss;
  const sampler = new RssSampler(pid);
  const small = await throughput(url, token, SMALL.size, SMALL.count, PARALLEL);
  const large = await throughput(url, token, LARGE.size, LARGE.count, PARALLEL);
  return { small, large, idle, peak: sampler.stop() };
}

async function startServer(nodeFlags: string[], name: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await portForProcess();
  const child = spawn(process.execPath, [...nodeFlags, join(root, 'packages/server/dist/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
      STORAGE_URL: `file:${join(dir, `${name}-uploads`)}`,
      UPLOAD_MAX_FILE_BYTES: String(60 * MB),
      UPLOAD_QUOTA_BYTES: String(4 * 1024 * MB),
    },
    stdio: 'inherit',
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`, child);
  return { child, base };
}

async function benchServer(nodeFlags: string[], name: string): Promise<Run> {
  const { child, base } = await startServer(nodeFlags, name);
  const reg = (await (
    await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${name}@example.test`, password: 'a long, uncommon passphrase', name: 'Bench' }),
    })
  ).json()) as { token: string };
  const run = await uploadGigabyte(`${base}/api/files/upload`, reg.token, child.pid!);
  child.kill('SIGTERM');
  // Each run's gigabyte is removed before the next, so the disk holds at most one.
  await new Promise((r) => child.once('exit', r));
  rmSync(join(dir, `${name}-uploads`), { recursive: true, force: true });
  return run;
}

try {
  // The compiled server, as `npm start` runs it: tsx's loader thread would add ~40 MB of its own.
  const build = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/server'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) console.warn('tsc -b reported errors; measuring the server as last emitted');
  if (!existsSync(join(root, 'packages/server/dist/main.js'))) throw new Error('no packages/server/dist/main.js');

  const rawPort = await portForProcess();
  const raw = spawn(process.execPath, ['-e', rawServer], {
    env: { ...process.env, PORT: String(rawPort), DIR: dir },
    stdio: 'inherit',
  });
  children.push(raw);
  await waitFor(`http://127.0.0.1:${rawPort}/`, raw);
  await checkQuiet('raw loopback server');
  const rawRun = await uploadGigabyte(`http://127.0.0.1:${rawPort}/`, 'x', raw.pid!);
  await checkQuiet('server, default flags');
  const plain = await benchServer([], 'default');
  await checkQuiet('server, --max-semi-space-size=1');
  const tuned = await benchServer(['--max-semi-space-size=1'], 'tuned');

  const line = (name: string, value: number, baseline: number) =>
    console.log(
      `${name.padEnd(38)} ${value.toFixed(0).padStart(5)} MB/s   raw loopback write ${baseline.toFixed(0).padStart(5)} MB/s   ratio ${(value / baseline).toFixed(2)}`,
    );
  const memory = (name: string, run: Run, goal = true) =>
    console.log(
      `${name.padEnd(38)} idle ${run.idle.toFixed(0).padStart(4)} MB   peak ${run.peak.toFixed(1).padStart(6)} MB   (+${(run.peak - run.idle).toFixed(0)} MB)` +
        (goal ? `   goal < ${RSS_GOAL_MB} MB ${run.peak < RSS_GOAL_MB ? 'met' : 'MISSED'}` : ''),
    );
  console.log(`${PARALLEL} uploads at a time over loopback, local storage, SQLite; 1 GB per server`);
  line('1 MB files', plain.small, rawRun.small);
  line('50 MB files', plain.large, rawRun.large);
  line('1 MB files, --max-semi-space-size=1', tuned.small, rawRun.small);
  line('50 MB files, --max-semi-space-size=1', tuned.large, rawRun.large);
  console.log('RSS while 1 GB is uploaded:');
  memory('raw loopback server', rawRun, false);
  memory('server, default flags', plain);
  memory('server, --max-semi-space-size=1', tuned);
  reportQuiet();
  if (tuned.peak >= RSS_GOAL_MB && plain.peak >= RSS_GOAL_MB) process.exitCode = 1;
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(dir, { recursive: true, force: true });
}
