import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';

/** What the payments module and its providers are built from. */
export interface PaymentsDeps {
  /** For the module's own tables (provider events and references); orders are reached through the ports. */
  db: Kysely<Database>;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
}
