import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { ModuleHost, TillModule } from '../../http/module.js';
import type { Job } from '../../db/jobs.js';
import { makeAvatar } from './avatar.js';
import { ObjectRemovals } from './erasure.js';
import { registerFileRoutes } from './routes.js';
import { FilesService } from './service.js';
import { openStorage } from './storage/open-storage.js';

export interface FilesModuleDeps {
  db: Kysely<Database>;
  config: Config;
  log: FastifyBaseLogger;
  now: () => number;
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

  jobs(): Job[] {
    return [this.removals.job()];
  }

  /** Opens the storage that `STORAGE_URL` names; it is closed with the app. */
  static async open(deps: FilesModuleDeps): Promise<FilesModule> {
    const storage = await openStorage(deps.config.storageUrl);
    const removed = await storage.removeLeftovers();
    if (removed) deps.log.info({ removed }, 'removed partial uploads left by an earlier crash');
    return new FilesModule(new FilesService({ ...deps, storage }));
  }

  /** Avatars made from the user's own uploaded images. */
  readonly avatars = {
    make: (userId: string, fileId: string) => makeAvatar(this.service, userId, fileId),
    url: (key: string) => this.service.links.avatarUrl(key),
    remove: (key: string) => this.service.deleteObject(key),
  };

  register(host: ModuleHost): void {
    registerFileRoutes(host, this.service);
    host.app.addHook('onClose', () => this.service.deps.storage.close());
  }
}
