import type { User } from '@till/protocol';
import { inTransaction } from '../../db/transaction.js';
import { fail, Failure, type Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import { isCommonPassword } from '../../security/passwords.js';
import type { AccountsRepo } from './repo.js';
import { type ClientInfo, LOADED, type LoadedCaller, CONFIRM_LINK_TTL_MS } from './accounts-types.js';
import { AccountsPart, type AccountsCore } from './accounts-core.js';
import type { FailureBudgets } from './failure-budgets.js';
import type { SessionFlows } from './sessions.js';

/** The signed-in user's own account: reading it and changing it. */
export class ProfileFlows extends AccountsPart {
  /** getUserInfo's text for each session row read (see {@link getUserText}); gone with the row. */
  private readonly userTexts = new WeakMap<object, { credits: number; text: string }>();

  constructor(
    core: AccountsCore,
    private readonly budgets: FailureBudgets,
    private readonly sessions: SessionFlows,
  ) {
    super(core);
  }

  /** The caller's account, as read with their session when the request was authenticated, with their balance. */
  async getUser(caller: Caller): Promise<Outcome<User>> {
    const loaded = (caller as LoadedCaller)[LOADED];
    const row = loaded ?? (await this.repo.findUserById(caller.userId));
    return row ? this.core.toUser(row, await this.core.balanceOf(row.id)) : fail.invalidToken();
  }

  /**
   * The caller's account as JSON text (`{"user":...}`), for getUserInfo. A session kept between commits
   * (SQLite) is the same frozen row on every call until a commit changes its user or session (see
   * `AccountsRepo.findSession`), and the store keeps its balance until a commit changes balances, so
   * its text is made once and answered again while the balance is the one it was made with, not built
   * and serialized on every call.
   */
  async getUserText(caller: Caller): Promise<Outcome<string>> {
    const loaded = (caller as LoadedCaller)[LOADED];
    // Where nothing is kept (PostgreSQL), every call reads a row of its own: nothing to answer again.
    if (!loaded || !this.deps.version) {
      const user = await this.getUser(caller);
      return user instanceof Failure ? user : JSON.stringify({ user });
    }
    const balance = this.core.balanceOf(loaded.id);
    const credits = typeof balance === 'number' ? balance : await balance;
    const kept = this.userTexts.get(loaded);
    if (kept?.credits === credits) return kept.text;
    const text = JSON.stringify({ user: this.core.toUser(loaded, credits) });
    this.userTexts.set(loaded, { credits, text });
    return text;
  }

  async updateInfo(
    caller: Caller,
    client: ClientInfo,
    input: {
      name?: string | undefined;
      lang?: string | undefined;
      email?: string | undefined;
      password?: string | undefined;
      currentPassword?: string | undefined;
      avatarFileId?: string | null | undefined;
    },
  ): Promise<Outcome<User>> {
    const row = await this.repo.findUserById(caller.userId);
    if (!row) return fail.invalidToken();
    const newEmail = input.email?.toLowerCase();
    const emailChange = newEmail !== undefined && newEmail !== row.email;
    if (emailChange || input.password !== undefined) {
      if (!input.currentPassword) return fail.invalidInput('currentPassword', 'required');
      // With a second factor on, the password alone does not prove the owner: the session must have
      // proven both recently (api/auth/stepUp).
      const factor = await this.factors.isEnabled(row.id);
      if (factor) {
        const missing = await this.sessions.recentProof(caller);
        if (missing) return missing;
      }
      const checked = await this.budgets.checkCurrentPassword(row, input.currentPassword, client, 'profile');
      if (checked) return checked;
      if (!factor) await this.sessions.markProof(caller);
    }
    const changes: Parameters<AccountsRepo['updateUser']>[1] = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.lang !== undefined) changes.lang = input.lang;
    if (input.password !== undefined) {
      if (await isCommonPassword(input.password)) return fail.invalidInput('password', 'weak');
      changes.password_hash = await this.passwords.hash(input.password);
    }
    if (emailChange) {
      const owner = await this.repo.findUserByEmail(newEmail);
      if (owner) return fail.invalidInput('email', 'taken');
      const wait = await this.deps.limiters.mailPerAddress.hit(newEmail);
      if (wait) return fail.rateLimited(wait);
      changes.pending_email = newEmail;
    }
    if (input.avatarFileId !== undefined) {
      if (input.avatarFileId === null) {
        changes.avatar_file_id = null;
        changes.avatar_key = null;
      } else {
        if (!this.deps.avatars) return fail.notFound('avatarFileId');
        const key = await this.deps.avatars.make(row.id, input.avatarFileId);
        if (key instanceof Failure) return key;
        changes.avatar_file_id = input.avatarFileId;
        changes.avatar_key = key;
      }
    }
    const updated = { ...row, ...changes };
    // The row, the sessions and links the change ends, its log lines and the new e-mail link commit
    // together: a failure part way must not leave, say, a new password with the old sessions still
    // signed in, or a pending address without its link. Mails go only once all of it stands.
    let emailLink: string | undefined;
    try {
      emailLink = await inTransaction(this.deps.db, async (trx) => {
        if (Object.keys(changes).length) await this.repo.updateUser(row.id, changes, trx);
        if (input.password !== undefined) {
          await this.repo.deleteOtherSessions(row.id, caller.sessionId, trx);
          // A reset link mailed before the change must not undo it.
          await this.repo.voidLinkTokens(row.id, 'reset', this.now(), trx);
          await this.securityLog.write({ userId: row.id, kind: 'password_changed', ...client }, trx);
        }
        if (!emailChange) return undefined;
        await this.repo.voidLinkTokens(row.id, 'email_change', this.now(), trx);
        const link = await this.core.newLink(updated, 'email_change_confirm', CONFIRM_LINK_TTL_MS, newEmail, trx);
        await this.securityLog.write(
          { userId: row.id, kind: 'email_change_requested', ...client, detail: { to: newEmail } },
          trx,
        );
        return link;
      });
    } catch (error) {
      // The avatar copy made for this change belongs to no row now.
      if (changes.avatar_key) await this.deps.avatars?.remove(changes.avatar_key);
      throw error;
    }
    // A removed avatar's copy goes once the row no longer points at it.
    if (input.avatarFileId === null && row.avatar_key) await this.deps.avatars?.remove(row.avatar_key);
    if (input.password !== undefined) this.core.notifyChange(row, 'password_changed');
    if (emailChange && emailLink) {
      await this.core.sendMail(updated, 'email_change_confirm', newEmail, { link: emailLink });
      await this.core.sendMail(updated, 'email_change_notice', row.email, { newEmail });
    }
    return this.core.toUser((await this.repo.findUserById(row.id)) ?? updated, await this.core.balanceOf(row.id));
  }
}
