import {
  adminBackupLinkData,
  adminBackupLinkRequest,
  adminBackupsListData,
  adminBackupsListRequest,
  adminBackupStartData,
  adminBackupStartRequest,
  ConflictReason,
  dataResponse,
  Level,
  type Backup,
  type BackupRun,
} from '@till/protocol';
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { takeLease, type Job } from '../db/jobs.js';
import type { Database } from '../db/schema.js';
import { fail } from '../errors.js';
import { asData } from '../http/calls.js';
import type { ModuleHost, TillModule } from '../http/module.js';
import type { ObjectStorage } from '../modules/files/index.js';
import { sign, verifySignature } from '../security/tokens.js';
import { type BackupStore, type StoredBackup } from './backup-store.js';
import { takeBackup, type BackupProgress, type TakenBackup } from './backup.js';

export interface BackupsDeps {
  db: Kysely<Database>;
  /** The SQLite file the server has open; undefined on PostgreSQL, where backups are pg_dump's (docs/backups.md). */
  databaseFile: string | undefined;
  storage: ObjectStorage;
  store: BackupStore;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
  /** This instance, as it holds leases. */
  holder: string;
  /** The SQLite writer's checkpoint thread, held to itself while a backup copies the database. */
  checkpoints?: { holdWriter(): () => void };
  /** How far below the event loop a backup's thread runs (Linux nice; `BACKUP_THREAD_NICE` by default). */
  threadNice?: number;
}

/** How often the schedule is looked at: a backup starts within this of its time. */
const SCHEDULE_CHECK_MS = 60_000;
/** How long an instance's claim on one scheduled time stands: far longer than any backup takes. */
const CLAIM_MS = 7 * 24 * 60 * 60 * 1000;
const LINK_TTL_S = 10 * 60;
/**
 * The lease that says a backup is being taken, so that two instances never take two at once: held
 * for this long, renewed while the backup runs, given up when it ends; a crashed holder's runs out.
 */
const RUNNING_LEASE = 'backup.running';
const RUNNING_LEASE_MS = 2 * 60_000;
const RENEW_MS = 30_000;
const DOWNLOAD_ROUTE = '/api/admin/backups/download/:name';

function toBackup(b: StoredBackup): Backup {
  return { name: b.name, size: b.size, takenAt: new Date(b.takenAt).toISOString() };
}

/** A backup already being taken, by this instance or another (the `backup.running` lease). */
export class BackupInProgress extends Error {
  constructor() {
    super('a backup is being taken already');
    this.name = 'BackupInProgress';
  }
}

/** A backup under way: what the admin screens see of it, and its end. */
interface Run {
  view: BackupRun;
  taken: Promise<TakenBackup>;
}

/**
 * Backups of a SQLite server (docs/backups.md): taken on demand (an administrator's call, `npm run
 * backup`) or on `BACKUP_SCHEDULE`, kept where `BACKUP_URL` says, the latest `BACKUP_KEEP` of them.
 * One runs at a time, across instances too (the `backup.running` lease).
 */
export class Backups implements TillModule {
  readonly name = 'backups';
  private run: Run | undefined;
  /** A start between its lease and its run: a second start in this instance meanwhile is refused too. */
  private starting = false;

  constructor(private readonly deps: BackupsDeps) {}

  /** Whether this server can take backups itself (SQLite). */
  get available(): boolean {
    return this.deps.databaseFile !== undefined;
  }

  /** The backup being taken, or the last this instance took since it started. */
  get latestRun(): BackupRun | null {
    return this.run ? { ...this.run.view } : null;
  }

