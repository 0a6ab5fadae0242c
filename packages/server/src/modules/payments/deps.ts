import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';

/** What the store's catalog tells the in-app stores: the type of the product a store's id names. */
export interface CatalogPort {
  /**
   * The product type (ProductType) of the product that `storeId` names, preferring the id given for
   * `platform` (`googleplay`) over the same id given for another store; undefined when none does.
   */
  typeOfStoreId(storeId: string, platform: string): Promise<number | undefined>;
}

/** What the payments module and its providers are built from. */
export interface PaymentsDeps {
  /** For the module's own tables (provider events and references); orders are reached through the ports. */
  db: Kysely<Database>;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
  /** The store's catalog, which the payments module does not own (Google Play asks it a product's type). */
  catalog?: CatalogPort | undefined;
}
