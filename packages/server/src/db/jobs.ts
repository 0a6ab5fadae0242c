import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A job that runs on a schedule: answers how many things it cleaned up, for the log. */
export interface Job {
  name: string;
  /** How often it runs, in milliseconds. */
  everyMs: number;
  run(now: number): Promise<number>;
}

/**
 * Takes a job's lease for `ms`: true when this instance may run the job now. One conditional write
 * decides it (insert the lease, or take it over once it has run out), so when several instances ask
 * at once exactly one gets it, on SQLite and PostgreSQL alike.
 */
export async function takeLease(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: number,
  ms: number,
): Promise<boolean> {
  const row = await db
    .insertInto('job_leases')
    .values({ name, holder, expires_at: now + ms, last_run_at: now })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: now + ms, last_run_at: now })
        .where('job_leases.expires_at', '<=', now),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === holder;
}

/**
 * Runs scheduled jobs while the app is up. Each turn of a job first takes its lease for the job's
 * period, so across instances a job runs once per period, whichever instance wins; a crashed
 * holder's lease simply runs out. What each turn did is logged.
 */
export class JobRunner {
  private readonly holder = randomUUID();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number,
    /** Told of every turn this instance runs (the metrics). */
    private readonly onRun: (job: string, done: number) => void = () => undefined,
  ) {}

  /** Runs one turn of a job if its lease is free: answers what it did, or undefined when another instance holds it. */
  async turn(job: Job): Promise<number | undefined> {
    const now = this.now();
    if (!(await takeLease(this.db, job.name, this.holder, now, job.everyMs))) return undefined;
    const done = await job.run(now);
    this.log.info({ job: job.name, done }, 'job ran');
    this.onRun(job.name, done);
    return done;
  }

  /** Starts every job on its schedule (the first turn soon after start). */
  start(jobs: Job[]): void {
    for (const job of jobs) {
      const tick = () => {
        const p = this.turn(job)
          .then(() => undefined)
          .catch((error: unknown) => this.log.error({ job: job.name, err: error }, 'job failed'))
          .finally(() => this.running.delete(p));
        this.running.add(p);
      };
      this.timers.push(setTimeout(tick, 5_000).unref(), setInterval(tick, job.everyMs).unref());
    }
  }

  /** Stops the schedules and waits for turns under way. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
