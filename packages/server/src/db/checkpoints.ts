import { Worker } from 'node:worker_threads';

/** What {@link BackgroundCheckpoints} needs of the writing connection: its pragmas. */
export interface CheckpointedConnection {
  pragma(source: string, options?: { simple: boolean }): unknown;
}

export interface BackgroundCheckpointOptions {
  /** The database file. */
  file: string;
  /** The module path of the SQLite driver, loaded again inside the worker. */
  driver: string;
  /** Commits through the writer before the worker starts (a server that writes little never starts one). */
  startAfter?: number;
  /** How often the worker checkpoints while the WAL grows; it waits up to ten times longer while it does not. */
  everyMs?: number;
  /**
   * WAL pages past which the writer still checkpoints itself while the worker runs: under writes that
   * never pause, the worker's checkpoints never find the WAL fully copied, and only a checkpoint that
   * does lets SQLite start the WAL over (4,000 pages: 16 MB).
   */
  writerLimit?: number;
  /**
   * Bytes of the WAL file read past the writer's end, where the file extends that far (64 MB; 0 reads
   * nothing).
   */
  readAhead?: number;
  /** Told when checkpoints go back to the writer because the worker failed or stopped by itself. */
  onFailure?: (error: unknown) => void;
}

/**
 * The worker: its own connection to the file, and a PASSIVE checkpoint (it never waits for a lock and
 * never blocks the writer or a reader) every `everyMs`, backing off while the WAL stands still.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
let wait = workerData.everyMs;
let lastLog = -1;
let timer;
const turn = () => {
  const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage({ log, checkpointed });
  wait = log === lastLog ? Math.min(wait * 2, workerData.everyMs * 10) : workerData.everyMs;
  lastLog = log;
  timer = setTimeout(turn, wait);
};
timer = setTimeout(turn, wait);
parentPort.on('message', () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * The read-ahead thread: it follows the writer through the WAL file and reads the file's next
 * `readAhead` bytes past the writer's end, where the file already extends that far from an earlier
 * cycle, each block once per cycle (docs/decisions/019-wal-read-ahead.md). It takes no lock and opens
 * no connection: where the writer is and when the WAL started over, it reads from the wal-index header
 * at the start of the \`-shm\` file (SQLite's walformat: the last valid frame, mxFrame, at byte 16, and
 * the salts, new at every start over, at 32, in the machine's byte order; the header is kept twice, and
 * a look where the copies differ, a header being written, is skipped). A thread of its own, so that a
 * checkpoint's sync, which waits for the disk for a second and more while a backup writes, never
 * holds it back. Posts the bytes it has read.
 */
