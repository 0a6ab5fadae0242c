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
  /** The buyers' accounts, which the accounts module owns (handed in by the app). */
  buyers: Buyers;
}

/** What the flows ask of a buyer's account. */
export interface Buyers {
  /** Who a mail to the buyer goes to; undefined for an unknown or deleted account. */
  recipient(userId: string): Promise<{ email: string; name: string; lang: string } | undefined>;
  /** Flags the buyer for an administrator, in `trx` (a reversal that could not take back every credit). */
  flag(trx: Kysely<Database>, userId: string, reason: string, now: number): Promise<void>;
}
