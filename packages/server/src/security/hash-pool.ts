import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Options } from '@node-rs/argon2';

/**
 * The work a hashing thread runs: each message is one hash or one verification, done synchronously on
 * that thread. Plain CommonJS so that it runs the same under the compiled server, tsx and the tests.
 * On Linux a thread's nice value is its own, so the thread lowers its own priority and leaves the event
 * loop's thread (HTTP, the database) first in line for the CPU whenever both want it.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.library);
if (workerData.nice > 0) {
  try { require('node:os').setPriority(0, workerData.nice); } catch {}
}
parentPort.on('message', ({ id, password, hash, options }) => {
  try {
    const value = hash === undefined ? argon2.hashSync(password, options) : argon2.verifySync(hash, password);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Job {
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  jobs: Map<number, Job>;
}

/**
 * The nice value a thread of ours lowers itself to: `nice` kept within Linux's 0 to 19, and 0 elsewhere,
 * where only the whole process has one and lowering it would lower the whole server.
 */
export function threadNice(nice: number): number {
  return process.platform === 'linux' ? Math.min(19, Math.max(0, nice)) : 0;
}

export interface HashPoolOptions {
  /** Threads, started as work arrives: one per core by default. */
  size?: number;
  /** How far below the event loop a hashing thread runs (Linux nice, 0 to 19); 0 leaves it equal. */
  nice?: number;
}

/**
 * argon2id on threads of its own, at a lower priority than the event loop. A hash takes tens of
 * milliseconds of CPU; when sign-ins arrive faster than the cores can hash, the hashes queue here
 * instead of taking the CPU from every other request. Each thread takes its next job from its own
 * queue of messages without waiting for the event loop, so the cores stay busy. Why:
 * docs/decisions/008-password-hashing-threads.md.
 */
export class HashPool {
  private readonly threads: Thread[] = [];
  private readonly size: number;
  private readonly nice: number;
  private nextId = 0;
  private readonly library = createRequire(import.meta.url).resolve('@node-rs/argon2');

  constructor({ size = availableParallelism(), nice = 10 }: HashPoolOptions = {}) {
    this.size = Math.max(1, size);
    this.nice = threadNice(nice);
  }

  hash(password: string, options: Options): Promise<string> {
    return this.run({ password, options }) as Promise<string>;
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.run({ password, hash }) as Promise<boolean>;
  }

  /** Threads started (for tests). */
  get started(): number {
    return this.threads.length;
  }

  private run(message: { password: string; hash?: string; options?: Options }): Promise<string | boolean> {
    const thread = this.pick();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (thread.jobs.size === 0) thread.worker.ref();
      thread.jobs.set(id, { resolve, reject });
      thread.worker.postMessage({ id, ...message });
    });
  }

  /** The thread with the fewest jobs; a new one while there are fewer than `size` and all are busy. */
  private pick(): Thread {
    let best: Thread | undefined;
    for (const t of this.threads) if (!best || t.jobs.size < best.jobs.size) best = t;
    if (best && (best.jobs.size === 0 || this.threads.length >= this.size)) return best;
    return this.start();
  }

  private start(): Thread {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { library: this.library, nice: this.nice },
      // The thread's own heap holds only messages; argon2's memory is allocated outside it.
      resourceLimits: { maxOldGenerationSizeMb: 32 },
    });
    const thread: Thread = { worker, jobs: new Map() };
    worker.unref();
    worker.on('message', ({ id, value, error }: { id: number; value?: string | boolean; error?: string }) => {
      const job = thread.jobs.get(id);
      if (!job) return;
      thread.jobs.delete(id);
      if (thread.jobs.size === 0) worker.unref();
      if (error === undefined && value !== undefined) job.resolve(value);
      else job.reject(new Error(`password hashing failed: ${error ?? 'no answer'}`));
    });
    const lost = (reason: string) => {
      const at = this.threads.indexOf(thread);
      if (at >= 0) this.threads.splice(at, 1);
      for (const job of thread.jobs.values()) job.reject(new Error(`password hashing thread ${reason}`));
      thread.jobs.clear();
    };
    worker.on('error', (error) => lost(`failed: ${error.message}`));
    worker.on('exit', (code) => lost(`stopped (${code})`));
    this.threads.push(thread);
    return thread;
  }

  /** Stops every thread; jobs still in flight are refused. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
