import {
  adminDeleteUserRequest,
  dataResponse,
  deleteAccountRequest,
  Level,
  okResponse,
  PasskeyPaths,
} from '@till/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { runInTransaction } from '../db/transaction.js';
import { fail, Failure, type Outcome } from '../errors.js';
import type { ModuleHost, TillModule } from '../http/module.js';
import type { AccountsModule, ClientInfo, DeletionProof, UserRow } from '../modules/accounts/index.js';
import type { FilesModule } from '../modules/files/index.js';
import { forgetBuyerData } from '../modules/store/index.js';
import type { SecurityEvents } from '../security/security-events.js';

export interface AccountDeletionDeps {
  db: Kysely<Database>;
  accounts: AccountsModule;
  files: FilesModule;
  events: SecurityEvents;
  log: FastifyBaseLogger;
  now: () => number;
}

/**
 * Deleting an account, by its owner or an administrator. It spans three modules, so it is a flow:
 * in one transaction the accounts module erases the person (sessions, links, passkeys; the row
 * becomes an anonymised tombstone), the files module drops the file rows and records their objects
 * for removal, the store forgets the buyer's free-form order data, and the event is recorded. After
 * the commit the objects are removed from storage (a failed removal stays recorded and is retried
 * by the files module's job), and the confirmation goes to the old address after the answer.
 */
export class AccountDeletion implements TillModule {
  readonly name = 'account-deletion';

  constructor(private readonly deps: AccountDeletionDeps) {}

  /** Deletes `targetId`'s account once `actorId` has proven who they are and typed the account's address. */
  async delete(
    targetId: string,
    actorId: string,
    proof: DeletionProof,
    client: ClientInfo,
  ): Promise<Outcome<{ removedObjects: number }>> {
    const { accounts, files, events } = this.deps;
    const target = await accounts.deletion.findUser(targetId);
    if (!target || target.deleted_at != null) return fail.notFound('userId');
    const actor: UserRow | undefined = actorId === targetId ? target : await accounts.deletion.findUser(actorId);
    if (!actor) return fail.invalidToken();
    const allowed = await accounts.deletion.check(target, actor, proof, client);
    if (allowed instanceof Failure) return allowed;
    const now = this.deps.now();
    const done = await runInTransaction(this.deps.db, async (trx) => {
      const erased = await accounts.deletion.erase(targetId, now, trx);
      const keys = await files.removals.queueUserObjects(
        targetId,
        erased.avatarKey ? [erased.avatarKey] : [],
        'account deleted',
        trx,
      );
      const orders = await forgetBuyerData(trx, targetId);
      await events.record(
        {
          userId: targetId,
          kind: 'account_deleted',
          // Where an administrator acted from is theirs to keep on record; the user's own is erased.
          ip: actorId === targetId ? null : client.ip,
          userAgent: actorId === targetId ? null : client.userAgent,
          actorId: actorId === targetId ? null : actorId,
          detail: { by: actorId === targetId ? 'self' : 'admin', objects: keys.length, orders },
        },
        trx,
      );
      return { erased, keys };
    });
    if (done instanceof Failure) return done;
    const removedObjects = await files.removals.remove(done.keys);
    accounts.deletion.sendGoodbye(done.erased);
    this.deps.log.info({ userId: targetId, by: actorId === targetId ? 'self' : 'admin' }, 'account deleted');
    return { removedObjects };
  }

  register({ calls }: ModuleHost): void {
    calls.define({
      path: `/${PasskeyPaths.deleteAccount}`,
      summary:
        'Delete the account for good: `confirm` is its e-mail address, with the current `password` (and a `code` or `recoveryCode` when the second factor is on) or a `passkey` assertion (from confirmOptions).',
      tag: 'accounts',
      auth: Level.Registered,
      request: deleteAccountRequest,
      response: okResponse,
      handler: async (input, ctx) => {
        const done = await this.delete(ctx.caller.userId, ctx.caller.userId, input, ctx);
        return done instanceof Failure ? done : {};
      },
    });
    calls.define({
      path: `/${PasskeyPaths.adminDeleteUser}`,
      summary:
        "An administrator deletes a user's account: `confirm` is that user's e-mail address, `password` (and `code` or `recoveryCode` when their second factor is on) the administrator's own.",
      tag: 'admin',
      auth: Level.Admin,
      request: adminDeleteUserRequest,
      response: dataResponse(z.object({})),
      handler: async (input, ctx) => {
        const done = await this.delete(
          input.userId,
          ctx.caller.userId,
          { confirm: input.confirm, password: input.password, code: input.code, recoveryCode: input.recoveryCode },
          ctx,
        );
        return done instanceof Failure ? done : { data: {} };
      },
    });
  }
}
