import type { Kysely } from 'kysely';
import type { User } from '@till/protocol';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { fail, Failure, type Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import { isCommonPassword, type PasswordHasher } from '../../security/passwords.js';
import type { AccountsRepo } from './repo.js';
import type { SecondFactor } from './second-factor.js';
import type { SecurityLog } from './security-log.js';
import {
  type AccountLimiters,
  type AccountsDeps,
  type ClientInfo,
  LOADED,
  type LoadedCaller,
  CONFIRM_LINK_TTL_MS,
} from './accounts-types.js';
import { AccountsCore } from './accounts-core.js';
import { FailureBudgets } from './failure-budgets.js';
import { SessionFlows } from './sessions.js';
import { SignInFlows } from './sign-in.js';
import { LinkFlows } from './links.js';

export {
  CONFIRM_LINK_TTL_MS,
  RESET_LINK_TTL_MS,
  STEP_UP_TTL_S,
  TOUCH_INTERVAL_MS,
  type AccountLimiters,
  type AccountsDeps,
  type Avatars,
  type ClientInfo,
  type IssuedSession,
  type PasswordCheckPurpose,
} from './accounts-types.js';

/**
 * The accounts module's service: registration and sign-in, links, profile and sessions, each in a
 * file of its own (see the fields), behind the one surface the routes and other modules use.
 */
export class AccountsService {
  readonly repo: AccountsRepo;
  readonly securityLog: SecurityLog;
  readonly factors: SecondFactor;
  readonly now: () => number;
  readonly passwords: PasswordHasher;
  private readonly core: AccountsCore;
  private readonly budgets: FailureBudgets;
  private readonly sessions: SessionFlows;
  private readonly signIns: SignInFlows;
  private readonly links: LinkFlows;

  constructor(private readonly deps: AccountsDeps) {
    const core = new AccountsCore(deps);
    this.core = core;
    this.repo = core.repo;
    this.securityLog = core.securityLog;
    this.factors = core.factors;
    this.now = core.now;
    this.passwords = core.passwords;
    this.budgets = new FailureBudgets(core);
    this.sessions = new SessionFlows(core, this.budgets);
    this.signIns = new SignInFlows(core, this.budgets);
    this.links = new LinkFlows(core);
  }

  /** The account calls' budgets (passkey sign-in and deletion spend the login's). */
  get limiters(): AccountLimiters {
    return this.core.limiters;
  }

  get db(): Kysely<Database> {
    return this.core.db;
  }

  /** getUserInfo's text for each session row read (see {@link getUserText}); gone with the row. */
  private readonly userTexts = new WeakMap<object, string>();

  /** The caller's account, as read with their session when the request was authenticated. */
  async getUser(caller: Caller): Promise<Outcome<User>> {
    const loaded = (caller as LoadedCaller)[LOADED];
    if (!loaded) {
      const row = await this.repo.findUserById(caller.userId);
      return row ? this.toUser(row) : fail.invalidToken();
    }
    // A session kept from before a change of balances: the rest of the row is current, its balance
    // is read again.
    if (loaded.stale_credits) {
      const credits = await this.repo.findBalance(loaded.id);
      return credits === undefined ? fail.invalidToken() : this.toUser({ ...loaded, credits });
    }
    return this.toUser(loaded);
  }

  /**
   * The caller's account as JSON text (`{"user":...}`), for getUserInfo. A session kept between commits
   * (SQLite) is the same frozen row on every call until a commit changes its user or session (see
   * `AccountsRepo.findSession`), so its text is made once and answered again, not built and serialized
   * on every call; a kept session with a stale balance reads its balance and is written out afresh.
   */
  async getUserText(caller: Caller): Promise<Outcome<string>> {
    const loaded = (caller as LoadedCaller)[LOADED];
    if (!loaded || loaded.stale_credits) {
      const user = await this.getUser(caller);
      return user instanceof Failure ? user : JSON.stringify({ user });
    }
    // Where nothing is kept (PostgreSQL), every call reads a row of its own: nothing to answer again.
    if (!this.deps.version) return JSON.stringify({ user: this.toUser(loaded) });
    let text = this.userTexts.get(loaded);
    if (text === undefined) {
      text = JSON.stringify({ user: this.toUser(loaded) });
      this.userTexts.set(loaded, text);
    }
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
        const missing = await this.recentProof(caller);
        if (missing) return missing;
      }
      const checked = await this.checkCurrentPassword(row, input.currentPassword, client, 'profile');
      if (checked) return checked;
      if (!factor) await this.markProof(caller);
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
        const link = await this.newLink(updated, 'email_change_confirm', CONFIRM_LINK_TTL_MS, newEmail, trx);
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
    if (input.password !== undefined) this.notifyChange(row, 'password_changed');
    if (emailChange && emailLink) {
      await this.sendMail(updated, 'email_change_confirm', newEmail, { link: emailLink });
      await this.sendMail(updated, 'email_change_notice', row.email, { newEmail });
    }
    return this.toUser((await this.repo.findUserById(row.id)) ?? updated);
  }

  levelOf(...args: Parameters<AccountsCore['levelOf']>): ReturnType<AccountsCore['levelOf']> {
    return this.core.levelOf(...args);
  }

  toUser(...args: Parameters<AccountsCore['toUser']>): ReturnType<AccountsCore['toUser']> {
    return this.core.toUser(...args);
  }

  register(...args: Parameters<SignInFlows['register']>): ReturnType<SignInFlows['register']> {
    return this.signIns.register(...args);
  }

  login(...args: Parameters<SignInFlows['login']>): ReturnType<SignInFlows['login']> {
    return this.signIns.login(...args);
  }

  loginSecondFactor(
    ...args: Parameters<SignInFlows['loginSecondFactor']>
  ): ReturnType<SignInFlows['loginSecondFactor']> {
    return this.signIns.loginSecondFactor(...args);
  }

  spendFailure(...args: Parameters<FailureBudgets['spendFailure']>): ReturnType<FailureBudgets['spendFailure']> {
    return this.budgets.spendFailure(...args);
  }

  forgiveFailure(...args: Parameters<FailureBudgets['forgiveFailure']>): ReturnType<FailureBudgets['forgiveFailure']> {
    return this.budgets.forgiveFailure(...args);
  }

  checkCurrentPassword(
    ...args: Parameters<FailureBudgets['checkCurrentPassword']>
  ): ReturnType<FailureBudgets['checkCurrentPassword']> {
    return this.budgets.checkCurrentPassword(...args);
  }

  stepUp(...args: Parameters<SessionFlows['stepUp']>): ReturnType<SessionFlows['stepUp']> {
    return this.sessions.stepUp(...args);
  }

  markProof(...args: Parameters<SessionFlows['markProof']>): ReturnType<SessionFlows['markProof']> {
    return this.sessions.markProof(...args);
  }

  recentProof(...args: Parameters<SessionFlows['recentProof']>): ReturnType<SessionFlows['recentProof']> {
    return this.sessions.recentProof(...args);
  }

  noticeNewDevice(...args: Parameters<SignInFlows['noticeNewDevice']>): ReturnType<SignInFlows['noticeNewDevice']> {
    return this.signIns.noticeNewDevice(...args);
  }

  authenticate(...args: Parameters<SessionFlows['authenticate']>): ReturnType<SessionFlows['authenticate']> {
    return this.sessions.authenticate(...args);
  }

  genResetLink(...args: Parameters<LinkFlows['genResetLink']>): ReturnType<LinkFlows['genResetLink']> {
    return this.links.genResetLink(...args);
  }

  notifyChange(...args: Parameters<AccountsCore['notifyChange']>): ReturnType<AccountsCore['notifyChange']> {
    return this.core.notifyChange(...args);
  }

  mailAfterAnswer(...args: Parameters<AccountsCore['mailAfterAnswer']>): ReturnType<AccountsCore['mailAfterAnswer']> {
    return this.core.mailAfterAnswer(...args);
  }

  afterAnswer(...args: Parameters<AccountsCore['afterAnswer']>): ReturnType<AccountsCore['afterAnswer']> {
    return this.core.afterAnswer(...args);
  }

  settle(...args: Parameters<AccountsCore['settle']>): ReturnType<AccountsCore['settle']> {
    return this.core.settle(...args);
  }

  resetPassword(...args: Parameters<LinkFlows['resetPassword']>): ReturnType<LinkFlows['resetPassword']> {
    return this.links.resetPassword(...args);
  }

  confirmUser(...args: Parameters<LinkFlows['confirmUser']>): ReturnType<LinkFlows['confirmUser']> {
    return this.links.confirmUser(...args);
  }

  logout(...args: Parameters<SessionFlows['logout']>): ReturnType<SessionFlows['logout']> {
    return this.sessions.logout(...args);
  }

  listSessions(...args: Parameters<SessionFlows['listSessions']>): ReturnType<SessionFlows['listSessions']> {
    return this.sessions.listSessions(...args);
  }

  idleCutoff(...args: Parameters<SessionFlows['idleCutoff']>): ReturnType<SessionFlows['idleCutoff']> {
    return this.sessions.idleCutoff(...args);
  }

  revokeOtherSessions(
    ...args: Parameters<SessionFlows['revokeOtherSessions']>
  ): ReturnType<SessionFlows['revokeOtherSessions']> {
    return this.sessions.revokeOtherSessions(...args);
  }

  resendConfirmation(
    ...args: Parameters<LinkFlows['resendConfirmation']>
  ): ReturnType<LinkFlows['resendConfirmation']> {
    return this.links.resendConfirmation(...args);
  }

  issueSession(...args: Parameters<AccountsCore['issueSession']>): ReturnType<AccountsCore['issueSession']> {
    return this.core.issueSession(...args);
  }

  private newLink(...args: Parameters<AccountsCore['newLink']>): ReturnType<AccountsCore['newLink']> {
    return this.core.newLink(...args);
  }

  sendMail(...args: Parameters<AccountsCore['sendMail']>): ReturnType<AccountsCore['sendMail']> {
    return this.core.sendMail(...args);
  }
}
