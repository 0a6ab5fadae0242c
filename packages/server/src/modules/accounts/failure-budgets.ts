import { fail, type Failure } from '../../errors.js';
import type { UserRow } from './repo.js';
import type { PasswordCheckPurpose, ClientInfo } from './accounts-types.js';
import { AccountsPart } from './accounts-core.js';

/** The login's failure budgets, spent before a password or code is checked and given back when it was right. */
export class FailureBudgets extends AccountsPart {
  /**
   * Spends a failure point of the account and address, and one of the account, before a password
   * or code is checked: guesses sent at once cannot all pass the check and be counted only
   * afterwards, so at most the budget is ever checked. {@link forgiveFailure} gives the points back
   * once the proof was right.
   */
  async spendFailure(email: string, ip: string, device?: string): Promise<Failure | undefined> {
    const { loginFailuresFromIp, loginFailures, loginFailuresFromDevice } = this.deps.limiters;
    // Failures count per account and address (a guesser is stopped) and, with a higher budget, per
    // account (guessing from many addresses is bounded without one guesser locking the owner out).
    // Unknown addresses count too, so that the answer does not tell which ones exist. A device that
    // signed in before spends a budget of its own instead of the account's: guesses from elsewhere
    // spend the account's budget, and the owner's known devices still get in.
    const pair = `${email}|${ip}`;
    const pairWait = await loginFailuresFromIp.hit(pair);
    if (pairWait) return fail.rateLimited(pairWait);
    const accountWait = device ? await loginFailuresFromDevice.hit(device) : await loginFailures.hit(email);
    if (accountWait) {
      await loginFailuresFromIp.refund(pair);
      return fail.rateLimited(accountWait);
    }
    return undefined;
  }

  /**
   * Gives back what {@link spendFailure} spent, after a right password or code: after a completed
   * sign-in the address's count starts again (`all`), after a right password that still needs its
   * code only this attempt's point comes back (`one`).
   */
  async forgiveFailure(email: string, ip: string, what: 'all' | 'one' = 'all', device?: string): Promise<void> {
    const { loginFailuresFromIp, loginFailures, loginFailuresFromDevice } = this.deps.limiters;
    const pair = `${email}|${ip}`;
    await Promise.all([
      what === 'all' ? loginFailuresFromIp.reset(pair) : loginFailuresFromIp.refund(pair),
      device ? loginFailuresFromDevice.refund(device) : loginFailures.refund(email),
    ]);
  }

  /**
   * Checks a signed-in user's password for a call other than sign-in (a profile change, the second
   * factor, deletion). It spends the login's failure budgets before the check and gives this
   * attempt's point back when right, and a wrong one is logged: a session token alone must not let
   * anyone guess the password past the login's budget, nor make the server hash without limit.
   */
  async checkCurrentPassword(
    row: Pick<UserRow, 'id' | 'email' | 'password_hash'>,
    password: string,
    client: ClientInfo,
    purpose: PasswordCheckPurpose,
  ): Promise<Failure | undefined> {
    const spent = await this.spendFailure(row.email, client.ip);
    if (spent) return spent;
    if (!(await this.passwords.verify(row.password_hash, password))) {
      await this.securityLog.write({ userId: row.id, kind: 'password_check_failed', ...client, detail: { purpose } });
      return fail.wrongCredentials();
    }
    await this.forgiveFailure(row.email, client.ip, 'one');
    return undefined;
  }
}
