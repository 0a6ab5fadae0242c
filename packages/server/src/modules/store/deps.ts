import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Db, Dialect } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';

/** What every part of the store is built from. */
export interface StoreDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
  /** Commits so far to the named tables, where the database counts them (SQLite: see `Db.version`). */
  version?: Db['version'];
  /**
   * Where administrators' changes to an account are recorded (the accounts module's security log),
   * inside the change's own transaction.
   */
  securityEvents?: AccountEvents | undefined;
}

/** The security-log writer as the store reports to it. */
export interface AccountEvents {
  write(
    input: {
      userId: string;
      kind: 'admin_credits_adjusted';
      ip?: string | null;
      userAgent?: string | null;
      actorId?: string | null;
      detail?: Record<string, string | number | boolean | null>;
    },
    trx?: Kysely<Database>,
  ): Promise<void>;
}
