import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Metrics } from '../http/metrics.js';
import type { Mailer } from '../mail/mailer.js';
import type { PaymentsModule } from '../modules/payments/index.js';
import type { StoreModule } from '../modules/store/index.js';

/** What the flows are built from: the modules they compose, and the database their transactions run on. */
export interface FlowDeps {
  db: Kysely<Database>;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
  store: StoreModule;
  payments: PaymentsModule;
  metrics: Metrics;
  /** Sends the shop's mails to buyers (`shop-mails.ts`). */
  mailer: Mailer;
}
