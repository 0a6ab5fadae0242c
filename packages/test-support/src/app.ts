import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppContext, type BuildOptions, type Config, buildApp, loadConfig } from '@till/server';
import {
  type Dialect,
  type Job,
  type JobRunner,
  AnswerCheck,
  HashPool,
  PasswordHasher,
  TEST_ARGON2_SETTINGS,
} from '@till/server/testing';
import { createTestDb, testGroupCommit, type TestDb } from './db.js';
import { eventually } from './eventually.js';

/**
 * The SDK's time limits for a test against a test server (`createTill({ timeouts: patientTimeouts })`):
 * a limit there catches a server that never answers, not a slow machine. The product's own limits (the
 * store's 5 s) made a call time out while both cores were busy; the SDK's tests of those limits set them.
 */
export const patientTimeouts = { apiMs: 60_000, storeMs: 60_000 } as const;

/** A running test server: the real app on a throwaway database. */
export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: TestDb;
  /** The housekeeping jobs, not scheduled in tests: a test runs a turn with `jobs.runner.turn(job)`. */
  jobs: { runner: JobRunner; list: Job[] };
  /** What the answers sent so far held against their declared schemas. */
  answerCheck: AnswerCheck;
  /** `http://127.0.0.1:PORT` when started with `listen`, else ''. */
  url: string;
  /** POST a JSON body through `inject` and answer the parsed body. */
  call(path: string, body?: Record<string, unknown>): Promise<Record<string, unknown> & { code: number }>;
  close(): Promise<void>;
}

const generous = {
  loginPerIp: 100_000,
  loginFailuresPerAccountAndIp: 10,
  loginFailuresPerAccount: 100,
  registerPerIp: 100_000,
  mailPerIp: 100_000,
  mailPerAddress: 100_000,
  resetPerIp: 100_000,
  resetPerToken: 100_000,
  confirmPerIp: 100_000,
  confirmPerToken: 100_000,
};

export interface TestAppOptions extends Omit<BuildOptions, 'db'> {
  dialect?: Dialect;
  env?: Record<string, string>;
  /** Changes to the parsed config (rate limits default to generous ones). */
  config?: Partial<Config>;
  listen?: boolean;
  poolSize?: number;
}

/**
 * Test servers hash with argon2id's cheapest settings unless a test passes `passwords` (the hashing and
 * timing tests pass the production ones): a production hash for every registration and sign-in of the
 * suite is CPU that proves nothing there. Their hashing threads, and their backups' thread, run at the
 * event loop's priority: niced, they waited behind every other process of the test run, and a backup
 * of a few kilobytes took seconds (the hashing pool's own test checks the nice value).
 */
const cheapHashing = new PasswordHasher(TEST_ARGON2_SETTINGS, new HashPool({ nice: 0 }));

/** Builds the real app on a fresh database of the given engine. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDb(options.dialect ?? 'sqlite', options.poolSize);
  // Uploads go to a folder of this app's own unless the test names one: apps share no files, and one
  // app's start (which removes what uploads cut by a crash left) never touches another's uploads.
  const uploads =
    options.env?.STORAGE_URL || options.config?.storageUrl ? undefined : mkdtempSync(join(tmpdir(), 'till-uploads-'));
  const base = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // What the test database was opened with (`createTestDb`), so that the config tells the truth.
    SQLITE_GROUP_COMMIT: testGroupCommit ? 'on' : 'off',
    ...(uploads ? { STORAGE_URL: `file:${uploads}` } : {}),
    ...options.env,
  });
  const config: Config = { ...base, rateLimits: { ...generous }, ...options.config };
  const answerCheck = new AnswerCheck();
  const { app, ctx, jobs } = await buildApp(config, {
    logger: false,
    answerCheck,
    jobs: false,
    passwords: cheapHashing,
    backupThreadNice: 0,
    ...options,
    db,
  });
  let url = '';
  if (options.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    config.publicUrl = url;
  } else {
    await app.ready();
  }
  // Until its Redis client is connected a server counts rate limits in its own memory (as it does while
  // Redis is away): a test of budgets shared through Redis starts once they are counted there.
  if (config.redisUrl) {
    const redis = await eventually(
      async () => (await app.inject({ method: 'GET', url: '/api/health' })).json<{ redis?: string }>().redis,
      (state) => state === 'ok',
    );
    if (redis !== 'ok') throw new Error(`the test server's Redis client did not connect to ${config.redisUrl}`);
  }
  return {
    app,
    ctx,
    db,
    url,
    async call(path, body = {}) {
      const res = await app.inject({ method: 'POST', url: path, payload: body });
      return res.json();
    },
    answerCheck,
    jobs,
    async close() {
      await app.close();
      await db.drop();
      if (uploads) rmSync(uploads, { recursive: true, force: true });
      // Every answer this app sent was held against its call's declared schema (the OpenAPI document).
      if (answerCheck.drift.length) {
        throw new Error(`answers that their schemas do not describe:\n${answerCheck.drift.join('\n')}`);
      }
    },
  };
}
