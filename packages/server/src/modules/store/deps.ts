import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Dialect } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';

/** What every part of the store is built from. */
export interface StoreDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
}
