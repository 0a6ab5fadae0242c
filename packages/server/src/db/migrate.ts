import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { accountsMigration } from './migrations/001-accounts.js';

/**
 * Every migration, in order. One list serves SQLite and PostgreSQL: the migrations use only types
 * and constraints both engines understand (text ids, bigint millis, integer flags, CHECKs).
 */
export const migrations: Record<string, Migration> = {
  '001-accounts': accountsMigration,
};

class ListProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations);
  }
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const migrator = new Migrator({ db: db as unknown as Kysely<unknown>, provider: new ListProvider() });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
