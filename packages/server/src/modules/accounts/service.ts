import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Code, Level, type User } from '@till/protocol';
import { iso } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { fail, Failure, type Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import { isCommonPassword, type PasswordHasher } from '../../security/passwords.js';
import { hashToken } from '../../security/tokens.js';
import { deviceTokenFor, forgetDeviceTokens, knownDevice } from './device-tokens.js';
import { describeDevice, rememberDevice } from './devices.js';
import type { AccountsRepo } from './repo.js';
import { type UserRow } from './repo.js';
import type { SecondFactor } from './second-factor.js';
import { type FactorProof, type ProofMethod } from './second-factor.js';
import type { SecurityLog } from './security-log.js';
import {
  type AccountLimiters,
  type AccountsDeps,
  type ClientInfo,
  type IssuedSession,
  type KnownDevice,
  LOADED,
  type LoadedCaller,
  RESET_LINK_TTL_MS,
  CONFIRM_LINK_TTL_MS,
} from './accounts-types.js';
import { AccountsCore } from './accounts-core.js';
import { FailureBudgets } from './failure-budgets.js';
import { SessionFlows } from './sessions.js';

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

/** "Firefox on Linux", for a mail: the browser and system, never the whole user agent. */
function describeClient(userAgent: string | null): string {
  const { browser, os } = userAgent ? describeDevice(userAgent) : { browser: null, os: null };
  return [browser ?? 'an unknown browser', os].filter(Boolean).join(' / ');
}

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

  async register(
    input: { email: string; password: string; name: string; lang?: string | undefined },
    client: ClientInfo,
  ): Promise<Outcome<IssuedSession>> {
    const wait = await this.deps.limiters.registerPerIp.hit(client.ip);
    if (wait) return fail.rateLimited(wait);
    if (await isCommonPassword(input.password)) return fail.invalidInput('password', 'weak');
    const email = input.email.toLowerCase();
    if (await this.repo.findUserByEmail(email)) return fail.invalidInput('email', 'taken');
    const now = this.now();
    const row: UserRow = {
      id: randomUUID(),
      email,
      name: input.name,
      lang: input.lang ?? 'en',
      level: Level.Registered,
      email_confirmed: 0,
      password_hash: await this.passwords.hash(input.password),
      pending_email: null,
      avatar_file_id: null,
      avatar_key: null,
      flagged_at: null,
      flag_reason: null,
      deleted_at: null,
      credits: 0,
      created_at: now,
      updated_at: now,
    };
    // The account, its confirmation link, its first device and its session commit together: one
    // commit instead of four, and no account left half made when one of them fails.
    let made: { session: IssuedSession; link: string };
    try {
      made = await inTransaction(this.deps.db, async (trx) => {
        await this.repo.insertUser(row, trx);
        const link = await this.newLink(row, 'confirm', CONFIRM_LINK_TTL_MS, undefined, trx);
        // The device the account was made on is its first known one: no notice for it.
        await rememberDevice(trx, row.id, client.ip, client.userAgent, now);
        return { session: await this.issueSession(row, client, trx), link };
      });
    } catch (error) {
      // Two registrations of one address racing: the unique index lets only one in.
      if (await this.repo.findUserByEmail(email)) return fail.invalidInput('email', 'taken');
      throw error;
    }
    await this.sendMail(row, 'confirm', email, { link: made.link });
    return made.session;
  }

  async login(
    input: { email: string; password: string; deviceToken?: string | undefined },
    client: ClientInfo,
  ): Promise<Outcome<IssuedSession>> {
    const email = input.email.toLowerCase();
    const ipWait = await this.deps.limiters.loginPerIp.hit(client.ip);
    if (ipWait) return fail.rateLimited(ipWait);
    const device = await this.knownDevice(input.deviceToken, email);
    const spent = await this.spendFailure(email, client.ip, device?.hash);
    if (spent) return spent;
    const row = await this.repo.findUserByEmail(email);
    const ok = await this.passwords.verify(row?.password_hash, input.password);
    if (!row || !ok) {
      // Written after the answer, so that a known address answers in the time of an unknown one.
      if (row) {
        this.afterAnswer(() =>
          this.securityLog.write({ userId: row.id, kind: 'signin_failed', ...client, detail: { method: 'password' } }),
        );
      }
      return fail.wrongCredentials();
    }
    // A hash made with earlier settings moves to the current ones once its password is proven, after
    // the answer so that the sign-in waits for one hash, not two.
    if (this.passwords.needsRehash(row.password_hash)) this.afterAnswer(() => this.rehash(row, input.password));
    if (await this.factors.isEnabled(row.id)) {
      // A right password is no failure, so its point comes back; but the failures counted so far
      // stay until a code is right too: signing in with the password again must not wipe the count
      // of wrong codes.
      await this.forgiveFailure(email, client.ip, 'one', device?.hash);
      const { challenge, expire } = await this.factors.newChallenge(row.id);
      return fail.secondFactorRequired(challenge, expire);
    }
    await this.forgiveFailure(email, client.ip, 'all', device?.hash);
    return this.signIn(row, client, 'password', device);
  }

  /** The device token a login carried, when it is live for that account (see `device-tokens.ts`). */
  private async knownDevice(token: string | undefined, email: string): Promise<KnownDevice> {
    const hash = await knownDevice(this.deps.db, token, email);
    return token && hash ? { token, hash } : undefined;
  }

  /**
   * The second step of a login with a second factor: the challenge from 913 with a code or a
   * recovery code. The tries spend the same failure budgets as passwords (per account and address,
   * and per account), reserved before the check as a login's are.
   */
  async loginSecondFactor(
    input: { challenge: string; deviceToken?: string | undefined } & FactorProof,
    client: ClientInfo,
  ): Promise<Outcome<IssuedSession>> {
    const ipWait = await this.deps.limiters.loginPerIp.hit(client.ip);
    if (ipWait) return fail.rateLimited(ipWait);
    const userId = await this.factors.tryChallenge(input.challenge);
    if (userId instanceof Failure) return userId;
    const row = await this.repo.findUserById(userId);
    if (!row) return fail.badLinkToken();
    const device = await this.knownDevice(input.deviceToken, row.email);
    const spent = await this.spendFailure(row.email, client.ip, device?.hash);
    if (spent) return spent;
    const method = await this.factors.complete(input.challenge, userId, input);
    if (method instanceof Failure) {
      if (method.body.code === Code.WrongCredentials) {
        await this.securityLog.write({
          userId,
          kind: 'signin_failed',
          ...client,
          detail: { method: input.code !== undefined ? 'totp' : 'recovery_code' },
        });
      }
      return method;
    }
    await this.forgiveFailure(row.email, client.ip, 'all', device?.hash);
    if (method === 'recovery_code') {
      await this.securityLog.write({ userId, kind: 'recovery_code_used', ...client });
      this.notifyChange(row, 'recovery_code_used');
    }
    return this.signIn(row, client, method, device);
  }

  /** A session for a user who proved who they are; logged, and a new device is told of by mail. */
  private async signIn(
    row: UserRow,
    client: ClientInfo,
    method: ProofMethod | 'password',
    device: KnownDevice,
  ): Promise<IssuedSession> {
    // The session, its log line and the device token commit together: one commit, and no session
    // without its line.
    const session = await inTransaction(this.deps.db, async (trx) => {
      const issued = await this.issueSession(row, client, trx);
      await this.securityLog.write({ userId: row.id, kind: 'signin', ...client, detail: { method } }, trx);
      return { ...issued, deviceToken: await deviceTokenFor(trx, row.id, device, this.now()) };
    });
    this.noticeNewDevice(row, client);
    return session;
  }

  /** Remembers the device of a sign-in; one not seen before is told of by mail, after the answer. */
  noticeNewDevice(row: UserRow, client: ClientInfo): void {
    const at = this.now();
    this.afterAnswer(async () => {
      if (!(await rememberDevice(this.deps.db, row.id, client.ip, client.userAgent, at))) return;
      await this.sendMail(row, 'new_device', row.email, {
        device: describeClient(client.userAgent),
        ip: client.ip,
        at: iso(at).replace('T', ' ').slice(0, 16) + ' UTC',
      });
    });
  }

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
      this.afterAnswer(async () => {
        await this.securityLog.write({ userId: row.id, kind: 'password_reset_requested', ...client });
        await this.repo.voidLinkTokens(row.id, 'reset', this.now());
        await this.sendLink({ ...row, lang: input.lang ?? row.lang }, 'reset', email, RESET_LINK_TTL_MS);
      });
    }
    return {};
  }

  /** Stores the password hashed with the current settings, unless it changed since `row` was read. */
  private async rehash(row: UserRow, password: string): Promise<void> {
    await this.repo.replacePasswordHash(row.id, row.password_hash, await this.passwords.hash(password));
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
      await this.repo.updateUser(row.id, { email: link.new_email, pending_email: null, email_confirmed: 1 });
      // Reset links went to the old address: whoever still reads it must not take the account back.
      await this.repo.voidLinkTokens(row.id, 'reset', now);
      await this.securityLog.write({
        userId: row.id,
        kind: 'email_changed',
        ...client,
        detail: { from: row.email, to: link.new_email },
      });
      this.notifyChange(row, 'email_changed', { newEmail: link.new_email });
    } else {
      await this.repo.updateUser(row.id, { email_confirmed: 1, level: Math.max(row.level, Level.Confirmed) });
    }
    return {};
  }

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
    await this.sendLink(row, 'confirm', row.email, CONFIRM_LINK_TTL_MS);
    return {};
  }

  levelOf(...args: Parameters<AccountsCore['levelOf']>): ReturnType<AccountsCore['levelOf']> {
    return this.core.levelOf(...args);
  }

  toUser(...args: Parameters<AccountsCore['toUser']>): ReturnType<AccountsCore['toUser']> {
    return this.core.toUser(...args);
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

  authenticate(...args: Parameters<SessionFlows['authenticate']>): ReturnType<SessionFlows['authenticate']> {
    return this.sessions.authenticate(...args);
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

  issueSession(...args: Parameters<AccountsCore['issueSession']>): ReturnType<AccountsCore['issueSession']> {
    return this.core.issueSession(...args);
  }

  private sendLink(...args: Parameters<AccountsCore['sendLink']>): ReturnType<AccountsCore['sendLink']> {
    return this.core.sendLink(...args);
  }

  private newLink(...args: Parameters<AccountsCore['newLink']>): ReturnType<AccountsCore['newLink']> {
    return this.core.newLink(...args);
  }

  sendMail(...args: Parameters<AccountsCore['sendMail']>): ReturnType<AccountsCore['sendMail']> {
    return this.core.sendMail(...args);
  }
}