  /**
   * Starts a backup and answers at once: its run, and the promise of the backup. Refuses with
   * {@link BackupInProgress} while one is being taken here or by another instance (the lease).
   */
  async start(): Promise<Run> {
    const file = this.deps.databaseFile;
    if (!file) throw new Error('backups are taken by the server on SQLite only: use pg_dump');
    if (this.starting || this.run?.view.state === 'running') throw new BackupInProgress();
    this.starting = true;
    try {
      const { db, holder } = this.deps;
      if (!(await takeLease(db, RUNNING_LEASE, holder, this.deps.now(), RUNNING_LEASE_MS)))
        throw new BackupInProgress();
      const view: BackupRun = {
        state: 'running',
        step: 'snapshot',
        done: 0,
        total: 0,
        startedAt: new Date(this.deps.now()).toISOString(),
        finishedAt: null,
        backup: null,
      };
      const renew = setInterval(() => {
        void db
          .updateTable('job_leases')
          .set({ expires_at: this.deps.now() + RUNNING_LEASE_MS })
          .where('name', '=', RUNNING_LEASE)
          .where('holder', '=', holder)
          .execute()
          .catch((error: unknown) => this.deps.log.warn({ err: error }, 'the backup lease could not be renewed'));
      }, RENEW_MS).unref();
      const checkpoints = this.deps.checkpoints;
      const taken = takeBackup({
        databaseFile: file,
        storage: this.deps.storage,
        store: this.deps.store,
        keep: this.deps.config.backup.keep,
        now: this.deps.now,
        onProgress: (p: BackupProgress) => Object.assign(view, p),
        ...(this.deps.threadNice !== undefined ? { threadNice: this.deps.threadNice } : {}),
        ...(checkpoints ? { holdCheckpoints: () => checkpoints.holdWriter() } : {}),
      }).then(
        (backup) => {
          Object.assign(view, { state: 'done', finishedAt: new Date(this.deps.now()).toISOString() });
          view.backup = toBackup(backup);
          view.done = view.total;
          return backup;
        },
        (error: unknown) => {
          Object.assign(view, { state: 'failed', finishedAt: new Date(this.deps.now()).toISOString() });
          this.deps.log.error({ err: error, step: view.step }, 'the backup failed');
          throw error;
        },
      );
      const ended = taken
        .catch(() => undefined)
        .then(async () => {
          clearInterval(renew);
          await db
            .deleteFrom('job_leases')
            .where('name', '=', RUNNING_LEASE)
            .where('holder', '=', holder)
            .execute()
            .catch((error: unknown) => this.deps.log.warn({ err: error }, 'the backup lease could not be given up'));
        });
      // The backup counts as ended once its lease is given up: a start right after it goes through.
      this.run = { view, taken: taken.finally(() => ended) };
      return this.run;
    } finally {
      this.starting = false;
    }
  }

  /** Takes a backup now and answers it once stored; refused while one is being taken (see {@link start}). */
  async take(): Promise<TakenBackup> {
    return (await this.start()).taken;
  }

  list(): Promise<StoredBackup[]> {
    return this.deps.store.list();
  }

  /**
   * The scheduled backup. Every minute it looks for the latest time the schedule named that has
   * no backup since; the instance whose claim on that time (a lease named after it, in
   * `job_leases`) goes through takes it, so across instances each scheduled time is taken once.
   * Only the latest time is ever looked at: after a stop over one or more scheduled times, the
   * first look after the start takes one backup for all of them, never one for each
   * (docs/decisions/013-missed-backups-taken-once.md).
   */
  jobs(): Job[] {
    const schedule = this.deps.config.backup.schedule;
    if (!schedule || !this.available) return [];
    const cron = new Cron(schedule, { paused: true, timezone: 'UTC' });
    return [
      {
        name: 'backup-schedule',
        everyMs: SCHEDULE_CHECK_MS,
        run: async (now) => {
          const due = cron.previousRuns(1, new Date(now))[0]?.getTime();
          if (due === undefined) return 0;
          const latest = (await this.list())[0];
          if (latest && latest.takenAt >= due) return 0;
          const claimed = await takeLease(
            this.deps.db,
            `backup@${new Date(due).toISOString()}`,
            this.deps.holder,
            now,
            CLAIM_MS,
          );
          if (!claimed) return 0;
          let taken: TakenBackup;
          try {
            taken = await this.take();
          } catch (error) {
            // Another backup is being taken (asked by an administrator, maybe on another instance): the
            // claim on this time is given back, and a later look takes it if that one was before it.
            if (error instanceof BackupInProgress)
              await this.deps.db
                .deleteFrom('job_leases')
                .where('name', '=', `backup@${new Date(due).toISOString()}`)
                .where('holder', '=', this.deps.holder)
                .execute();
            throw error;
          }
          this.deps.log.info(
            { backup: taken.name, size: taken.size, removed: taken.removed },
            'scheduled backup taken',
          );
          // Claims on times long past are of no more use.
          await this.deps.db
            .deleteFrom('job_leases')
            .where('name', 'like', 'backup@%')
            .where('expires_at', '<', now)
            .execute();
          return 1;
        },
      },
    ];
  }

