import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BackgroundCheckpoints, stopThread, type BackgroundCheckpointOptions } from './checkpoints.js';
import { connect } from './connect.js';

const require = createRequire(import.meta.url);
const Driver = require('better-sqlite3') as typeof SqliteDatabase;

describe('checkpoints off the server thread (SQLite)', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'till-checkpoints-'));
    file = join(dir, 'till.db');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A WAL-mode writer on the file with a `notes` table, and checkpoints for it that start at its first
   * commit (the real driver unless `options` name another): `work` runs with both, then the checkpoints
   * stop and the writer closes.
   */
  const withWriter = async (
    options: Partial<BackgroundCheckpointOptions>,
    work: (writer: SqliteDatabase.Database, checkpoints: BackgroundCheckpoints) => Promise<void>,
  ) => {
    const writer = new Driver(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('create table notes (id integer primary key, body text not null)');
    const checkpoints = new BackgroundCheckpoints(writer, {
      file,
      driver: require.resolve('better-sqlite3'),
      startAfter: 1,
      ...options,
    });
    try {
      await work(writer, checkpoints);
    } finally {
      await checkpoints.stop();
      writer.close();
    }
  };

  it('takes over once a server writes on, and every row stays committed', async () => {
    const db = await connect(`sqlite:${file}`);
    try {
      await sql`create table notes (id integer primary key, body text not null)`.execute(db.kysely);
      expect(db.checkpoints?.active).toBe(false);
      for (let i = 0; i < 400; i++) {
        await db.kysely
          .transaction()
          .execute((trx) => sql`insert into notes (body) values (${'n'.repeat(500)})`.execute(trx));
      }
      expect(db.checkpoints?.active).toBe(true);
      await vi.waitFor(() => expect(db.checkpoints?.runs).toBeGreaterThan(0), { timeout: 20_000 });
      const outside = new Driver(file, { readonly: true });
      try {
        expect(outside.prepare('select count(*) as n from notes').get()).toEqual({ n: 400 });
      } finally {
        outside.close();
      }
    } finally {
      await db.close();
    }
    expect(db.checkpoints?.active).toBe(false);
  });

  /**
   * Commits `count` rows of most of a page each through `writer`, telling `checkpoints` of each: three
   * WAL pages a commit here (the row's page and the two above it in the table's tree).
   */
  const writePages = async (
    writer: SqliteDatabase.Database,
    checkpoints: BackgroundCheckpoints,
    count: number,
    pauseEvery?: number,
  ) => {
    const insert = writer.prepare('insert into notes (body) values (?)');
    for (let i = 1; i <= count; i++) {
      insert.run('n'.repeat(3000));
      checkpoints.noteCommit();
      // A pause such as a server has between bursts, until the worker has run turns while the WAL stood
      // still: the second turn counted from here started after the burst ended and copied all of it; the
      // third sets the worker waiting longest, so the next burst's first commit can start the WAL over.
      // Turns that ended during the burst have their messages queued behind it, and are let in first: a
      // slow burst (a busy machine) holds several, which would otherwise count as turns of the pause.
      if (pauseEvery && i % pauseEvery === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        const from = checkpoints.runs;
        await vi.waitFor(() => expect(checkpoints.runs).toBeGreaterThanOrEqual(from + 3), {
          timeout: 20_000,
          interval: 5,
        });
      }
      // Otherwise only a moment for the worker's messages, as a busy server's event loop gives them.
      else if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const walBytes = () => statSync(`${file}-wal`).size;
  const PAGE = 4096 + 24;

  it('keeps the WAL to what is written between its turns when the writes pause', async () => {
    await withWriter({ everyMs: 20, writerLimit: 100_000 }, async (writer, checkpoints) => {
      // About 9,000 WAL pages in all (37 MB if nothing checkpointed), in bursts of 900.
      await writePages(writer, checkpoints, 3000, 300);
      expect(checkpoints.active).toBe(true);
      // A burst's pages, however slowly the machine runs: each pause's checkpoint copied all of the WAL,
      // so the next burst's first commit started it over (or, where a worker's turn held the WAL at that
      // commit, the one after the next pause: two bursts).
      expect(walBytes()).toBeLessThan(2 * 1000 * PAGE);
    });
  });

  it('lets the writer start the WAL over past its limit when the writes never pause', async () => {
    // The worker is on but its first turn comes after the writes: what keeps the WAL short is the
    // writer's own checkpoint at its limit, whatever the machine's speed. (Beside a worker's turn, the
    // writer's checkpoint may give way, and the WAL then ends at a length that depends on timing.)
    await withWriter({ everyMs: 60_000, writerLimit: 500 }, async (writer, checkpoints) => {
      await writePages(writer, checkpoints, 3000);
      expect(checkpoints.active).toBe(true);
      // The limit and the commit that crossed it, never the whole 9,000 pages.
      expect(walBytes()).toBeLessThan(600 * PAGE);
    });
  });

  it("reads the WAL file's old blocks ahead of the writer once the WAL starts over, and next to nothing while it grows", async () => {
    const window = 256 * PAGE;
    await withWriter({ everyMs: 10, writerLimit: 100_000, readAhead: window }, async (writer, checkpoints) => {
      checkpoints.noteCommit();
      await vi.waitFor(() => expect(checkpoints.runs).toBeGreaterThan(0), { timeout: 20_000 });
      // A long read pins the WAL: it grows into new blocks, which the worker leaves alone.
      const reader = new Driver(file, { readonly: true });
      try {
        reader.exec('BEGIN');
        reader.prepare('select count(*) from notes').get();
        await writePages(writer, checkpoints, 600);
        const from = checkpoints.runs;
        await vi.waitFor(() => expect(checkpoints.runs).toBeGreaterThanOrEqual(from + 2), { timeout: 20_000 });
        reader.exec('COMMIT');
      } finally {
        reader.close();
      }
      // At most the few frames written between a turn's checkpoint and its look at the file.
      expect(checkpoints.readAheadBytes).toBeLessThan(16 * PAGE);
      const grown = walBytes();
      expect(grown).toBeGreaterThan(1500 * PAGE);
      // Once a turn has copied it all, the next commit starts the WAL over, at the file's first blocks.
      const copied = checkpoints.runs;
      await vi.waitFor(() => expect(checkpoints.runs).toBeGreaterThanOrEqual(copied + 3), { timeout: 20_000 });
      await writePages(writer, checkpoints, 30);
      await vi.waitFor(() => expect(checkpoints.readAheadBytes).toBeGreaterThanOrEqual(window), { timeout: 20_000 });
      expect(walBytes()).toBe(grown);
      // Each block once, and never past where the file went.
      expect(checkpoints.readAheadBytes).toBeLessThanOrEqual(grown);
    });
  });

  it('reads ahead of the writer on a thread of its own, while no checkpoint turn runs', async () => {
    const window = 128 * PAGE;
    // The worker's first turn would come after a minute: here the writer checkpoints itself past 100 pages.
    await withWriter({ everyMs: 60_000, writerLimit: 100, readAhead: window }, async (writer, checkpoints) => {
      checkpoints.noteCommit();
      const reader = new Driver(file, { readonly: true });
      try {
        reader.exec('BEGIN');
        reader.prepare('select count(*) from notes').get();
        // Pinned by the read, the WAL grows into a larger file.
        await writePages(writer, checkpoints, 600);
        reader.exec('COMMIT');
      } finally {
        reader.close();
      }
      // The writer's own checkpoint copies it all; its next commits start the WAL over at the file's start.
      await writePages(writer, checkpoints, 30);
      const grown = walBytes();
      expect(grown).toBeGreaterThan(500 * PAGE);
      await vi.waitFor(() => expect(checkpoints.readAheadBytes).toBeGreaterThanOrEqual(window), { timeout: 20_000 });
      expect(checkpoints.runs).toBe(0);
      expect(checkpoints.readAheadBytes).toBeLessThanOrEqual(grown);
    });
  });

  it('holds the writer off copying, inside a commit, what a long read held back', async () => {
    await withWriter({ everyMs: 60_000, writerLimit: 500 }, async (writer, checkpoints) => {
      checkpoints.noteCommit();
      expect(checkpoints.active).toBe(true);
      // A long read, as a backup's VACUUM INTO: no checkpoint can copy what is written after it began.
      const reader = new Driver(file, { readonly: true });
      try {
        reader.exec('BEGIN');
        reader.prepare('select count(*) from notes').get();
        const release = checkpoints.holdWriter();
        await writePages(writer, checkpoints, 1500);
        reader.exec('COMMIT');
        release();
        const databaseBytes = statSync(file).size;
        // The first commit past the writer's limit once the read has ended: it copies nothing back.
        writer.prepare('insert into notes (body) values (?)').run('n'.repeat(3000));
        expect(statSync(file).size).toBe(databaseBytes);
        expect(walBytes()).toBeGreaterThan(1500 * PAGE);
        expect(checkpoints.writerHeld).toBe(true);
      } finally {
        reader.close();
      }
    });
  });

  it('gives the writer its own checkpoints back once the worker has copied the backlog', async () => {
    await withWriter({ everyMs: 10, writerLimit: 500 }, async (writer, checkpoints) => {
      checkpoints.noteCommit();
      const release = checkpoints.holdWriter();
      expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      await writePages(writer, checkpoints, 800);
      release();
      await vi.waitFor(() => expect(checkpoints.writerHeld).toBe(false), { timeout: 20_000 });
      expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(500);
    });
  });

  it('is not started for a server that writes little, nor for a database in memory', async () => {
    const db = await connect(`sqlite:${file}`);
    const memory = await connect('sqlite::memory:');
    try {
      await sql`create table t (id integer primary key)`.execute(db.kysely);
      for (let i = 0; i < 50; i++) await sql`insert into t default values`.execute(db.kysely);
      expect(db.checkpoints?.active).toBe(false);
      expect(memory.checkpoints).toBeUndefined();
    } finally {
      await db.close();
      await memory.close();
    }
  });

  it('raises the writer’s own threshold while it runs, and restores it when it stops', async () => {
    await withWriter({ everyMs: 10 }, async (writer, checkpoints) => {
      checkpoints.noteCommit();
      expect(checkpoints.active).toBe(true);
      expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(4000);
      writer.exec("insert into notes (body) values ('n')");
      await vi.waitFor(() => expect(checkpoints.runs).toBeGreaterThan(0), { timeout: 20_000 });
      await checkpoints.stop();
      expect(checkpoints.active).toBe(false);
      expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      // Stopped for good: more commits start no second worker.
      checkpoints.noteCommit();
      expect(checkpoints.active).toBe(false);
    });
  });

  it('gives checkpoints back to the writer when the worker fails, and says so', async () => {
    const broken = join(dir, 'broken-driver.cjs');
    writeFileSync(broken, "throw new Error('no driver here');");
    const failures: unknown[] = [];
    await withWriter({ driver: broken, onFailure: (error) => failures.push(error) }, async (writer, checkpoints) => {
      checkpoints.noteCommit();
      expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(4000);
      await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 20_000 });
      expect((failures[0] as Error).message).toContain('no driver here');
      expect(checkpoints.active).toBe(false);
      expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    });
  });
});

describe('stopThread', () => {
  it('stops a thread that ends on a message, and answers at once for one that has already ended', async () => {
    const waiting = new Worker("require('node:worker_threads').parentPort.once('message', () => process.exit(0));", {
      eval: true,
    });
    let exited = false;
    waiting.once('exit', () => (exited = true));
    await stopThread(waiting);
    expect(exited).toBe(true);

    const ended = new Worker("throw new Error('failed at start')", { eval: true });
    ended.on('error', () => undefined);
    await new Promise((resolve) => ended.once('exit', resolve));
    await stopThread(ended);
    expect(ended.threadId).toBe(-1);
  });
});
