import { adminUsersListData, adminUsersListRequest, dataResponse, Level } from '@till/protocol';
import type { Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import type { Job } from '../../db/jobs.js';
import type { ModuleHost, TillModule } from '../../http/module.js';
import type { SecurityEvents } from './security-log.js';
import { AccountSecurity } from './account-security.js';
import { listUsers } from './admin-users.js';
import { registerAccountRoutes } from './routes.js';
import { registerSecurityRoutes } from './security-routes.js';
import { AccountsService, type AccountsDeps } from './service.js';

/** Accounts: registration, confirmation, login, links, profile, sessions, and the users list for administrators. */
export class AccountsModule implements TillModule {
  readonly name = 'accounts';
  readonly service: AccountsService;

  constructor(private readonly deps: AccountsDeps) {
    this.service = new AccountsService(deps);
  }

  /** Checks a session token: what every other module's calls are authenticated with. */
  authenticate(token: string): Promise<Outcome<Caller>> {
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
        run: async (now) => (await this.service.repo.purgeExpired(now)) + (await this.service.factors.purge(now)),
      },
      { name: 'accounts.security-log', everyMs: 86_400_000, run: (now) => this.service.securityLog.purge(now) },
    ];
  }

  /** The security-log writer, for events other parts of the app report (passkeys, deletion). */
  get securityEvents(): SecurityEvents {
    return this.service.securityLog;
  }

  register({ app, calls }: ModuleHost): void {
    // Mails still on their way go out before the app (and its mailer) closes.
    app.addHook('onClose', () => this.service.settle());
    registerAccountRoutes(calls, this.service);
    registerSecurityRoutes(calls, this.service, new AccountSecurity(this.deps.db, this.service));
    calls.define({
      path: '/api/admin/users/list',
      summary: 'Users with their balances; `query` matches part of the e-mail or name.',
      tag: 'admin',
      auth: Level.Admin,
      request: adminUsersListRequest,
      response: dataResponse(adminUsersListData),
      handler: async (input) => ({ data: await listUsers(this.deps.db, this.service, input) }),
    });
  }
}

export { accountLimiters } from './limiters.js';
export type { AccountLimiters, AccountsDeps, Avatars } from './service.js';
export { SecurityLog } from './security-log.js';
export type { SecurityEventInput, SecurityEventKind, SecurityEvents, SecurityDetail } from './security-log.js';
