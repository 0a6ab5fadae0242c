import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './connect.js';
import { accountsMigration } from './migrations/001-accounts.js';
import { storeMigration } from './migrations/002-store.js';
import { filesMigration } from './migrations/003-files.js';
import { paymentsMigration } from './migrations/004-payments.js';
import { jobsMigration } from './migrations/005-jobs.js';
import { securityMigration } from './migrations/006-security.js';
import { passkeysDeletionMigration } from './migrations/007-passkeys-deletion.js';
import { shopAdminMigration } from './migrations/008-shop-admin.js';
import { storageWritesMigration } from './migrations/010-storage-writes.js';
import { testPurchasesMigration } from './migrations/011-test-purchases.js';
import { deviceTokensMigration } from './migrations/012-device-tokens.js';
import { stepUpMigration } from './migrations/013-step-up.js';
import { mailOutboxMigration } from './migrations/014-mail-outbox.js';
import { subscriptionPeriodEndMigration } from './migrations/015-subscription-period-end.js';
import { creditBalancesMigration } from './migrations/016-credit-balances.js';
import { socialIdentitiesMigration } from './migrations/017-social-identities.js';
import { subscriptionExpiryIndexMigration } from './migrations/018-subscription-expiry-index.js';
import { appleRelayDeliveryMigration } from './migrations/019-apple-relay-delivery.js';

/**
 * Every migration, in order. One list serves SQLite and PostgreSQL: the migrations use only types
 * and constraints both engines understand (text ids, bigint millis, integer flags, CHECKs).
 */
export const migrations: Record<string, Migration> = {
  '001-accounts': accountsMigration,
  '002-store': storeMigration,
  '003-files': filesMigration,
  '004-payments': paymentsMigration,
  '005-jobs': jobsMigration,
  '006-security': securityMigration,
  '007-passkeys-deletion': passkeysDeletionMigration,
  '008-shop-admin': shopAdminMigration,
  '010-storage-writes': storageWritesMigration,
  '011-test-purchases': testPurchasesMigration,
  '012-device-tokens': deviceTokensMigration,
  '013-step-up': stepUpMigration,
  '014-mail-outbox': mailOutboxMigration,
  '015-subscription-period-end': subscriptionPeriodEndMigration,
  '016-credit-balances': creditBalancesMigration,
  '017-social-identities': socialIdentitiesMigration,
  '018-subscription-expiry-index': subscriptionExpiryIndexMigration,
  '019-apple-relay-delivery': appleRelayDeliveryMigration,
};

class ListProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations);
  }
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest<T>(db: Kysely<T>, dialect: Dialect): Promise<void> {
  const k = db as unknown as Kysely<unknown>;
  // On PostgreSQL the bookkeeping tables are named with the schema of the search path, where the
  // introspection (pg-introspector.ts) looks for them.
  const schema =
    dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(k)).rows[0]?.s : undefined;
  const migrator = new Migrator({
    db: k,
    provider: new ListProvider(),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
