import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db, SessionConnection } from './connect.js';

/**
 * Which server instances on this database are running. Each instance has a random id for its
 * lifetime; work it leaves half-done (an object written to storage and never recorded) carries the
 * id, so that another instance can tell a crashed writer's leftovers from a live writer's work.
 */
export interface Liveness {
  readonly id: string;
  /** Whether the instance `holder` is running now; `false` means it never will again. */
  alive(holder: string): Promise<boolean>;
  close(): Promise<void>;
}

// How long to wait before taking the lock again after the session was lost.
const RETRY_MS = 1000;

/** The advisory lock key of an instance: 64 bits of a hash of its id (PostgreSQL's keys are bigint). */
export function lockKey(id: string): string {
  return createHash('sha256').update(`till-instance:${id}`).digest().readBigInt64BE(0).toString();
}

/**
 * On PostgreSQL an instance holds a session-level advisory lock on its id, on a connection of its
 * own, for as long as it runs. PostgreSQL drops the lock the moment that connection ends, also when
 * the process is killed (its socket is closed by the kernel), so an instance is alive exactly while
 * its lock cannot be taken: no heartbeat, no time-out to wait for.
 *
 * SQLite serves one process (its file is not shared between machines), so every instance but this
 * one is a process that has ended.
 */
export async function startLiveness(db: Db, log: FastifyBaseLogger): Promise<Liveness> {
  const id = randomUUID();
  if (!db.openSession) {
    return { id, alive: (holder) => Promise.resolve(holder === id), close: () => Promise.resolve() };
  }
  const openSession = db.openSession;
  const key = lockKey(id);
  let session: SessionConnection | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const hold = async (): Promise<void> => {
    const s = await openSession();
    await s.query('select pg_advisory_lock($1::bigint)', [key]);
    s.onLost((error) => {
      session = undefined;
      if (closed) return;
      // Until the lock is back, another instance may take this one for crashed and remove an
      // upload it is writing: that upload then fails to be recorded, nothing worse.
      log.warn({ err: { message: error.message } }, 'lost the instance lock session; taking it again');
      const again = () => {
        retry = undefined;
        if (closed) return;
        hold().catch(() => (retry = setTimeout(again, RETRY_MS).unref()));
      };
      again();
    });
    if (closed) await s.end();
    else session = s;
  };
  await hold();
  return {
    id,
    async alive(holder) {
      if (holder === id) return true;
      // Taken for the transaction only: if it can be taken, its holder's session is gone.
      return db.kysely.transaction().execute(async (trx) => {
        const row = await sql<{ free: boolean }>`select pg_try_advisory_xact_lock(${lockKey(holder)}::bigint) as free`
          .execute(trx)
          .then((r) => r.rows[0]);
        return !row?.free;
      });
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await session?.end();
      session = undefined;
    },
  };
}
