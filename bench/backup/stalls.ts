// What the server's thread waits for in the kernel (Linux): a thread of the bench's own process reads
// the main thread's state every 5 ms (`/proc/<pid>/task/<pid>/stat`) and, while it sleeps
// uninterruptibly, its kernel stack and the system call it is in, with the file the call names; once
// such a stretch has lasted 30 ms, the other threads that are in one too, or reading the WAL, and the
// memory waiting to be written and the disks' requests in flight. Each
// stretch over 40 ms is kept. For tracing the writer's long waits during backups (bench/README.md).
import { Worker } from 'node:worker_threads';

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const task = (tid) => '/proc/' + workerData.pid + '/task/' + tid;
const read = (path) => { try { return fs.readFileSync(path, 'utf8'); } catch { return ''; } };
const stateOf = (tid) => { const s = read(task(tid) + '/stat'); return s ? s[s.lastIndexOf(')') + 2] : ''; };
const frames = (stack) => stack.trim().split('\\n').slice(0, 10).map((l) => l.replace(/^\\[<[0-9a-f]+>\\] /, '')).join(' < ');
// The call a thread is in: its number, the file its first argument names, the count and offset.
function call(tid) {
  const parts = read(task(tid) + '/syscall').trim().split(' ');
  if (parts.length < 5 || parts[0] === 'running') return parts[0] || '';
  let file = '';
  try { file = fs.readlinkSync('/proc/' + workerData.pid + '/fd/' + parseInt(parts[1], 16)); } catch {}
  return 'call ' + parts[0] + ' ' + file + ' count ' + parseInt(parts[3], 16) + ' offset ' + parseInt(parts[4], 16);
}
let since = 0;
let stacks = new Map();
let seen = '';
let others = [];
let looked = false;
let disk = '';
// How much the system holds to write and is writing, and the disks' requests in flight (reads, writes).
function pressure() {
  const info = read('/proc/meminfo');
  const kb = (name) => { const line = info.split('\\n').find((l) => l.startsWith(name + ':')); return line ? Math.round(parseInt(line.split(/\\s+/)[1], 10) / 1024) : '?'; };
  let flight = '';
  try {
    for (const dev of fs.readdirSync('/sys/block')) {
      if (/^(loop|zram|ram)/.test(dev)) continue;
      const [r, w] = read('/sys/block/' + dev + '/inflight').trim().split(/\\s+/);
      flight += ' ' + dev + ' ' + r + '/' + w;
    }
  } catch {}
  return 'dirty ' + kb('Dirty') + ' MB, writeback ' + kb('Writeback') + ' MB, in flight (read/write)' + flight;
}
setInterval(() => {
  const now = performance.now();
  const state = stateOf(workerData.pid);
  if (state === 'D') {
    if (!since) { since = now; stacks = new Map(); seen = call(workerData.pid); others = []; looked = false; }
    const stack = frames(read(task(workerData.pid) + '/stack'));
    stacks.set(stack, (stacks.get(stack) || 0) + 1);
    if (now - since > 30 && !looked) {
      looked = true;
      disk = pressure();
      for (const tid of fs.readdirSync('/proc/' + workerData.pid + '/task')) {
        if (tid === String(workerData.pid)) continue;
        const c = call(tid);
        if (stateOf(tid) === 'D') others.push('thread ' + tid + ' ' + c + ': ' + frames(read(task(tid) + '/stack')));
        else if (c.startsWith('call 17 ') && c.includes('-wal ')) others.push('thread ' + tid + ' ' + c);
      }
    }
  } else if (since) {
    const ms = now - since;
    since = 0;
    if (ms > 40) {
      const top = [...stacks].sort((a, b) => b[1] - a[1])[0];
      parentPort.postMessage([
        new Date().toISOString().slice(11, 23) + ' ' + Math.round(ms) + ' ms: ' + seen,
        '    ' + (top ? top[0] : ''),
        '    ' + disk,
        ...others.map((o) => '    ' + o),
      ].join('\\n'));
    }
  }
}, 5);
`;

/** Starts watching; the function it answers stops and gives the stretches seen, oldest first. */
export function watchStalls(): () => Promise<string[]> {
  const worker = new Worker(SOURCE, { eval: true, workerData: { pid: process.pid } });
  const seen: string[] = [];
  worker.on('message', (line: string) => seen.push(line));
  return async () => {
    await worker.terminate();
    return seen;
  };
}