  register(host: ModuleHost): void {
    const tag = 'admin';
    const auth = Level.Admin;
    host.calls.define({
      path: '/api/admin/backups/list',
      summary: 'The kept backups, newest first, with the settings that take them.',
      tag,
      auth,
      request: adminBackupsListRequest,
      response: dataResponse(adminBackupsListData),
      handler: async () => ({
        data: {
          backups: (await this.list()).map(toBackup),
          run: this.latestRun,
          available: this.available,
          schedule: this.deps.config.backup.schedule ?? null,
          keep: this.deps.config.backup.keep,
        },
      }),
    });
    host.calls.define({
      path: '/api/admin/backups/start',
      summary:
        'Starts a backup (SQLite) while the server goes on serving, and answers at once (HTTP 202) with it running; ' +
        'the list tells how it goes. Refused (912 in_progress) while one is being taken, here or by another instance.',
      tag,
      auth,
      request: adminBackupStartRequest,
      response: dataResponse(adminBackupStartData),
      handler: async (_input, { reply }) => {
        if (!this.available) return asData(fail.conflict('postgres', ConflictReason.Unavailable));
        let run: Run;
        try {
          run = await this.start();
        } catch (error) {
          if (error instanceof BackupInProgress) return asData(fail.conflict('running', ConflictReason.InProgress));
          throw error;
        }
        // Its failure is logged and shown in its run; nothing else waits for it.
        run.taken.catch(() => undefined);
        void reply.status(202);
        return { data: { run: { ...run.view } } };
      },
    });
    host.calls.define({
      path: '/api/admin/backups/link',
      summary:
        'A link that downloads a backup archive for the next ten minutes. An archive holds every account, so the ' +
        'administrator must have proved their password again recently.',
      tag,
      auth,
      stepUp: true,
      request: adminBackupLinkRequest,
      response: dataResponse(adminBackupLinkData),
      handler: async (input) => {
        if (!(await this.list()).some((b) => b.name === input.name)) return asData(fail.notFound('name'));
        const expires = Math.floor(this.deps.now() / 1000) + LINK_TTL_S;
        const sig = sign(this.deps.config.signingSecret, `backup:${input.name}:${expires}`);
        return {
          data: { url: `/api/admin/backups/download/${encodeURIComponent(input.name)}?expires=${expires}&sig=${sig}` },
        };
      },
    });
    host.app.get<{ Params: { name: string }; Querystring: { expires?: string; sig?: string } }>(
      DOWNLOAD_ROUTE,
      async (request, reply) => {
        const { name } = request.params;
        const { expires, sig } = request.query;
        const valid =
          typeof expires === 'string' &&
          /^\d{1,12}$/.test(expires) &&
          typeof sig === 'string' &&
          verifySignature(this.deps.config.signingSecret, `backup:${name}:${expires}`, sig) &&
          Number(expires) * 1000 > this.deps.now();
        if (!valid) return reply.status(403).send({ code: 403, error: 'forbidden' });
        const body = await this.deps.store.open(name);
        if (!body) return reply.status(404).send({ code: 404, error: 'not_found' });
        return reply
          .header('content-type', 'application/gzip')
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );
    host.app.addHook('onClose', async () => {
      await this.run?.taken.catch(() => undefined);
      this.deps.store.close();
    });
  }
}
