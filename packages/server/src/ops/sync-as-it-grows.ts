import { Worker } from 'node:worker_threads';
import { stopThread } from '../db/checkpoints.js';

/**
 * The thread of {@link syncAsItGrows}: it looks at the file's size every `everyMs` and syncs it
 * (`fdatasync`) each time it has grown by `step` bytes since the last sync, posting the bytes it grew by.
 * A file that is not there yet is looked for again at the next turn; any other failure ends the looking.
 * Any message stops it. Plain CommonJS, as the other threads' sources.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { path, step, everyMs } = workerData;
let fd;
let synced = 0;
let timer;
function turn() {
  try {
    if (fd === undefined) fd = fs.openSync(path, 'r');
    const size = fs.fstatSync(fd).size;
    if (size - synced >= step) {
      fs.fdatasyncSync(fd);
      parentPort.postMessage(size - synced);
      synced = size;
    }
  } catch (error) {
    if (!error || error.code !== 'ENOENT') return;
  }
  timer = setTimeout(turn, everyMs);
}
parentPort.on('message', () => {
  clearTimeout(timer);
  if (fd !== undefined) fs.closeSync(fd);
  parentPort.close();
});
timer = setTimeout(turn, 0);
`;

export interface GrowingFileSync {
  /** The bytes each sync so far wrote (what the file grew by since the sync before), in order. */
  readonly syncs: number[];
  /** Stops looking (after a sync under way); what is not synced yet is left to the caller. */
  stop(): Promise<void>;
}

/**
 * Writes a file that another thread is writing, without syncing it, to the disk as it grows: one
 * `fdatasync` each time it has grown by `step` bytes, on a thread of its own. A backup's copy of the
 * database (`VACUUM INTO`, inside SQLite) would otherwise wait in memory until the system writes it all
 * at once, 30 s later, ahead of the server's own reads and syncs on that disk
 * (docs/decisions/021-backup-files-synced-as-they-grow.md). A sync that fails ends the looking, and
 * leaves the file to the caller's own sync.
 */
export function syncAsItGrows(path: string, options: { step: number; everyMs?: number }): GrowingFileSync {
  const syncs: number[] = [];
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: { path, step: options.step, everyMs: options.everyMs ?? 20 },
  });
  worker.unref();
  worker.on('message', (bytes: number) => syncs.push(bytes));
  let stopped: Promise<void> | undefined;
  return {
    syncs,
    stop: () => (stopped ??= stopThread(worker)),
  };
}
