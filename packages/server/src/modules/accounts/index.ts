import { sql, type Expression, type SqlBool } from 'kysely';
import type { Failure, Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import type { Job } from '../../db/jobs.js';
import type { ModuleHost, TillModule } from '../../http/module.js';
import type { Executor } from '../../db/rows.js';
import type { SecurityEvents } from './security-log.js';
import { AccountSecurity } from './account-security.js';
import { AdminUsers } from './admin-users.js';
import { checkDeletionProof, eraseAccount, type DeletionProof, type ErasedAccount } from './deletion.js';
import { registerPasskeyRoutes } from './passkey-routes.js';
import { PasskeysService } from './passkeys.js';
import type { UserRow } from './repo.js';
import { registerAccountRoutes } from './routes.js';
import { registerSecurityRoutes } from './security-routes.js';
import { AccountsService, type AccountsDeps, type ClientInfo } from './service.js';
import { AppleNotifications } from './apple-notifications.js';
import { SocialFlows } from './social.js';
import { loadSocialConfig } from './social-config.js';
import { registerSocialRoutes } from './social-routes.js';

/** Accounts: registration, confirmation, login, links, profile, sessions, and the users list for administrators. */
export class AccountsModule implements TillModule {
  readonly name = 'accounts';
  readonly service: AccountsService;
  readonly passkeys: PasskeysService;
  readonly social: SocialFlows;
  readonly appleNotifications: AppleNotifications;

  constructor(private readonly deps: AccountsDeps) {
    this.service = new AccountsService(deps);
    this.passkeys = new PasskeysService({ ...deps, now: deps.now ?? Date.now });
    // Parsed as the app is built, so that a bad SOCIAL_* value stops the start and names the variable.
    const social = loadSocialConfig(deps.config.socialEnv ?? {}, deps.config.production);
    this.social = new SocialFlows(this.service, this.passkeys.repo, social, () => deps.config.publicUrl);
    this.appleNotifications = new AppleNotifications(this.service, social, deps.log);
  }

  /** What the account-deletion flow needs of this module. */
  readonly deletion = {
    findUser: (id: string): Promise<UserRow | undefined> => this.service.repo.findUserById(id),
    check: (target: UserRow, actor: UserRow, proof: DeletionProof, client: ClientInfo) =>
      checkDeletionProof(this.service, this.passkeys, target, actor, proof, client),
    erase: (userId: string, now: number, trx: Executor): Promise<ErasedAccount> =>
      eraseAccount(this.service, this.passkeys, userId, now, trx),
    /** The confirmation to the old address, sent after the answer. */
    sendGoodbye: (erased: ErasedAccount): void => {
      const row = { ...erased, id: erased.userId } as unknown as UserRow;
      this.service.mailAfterAnswer(row, 'account_deleted', erased.email);
    },
  };

  /** Who a mail to the user goes to (none for an unknown or deleted account): for the shop's mails. */
  async recipientOf(userId: string): Promise<{ email: string; name: string; lang: string } | undefined> {
    const row = await this.service.repo.findUserById(userId);
    return row && row.deleted_at == null ? { email: row.email, name: row.name, lang: row.lang } : undefined;
  }

  /**
   * Flags the user for an administrator, in `trx`: a reversal of a purchase could not take back every
   * credit it granted. An administrator clears it (`api/admin/users/clearFlag`).
   */
  async flag(trx: Executor, userId: string, reason: string, now: number): Promise<void> {
    await trx.updateTable('users').set({ flagged_at: now, flag_reason: reason }).where('id', '=', userId).execute();
  }

  /** What administrators' order views of the store ask of the accounts (handed to the store by the app). */
  readonly buyers = {
    /** The user `userId` names has an e-mail address that, lower-cased, matches the LIKE `pattern` (`\\` escapes). */
    emailLike: (userId: Expression<string>, pattern: string): Expression<SqlBool> =>
      sql<SqlBool>`${userId} in (${this.deps.db
        .selectFrom('users')
        .select('users.id')
        .where(sql<boolean>`lower(users.email) like ${pattern} escape '\\'`)})`,
    /** Users' e-mail addresses by id, and whether each account is deleted. */
    emailsOf: async (x: Executor, userIds: readonly string[]) => {
      const ids = [...new Set(userIds)];
      const rows = ids.length
        ? await x.selectFrom('users').select(['id', 'email', 'deleted_at']).where('id', 'in', ids).execute()
        : [];
      return new Map(rows.map((r) => [r.id, { email: r.email, deleted: r.deleted_at != null }]));
    },
  };

  /** What the files module asks of the accounts its files belong to (handed to it by the app). */
  readonly fileOwners = {
    holdLive: (userId: string, trx: Executor): Promise<boolean> => this.service.repo.holdLiveUser(userId, trx),
    hasAvatar: (key: string): Promise<boolean> => this.service.repo.isCurrentAvatar(key),
    avatarOf: (userId: string): Promise<string | null> => this.service.repo.avatarKeyOf(userId),
  };

  /** Whether the caller's session proved its password again recently (914 when not): for `stepUp` calls. */
  recentProof(caller: Caller): Promise<Failure | undefined> {
    return this.service.recentProof(caller);
  }

  /** Checks a session token: what every other module's calls are authenticated with. */
  authenticate(token: string): Outcome<Caller> | Promise<Outcome<Caller>> {
    return this.service.authenticate(token);
  }

  /**
   * Housekeeping: sessions, link tokens and login challenges that can no longer be used are removed
   * hourly; security-log entries past their retention time daily.
   */
  jobs(): Job[] {
    return [
      {
        name: 'accounts.expired',
        everyMs: 3_600_000,
        run: async (now) =>
          (await this.service.repo.purgeExpired(now, this.service.idleCutoff(now))) +
          (await this.service.factors.purge(now)) +
          (await this.passkeys.repo.purgeChallenges(now)) +
          (await this.social.repo.purge(now)),
      },
      { name: 'accounts.security-log', everyMs: 86_400_000, run: (now) => this.service.securityLog.purge(now) },
    ];
  }

  /** The security-log writer, for events other parts of the app report (passkeys, deletion). */
  get securityEvents(): SecurityEvents {
    return this.service.securityLog;
  }

  async register({ app, calls }: ModuleHost): Promise<void> {
    // Mails still on their way go out before the app (and its mailer) closes.
    app.addHook('onClose', () => this.service.settle());
    registerAccountRoutes(calls, this.service);
    registerSecurityRoutes(calls, this.service, new AccountSecurity(this.deps.db, this.service));
    registerPasskeyRoutes(calls, this.service, this.passkeys, this.deps.events);
    new AdminUsers(this.deps.db, this.service, this.deps.config.adminEmails, this.deps.now ?? Date.now).register(calls);
    await registerSocialRoutes(app, calls, this.social, this.appleNotifications);
  }
}

export { accountLimiters } from './limiters.js';
export type { AccountLimiters, AccountsDeps, Avatars, ClientInfo } from './service.js';
export type { DeletionProof, ErasedAccount } from './deletion.js';
export type { UserRow } from './repo.js';
export { SecurityLog } from './security-log.js';
export type { SecurityEventInput, SecurityEventKind, SecurityEvents, SecurityDetail } from './security-log.js';
