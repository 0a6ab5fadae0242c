import { Level } from '@till/protocol';
import { isUniqueViolation } from '../../db/rows.js';
import { fail, type Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import { isCommonPassword } from '../../security/passwords.js';
import { hashToken } from '../../security/tokens.js';
import { forgetDeviceTokens } from './device-tokens.js';
import { type ClientInfo, RESET_LINK_TTL_MS, CONFIRM_LINK_TTL_MS } from './accounts-types.js';
import { AccountsPart } from './accounts-core.js';

/** The mailed links: password reset, address confirmation (also of a new address), and resending. */
export class LinkFlows extends AccountsPart {
  async genResetLink(
    input: { email: string; lang?: string | undefined },
    client: ClientInfo,
  ): Promise<Outcome<object>> {
    const email = input.email.toLowerCase();
    const wait =
      (await this.deps.limiters.mailPerIp.hit(client.ip)) || (await this.deps.limiters.mailPerAddress.hit(email));
    if (wait) return fail.rateLimited(wait);
    const row = await this.repo.findUserByEmail(email);
    // The answer is the same whether or not the address has an account, and so is its time: the
    // link is made and mailed after the answer, so that a slow mail server cannot tell who has one.
    if (row && row.deleted_at == null) {
      this.core.afterAnswer(async () => {
        await this.securityLog.write({ userId: row.id, kind: 'password_reset_requested', ...client });
        await this.repo.voidLinkTokens(row.id, 'reset', this.now());
        // In the language the account keeps (chosen at registration, in the app's bar or on the
        // profile): the mail is for the account's owner, not for whichever interface asked for it.
        await this.core.sendLink(row, 'reset', email, RESET_LINK_TTL_MS);
      });
    }
    return {};
  }

  /**
   * Sets a new password with a mailed token. Hashing a password is the costly step, so it comes
   * last: the tries are counted per client address and per token first (one atomic spend each),
   * then the token must be live, and only then is the password hashed. A loop of unknown tokens,
   * or of one token, makes the server hash nothing or at most the token's budget.
   */
  async resetPassword(token: string, password: string, client: ClientInfo): Promise<Outcome<object>> {
    const hash = hashToken(token);
    const wait =
      (await this.deps.limiters.resetPerIp.hit(client.ip)) || (await this.deps.limiters.resetPerToken.hit(hash));
    if (wait) return fail.rateLimited(wait);
    if (!(await this.repo.findLiveLinkToken(hash, 'reset', this.now()))) return fail.badLinkToken();
    if (await isCommonPassword(password)) return fail.invalidInput('password', 'weak');
    const passwordHash = await this.passwords.hash(password);
    const link = await this.repo.consumeLinkToken(hash, 'reset', this.now());
    if (!link) return fail.badLinkToken();
    // A mailed link proves the address, so a reset also confirms it.
    await this.repo.updateUser(link.user_id, { password_hash: passwordHash, email_confirmed: 1 });
    await this.repo.deleteOtherSessions(link.user_id, null);
    // A reset says the account may be in someone else's hands, and a passkey is a way in of its own
    // that the new password would not close: every passkey goes, and the owner adds theirs again.
    const passkeys = await this.deps.db.deleteFrom('passkeys').where('user_id', '=', link.user_id).executeTakeFirst();
    // A reset says the password may be known to someone else, who may have signed in with it: no
    // device keeps a failure budget of its own until it signs in with the new one.
    await forgetDeviceTokens(this.deps.db, link.user_id);
    await this.securityLog.write({
      userId: link.user_id,
      kind: 'password_reset',
      ...client,
      detail: { passkeysRemoved: Number(passkeys.numDeletedRows) },
    });
    return {};
  }

  async confirmUser(token: string, client: ClientInfo): Promise<Outcome<object>> {
    const hash = hashToken(token);
    const wait =
      (await this.deps.limiters.confirmPerIp.hit(client.ip)) || (await this.deps.limiters.confirmPerToken.hit(hash));
    if (wait) return fail.rateLimited(wait);
    const now = this.now();
    const link =
      (await this.repo.consumeLinkToken(hash, 'confirm', now)) ??
      (await this.repo.consumeLinkToken(hash, 'email_change', now));
    if (!link) return fail.badLinkToken();
    const row = await this.repo.findUserById(link.user_id);
    if (!row) return fail.badLinkToken();
    if (link.kind === 'email_change' && link.new_email) {
      if (row.pending_email !== link.new_email) return fail.badLinkToken();
      const owner = await this.repo.findUserByEmail(link.new_email);
      if (owner && owner.id !== row.id) return fail.invalidInput('email', 'taken');
      try {
        await this.repo.updateUser(row.id, { email: link.new_email, pending_email: null, email_confirmed: 1 });
      } catch (error) {
        // The address registered by somebody else since the read above.
        if (isUniqueViolation(error, 'users', 'email')) return fail.invalidInput('email', 'taken');
        throw error;
      }
      // Reset links went to the old address: whoever still reads it must not take the account back.
      await this.repo.voidLinkTokens(row.id, 'reset', now);
      await this.securityLog.write({
        userId: row.id,
        kind: 'email_changed',
        ...client,
        detail: { from: row.email, to: link.new_email },
      });
      this.core.notifyChange(row, 'email_changed', { newEmail: link.new_email });
    } else {
      await this.repo.updateUser(row.id, { email_confirmed: 1, level: Math.max(row.level, Level.Confirmed) });
    }
    return {};
  }

  /**
   * Mails the confirmation link again to a user not confirmed yet (the older links stop working),
   * under the same mail limits as reset links; answers 912 `confirmed` when there is nothing to
   * confirm.
   */
  async resendConfirmation(caller: Caller, client: ClientInfo): Promise<Outcome<object>> {
    const row = await this.repo.findUserById(caller.userId);
    if (!row) return fail.invalidToken();
    if (row.email_confirmed) return fail.conflict('confirmed');
    const wait =
      (await this.deps.limiters.mailPerIp.hit(client.ip)) || (await this.deps.limiters.mailPerAddress.hit(row.email));
    if (wait) return fail.rateLimited(wait);
    await this.repo.voidLinkTokens(row.id, 'confirm', this.now());
    await this.core.sendLink(row, 'confirm', row.email, CONFIRM_LINK_TTL_MS);
    return {};
  }
}
