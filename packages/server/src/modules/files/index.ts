import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Job } from '../../db/jobs.js';
import type { Liveness } from '../../db/liveness.js';
import type { Database } from '../../db/schema.js';
import type { ModuleHost, TillModule } from '../../http/module.js';
import { makeAvatar } from './avatar.js';
import { ObjectRemovals } from './erasure.js';
import { registerFileRoutes } from './routes.js';
import { FilesService, type FileOwners } from './service.js';
import { openStorage } from './storage/open-storage.js';
import { StorageWrites } from './writes.js';

export interface FilesModuleDeps {
  db: Kysely<Database>;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
  /** Which instances are running: the writes of one that is not are leftovers. */
  liveness: Liveness;
  /** The accounts files belong to (the accounts module's, handed in by the app). */
  owners: FileOwners;
}

/**
 * Files: uploads streamed to the configured storage, their links, and the avatar copies the
 * accounts module shows (through {@link FilesModule.avatars}, handed to it by the app).
 */
export class FilesModule implements TillModule {
  readonly name = 'files';

  /** The removal of a deleted account's objects (used by the account-deletion flow). */
  readonly removals: ObjectRemovals;

  private constructor(readonly service: FilesService) {
    this.removals = new ObjectRemovals(service);
  }

  /** Opens the storage that `STORAGE_URL` names; it is closed with the app. */
  static async open(deps: FilesModuleDeps): Promise<FilesModule> {
    const storage = await openStorage(deps.config.storageUrl);
    const removed = await storage.removeLeftovers();
    if (removed) deps.log.info({ removed }, 'removed partial uploads left by an earlier crash');
    const writes = new StorageWrites(deps.db, storage, deps.liveness, deps.log, deps.now);
    // Objects of uploads that instances gone since (this one before a crash, too) never recorded.
    await writes.removeAbandoned();
    return new FilesModule(new FilesService({ ...deps, storage, writes }));
  }

  /**
   * Removes what instances that stopped while this one runs left unfinished, and retries removing
   * the objects of deleted accounts.
   */
  jobs(): Job[] {
    return [
      { name: 'files.abandoned', everyMs: 600_000, run: () => this.service.deps.writes.removeAbandoned() },
      this.removals.job(),
    ];
  }

  /** Avatars made from the user's own uploaded images. */
  readonly avatars = {
    make: (userId: string, fileId: string) => makeAvatar(this.service, userId, fileId),
    url: (key: string) => this.service.links.avatarUrl(key),
    remove: async (key: string) => {
      await this.service.deleteObject(key);
    },
  };

  register(host: ModuleHost): void {
    registerFileRoutes(host, this.service);
    host.app.addHook('onClose', () => this.service.deps.storage.close());
  }
}
export { openStorage } from './storage/open-storage.js';
export type { FileOwners } from './service.js';
export type { ObjectStorage } from './storage/storage.js';