const READ_AHEAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const little = require('node:os').endianness() === 'LE';
// A WAL frame: its 24-byte header and a page; the file starts with a 32-byte header.
const frame = workerData.pageSize + 24;
const header = Buffer.alloc(96);
const buffer = Buffer.allocUnsafe(1 << 20);
let wal;
let shm;
let salts = '';
let readTo = 0;
// How far the file went when the WAL last started over: the blocks past it were written since, and
// are still in memory.
let oldEnd = 0;
// Reads what is due next, up to a few megabytes (a stop is heard between turns): the bytes read, and
// whether more is due at once.
function look() {
  const none = { read: 0, more: false };
  try {
    if (shm === undefined) shm = fs.openSync(workerData.file + '-shm', 'r');
    if (wal === undefined) wal = fs.openSync(workerData.file + '-wal', 'r');
    if (fs.readSync(shm, header, 0, 96, 0) < 96 || header[12] !== 1) return none;
  } catch {
    return none;
  }
  if (!header.subarray(0, 48).equals(header.subarray(48, 96))) return none;
  const frames = little ? header.readUInt32LE(16) : header.readUInt32BE(16);
  const end = 32 + frames * frame;
  const now = header.toString('hex', 32, 40);
  if (now !== salts) {
    // The WAL started over (or this is the first look): the writer goes through the file's old blocks.
    salts = now;
    try {
      oldEnd = fs.fstatSync(wal).size;
    } catch {
      return none;
    }
    readTo = 0;
  }
  const goal = Math.min(oldEnd, end + workerData.readAhead);
  const from = Math.max(readTo, end);
  const to = Math.min(goal, from + (8 << 20));
  let read = 0;
  try {
    for (let at = from; at < to; ) {
      const n = fs.readSync(wal, buffer, 0, Math.min(buffer.length, to - at), at);
      if (n <= 0) break;
      at += n;
      read += n;
      readTo = at;
    }
  } catch {
    // A failed read only leaves the writer to read the block itself.
  }
  return { read, more: read > 0 && to < goal };
}
let wait = workerData.everyMs;
let seen = '';
let timer;
const turn = () => {
  const { read, more } = look();
  if (read > 0) parentPort.postMessage(read);
  // Every few milliseconds while the writer goes on, less often while the WAL stands still.
  const now = header.toString('hex', 16, 40);
  wait = now === seen ? Math.min(wait * 2, workerData.everyMs * 50) : workerData.everyMs;
  seen = now;
  timer = setTimeout(turn, more ? 0 : wait);
};
timer = setTimeout(turn, wait);
parentPort.on('message', () => {
  clearTimeout(timer);
  for (const fd of [wal, shm]) if (fd !== undefined) fs.closeSync(fd);
  parentPort.close();
});
`;

/**
 * Checkpoints a SQLite file in WAL mode on a worker thread instead of on the server's own thread.
 *
 * A checkpoint copies the WAL's pages into the database file and syncs it. SQLite runs one inside the
 * COMMIT that takes the WAL past a thousand pages, so under steady writes about one commit in fifty
 * held the event loop for 2-8 ms (every request waited), and checkpoints took a few percent of the
 * thread's time. Once the writer has committed `startAfter` times, a worker with its own connection
 * takes them over. PASSIVE checkpoints never block the writer or the readers.
 *
 * SQLite starts the WAL over only after a checkpoint that found all of it copied; under writes that
 * never pause, the worker's checkpoints always find newer pages, so the writer keeps checkpointing
 * itself past `writerLimit` pages. Those checkpoints have little left to copy, and let the WAL start
 * over. If the worker fails, the writer checkpoints itself again as SQLite does by default. Why:
 * docs/decisions/004-checkpoint-worker.md.
 *
 * The WAL file keeps its size when SQLite starts it over, and a long read (a backup) lets it grow to
 * hundreds of megabytes. A frame (24 + 4,096 bytes) never covers whole blocks, so when the writer
 * comes back to blocks the system has dropped from memory meanwhile, each write first reads its block
 * from the disk, on the event loop, behind whatever else the disk is doing. A second thread reads the
 * next blocks ahead of the writer instead, once each, where the file already extends past its end.
 */
export class BackgroundCheckpoints {
  private commits = 0;
  private worker: Worker | undefined;
  private reader: Worker | undefined;
  private stopping = false;
  /** The writer's own threshold before the worker raised it, given back when the worker goes. */
  private writerThreshold = 0;
  /** Checkpoints the worker has run, for tests and measurements. */
  runs = 0;
  /** Bytes of the WAL file read ahead of the writer, for tests and measurements. */
  readAheadBytes = 0;
  /** Long reads going on (see {@link holdWriter}). */
  private holds = 0;
  /** The writer's own checkpoints are off until the worker has copied what long reads held back. */
  private held = false;

  constructor(
    private readonly writer: CheckpointedConnection,
    private readonly options: BackgroundCheckpointOptions,
  ) {}

  /** Whether the worker is checkpointing (and the writer only past `writerLimit`). */
  get active(): boolean {
    return this.worker !== undefined;
  }

  /** Counts a commit through the writer; starts the worker at `startAfter`. */
  noteCommit(): void {
    this.commits += 1;
    if (this.commits === (this.options.startAfter ?? 128) && !this.stopping) this.start();
  }

  private start(): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        file: this.options.file,
        driver: this.options.driver,
        everyMs: this.options.everyMs ?? 100,
      },
    });
    // A server that forgets to close its database still exits.
    worker.unref();
    this.worker = worker;
    this.writerThreshold = Number(this.writer.pragma('wal_autocheckpoint', { simple: true }));
    this.writer.pragma(`wal_autocheckpoint = ${this.writerLimit}`);
    this.startReadAhead();
    worker.on('message', ({ log, checkpointed }: { log: number; checkpointed: number }) => {
      this.runs += 1;
      // Once the backlog is under the writer's limit, its own checkpoints have little to copy again.
      if (this.held && this.holds === 0 && log - checkpointed < this.writerLimit) this.releaseWriter();
    });
    worker.on('error', (error) => this.fallBack(worker, error));
    worker.on('exit', (code) => {
      if (!this.stopping) this.fallBack(worker, new Error(`the checkpoint worker exited with code ${code}`));
    });
  }

  /** The read-ahead thread (see {@link READ_AHEAD_SOURCE}); a read-ahead that fails only ends. */
  private startReadAhead(): void {
    const bytes = this.options.readAhead ?? 64 * 1024 * 1024;
    if (bytes <= 0) return;
    const reader = new Worker(READ_AHEAD_SOURCE, {
      eval: true,
      workerData: {
        file: this.options.file,
        pageSize: Number(this.writer.pragma('page_size', { simple: true })),
        everyMs: 10,
        readAhead: bytes,
      },
    });
    reader.unref();
    this.reader = reader;
    reader.on('message', (read: number) => (this.readAheadBytes += read));
    reader.on('error', () => {
      if (this.reader === reader) this.reader = undefined;
    });
  }

  /** The writer checkpoints itself again; the worker is not started twice. */
  private fallBack(worker: Worker, error: unknown): void {
    if (this.worker !== worker) return;
    this.handBack();
    void worker.terminate();
    this.options.onFailure?.(error);
  }

  private get writerLimit(): number {
    return this.options.writerLimit ?? 4000;
  }

  /**
   * For a long read (a backup's `VACUUM INTO`): until the returned function is called, and after it
   * until the worker has copied the WAL's backlog, the writer does not checkpoint itself. While a read
   * transaction pins the WAL no checkpoint can copy the frames written after it began, so the WAL grows
   * with every commit (hundreds of megabytes over a minute of purchases); the first checkpoint past
   * the writer's limit once the read ends would copy all of them inside a commit, on the event loop,
   * for seconds. The worker copies them instead. Without the worker (a server that writes little)
   * the writer keeps SQLite's own checkpoints.
   */
  holdWriter(): () => void {
    if (!this.worker) return () => undefined;
    this.holds += 1;
    if (!this.held) {
      this.held = true;
      this.writer.pragma('wal_autocheckpoint = 0');
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
    };
  }

  /** Whether the writer's own checkpoints are held off (see {@link holdWriter}). */
  get writerHeld(): boolean {
    return this.held;
  }

  private releaseWriter(): void {
    this.held = false;
    if (this.worker) this.writer.pragma(`wal_autocheckpoint = ${this.writerLimit}`);
  }

  /** Gives checkpoints back to the writer, at the threshold it had. */
  private handBack(): void {
    this.worker = undefined;
    this.held = false;
    this.writer.pragma(`wal_autocheckpoint = ${this.writerThreshold}`);
  }

  /** Stops the worker (after its checkpoint in progress, if any) and gives checkpoints back to the writer. */
  async stop(): Promise<void> {
    this.stopping = true;
    const reader = this.reader;
    this.reader = undefined;
    if (reader) await stopThread(reader);
    const worker = this.worker;
    if (!worker) return;
    await stopThread(worker);
    this.handBack();
  }
}

/**
 * Asks a thread that ends on any message (the checkpoint and read-ahead threads, a backup's copy syncer)
 * to stop, after the turn it is in, and waits until it has.
 */
export async function stopThread(worker: Worker): Promise<void> {
  // A thread that has already ended (a failure it did not survive) has no 'exit' left to wait for.
  if (worker.threadId === -1) return;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage('stop');
  await exited;
}
