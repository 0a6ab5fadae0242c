import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { runInTransaction } from '../../db/transaction.js';
import { fail, Failure, type Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import type { FactorProof } from './second-factor.js';
import type { AccountsService, ClientInfo, PasswordCheckPurpose } from './service.js';

/**
 * The calls that change a user's second factor: set up, enable, disable (the user, with their
 * password and a code), renew the recovery codes (the user, after a step-up), and reset (an
 * administrator). Each change is written to the security log in the transaction that makes it.
 */
export class AccountSecurity {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accounts: AccountsService,
  ) {}

  async setup(caller: Caller): Promise<Outcome<{ secret: string; uri: string }>> {
    return this.accounts.factors.setup(caller.userId, caller.email);
  }

  /**
   * Turns TOTP on: the current password (902) and a code from the new secret (907 `code`). The
   * user's other sessions end with it.
   */
  async enable(
    caller: Caller,
    input: { code: string; currentPassword: string },
    client: ClientInfo,
  ): Promise<Outcome<{ recoveryCodes: string[] }>> {
    const checked = await this.checkPassword(caller, input.currentPassword, client, 'totp_enable');
    if (checked) return checked;
    // Sessions opened with the password alone (perhaps by whoever made the owner add a factor) end
    // with the change; the session that turned it on stays.
    const enabled = await this.accounts.factors.enable(
      caller.userId,
      input.code,
      { ip: client.ip, userAgent: client.userAgent },
      (trx) => this.accounts.repo.deleteOtherSessions(caller.userId, caller.sessionId, trx).then(() => undefined),
    );
    // The password and a code from the new factor: what a step-up proves.
    if (!(enabled instanceof Failure)) {
      await this.accounts.markProof(caller);
      await this.notify(caller, 'totp_enabled');
    }
    return enabled;
  }

  /** Turns TOTP off: the current password (902) and a code or recovery code (907 `code`). */
  async disable(
    caller: Caller,
    input: { currentPassword: string } & FactorProof,
    client: ClientInfo,
  ): Promise<Outcome<object>> {
    const factors = this.accounts.factors;
    if (!(await factors.isEnabled(caller.userId))) return fail.conflict('not_enabled');
    const checked = await this.checkPassword(caller, input.currentPassword, client, 'totp_disable');
    if (checked) return checked;
    const spent = await this.accounts.spendFailure(caller.email, client.ip);
    if (spent) return spent;
    const off = await runInTransaction(this.db, async (trx) => {
      const method = await factors.spend(caller.userId, input, trx);
      if (!method) return fail.invalidInput(input.code !== undefined ? 'code' : 'recoveryCode', 'invalid');
      await factors.remove(caller.userId, trx);
      await this.accounts.securityLog.write(
        {
          userId: caller.userId,
          kind: 'totp_disabled',
          ip: client.ip,
          userAgent: client.userAgent,
          detail: { method },
        },
        trx,
      );
      await this.accounts.forgiveFailure(caller.email, client.ip);
      return {};
    });
    if (!(off instanceof Failure)) {
      await this.accounts.markProof(caller);
      await this.notify(caller, 'totp_disabled');
    }
    return off;
  }

  /**
   * Replaces the caller's recovery codes with new ones, answered once (912 `not_enabled` when the
   * second factor is off). The route asks for a recent step-up; the owner is told by mail.
   */
  async renewRecoveryCodes(caller: Caller, client: ClientInfo): Promise<Outcome<{ recoveryCodes: string[] }>> {
    const renewed = await this.accounts.factors.renewRecoveryCodes(caller.userId, {
      ip: client.ip,
      userAgent: client.userAgent,
    });
    if (!(renewed instanceof Failure)) await this.notify(caller, 'recovery_codes_renewed');
    return renewed;
  }

  /**
   * An administrator turns a user's second factor off (a lost phone and lost recovery codes). Logged
   * with the administrator as actor; the user is told by mail after the answer.
   */
  async resetByAdmin(admin: Caller, userId: string, client: ClientInfo): Promise<Outcome<{ reset: boolean }>> {
    const row = await this.accounts.repo.findUserById(userId);
    if (!row) return fail.notFound('userId');
    const reset = await runInTransaction(this.db, async (trx) => {
      const was = await this.accounts.factors.remove(userId, trx);
      if (was) {
        await this.accounts.securityLog.write(
          {
            userId,
            kind: 'second_factor_reset_by_admin',
            ip: client.ip,
            userAgent: client.userAgent,
            actorId: admin.userId,
          },
          trx,
        );
      }
      return was;
    });
    if (reset instanceof Failure) return reset;
    if (reset) this.accounts.afterAnswer(() => this.accounts.sendMail(row, 'second_factor_reset', row.email, {}));
    return { reset };
  }

  /** Tells the owner of a change to the second factor (see `notifyChange`). */
  private async notify(
    caller: Caller,
    change: 'totp_enabled' | 'totp_disabled' | 'recovery_codes_renewed',
  ): Promise<void> {
    const row = await this.accounts.repo.findUserById(caller.userId);
    if (row) this.accounts.notifyChange(row, change);
  }

  /** The caller's current password, checked under the login's budgets (see `checkCurrentPassword`). */
  private async checkPassword(
    caller: Caller,
    password: string,
    client: ClientInfo,
    purpose: PasswordCheckPurpose,
  ): Promise<Failure | undefined> {
    const row = await this.accounts.repo.findUserById(caller.userId);
    if (!row) return fail.invalidToken();
    return this.accounts.checkCurrentPassword(row, password, client, purpose);
  }
}
