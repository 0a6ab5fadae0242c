import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';

/** What the payments module and its providers are built from. */
export interface PaymentsDeps {
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
}
