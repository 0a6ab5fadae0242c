import { randomUUID } from 'node:crypto';
import { Code, Level } from '@till/protocol';
import { isUniqueViolation, iso } from '../../db/rows.js';
import { inTransaction } from '../../db/transaction.js';
import { fail, Failure, type Outcome } from '../../errors.js';
import { isCommonPassword } from '../../security/passwords.js';
import { deviceTokenFor, knownDevice } from './device-tokens.js';
import { describeDevice, rememberDevice } from './devices.js';
import type { UserRow } from './repo.js';
import type { FactorProof, ProofMethod } from './second-factor.js';
import { type ClientInfo, type IssuedSession, type KnownDevice, CONFIRM_LINK_TTL_MS } from './accounts-types.js';
import { AccountsPart, type AccountsCore } from './accounts-core.js';
import type { FailureBudgets } from './failure-budgets.js';

/** "Firefox on Linux", for a mail: the browser and system, never the whole user agent. */
function describeClient(userAgent: string | null): string {
  const { browser, os } = userAgent ? describeDevice(userAgent) : { browser: null, os: null };
  return [browser ?? 'an unknown browser', os].filter(Boolean).join(' / ');
}

/** Registration, login and its second step, and what a sign-in leaves behind (a device, a log line). */
export class SignInFlows extends AccountsPart {
  constructor(
    core: AccountsCore,
    private readonly budgets: FailureBudgets,
  ) {
    super(core);
  }

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
      created_at: now,
      updated_at: now,
    };
    // The account, its confirmation link, its first device and its session commit together: one
    // commit instead of four, and no account left half made when one of them fails.
    let made: { session: IssuedSession; link: string };
    try {
      made = await inTransaction(this.deps.db, async (trx) => {
        await this.repo.insertUser(row, trx);
        await this.core.openBalance(trx, row.id);
        const link = await this.core.newLink(row, 'confirm', CONFIRM_LINK_TTL_MS, undefined, trx);
        // The device the account was made on is its first known one: no notice for it.
        await rememberDevice(trx, row.id, client.ip, client.userAgent, now);
        // A new account's balance is 0: no need to ask for it.
        return { session: await this.core.issueSession(row, client, trx, 0), link };
      });
    } catch (error) {
      // Two registrations of one address racing: the unique index lets only one in.
      if (isUniqueViolation(error, 'users', 'email')) return fail.invalidInput('email', 'taken');
      throw error;
    }
    await this.core.sendMail(row, 'confirm', email, { link: made.link });
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
    const spent = await this.budgets.spendFailure(email, client.ip, device?.hash);
    if (spent) return spent;
    const row = await this.repo.findUserByEmail(email);
    const ok = await this.passwords.verify(row?.password_hash, input.password);
    if (!row || !ok) {
      // Written after the answer, so that a known address answers in the time of an unknown one.
      if (row) {
        this.core.afterAnswer(() =>
          this.securityLog.write({ userId: row.id, kind: 'signin_failed', ...client, detail: { method: 'password' } }),
        );
      }
      return fail.wrongCredentials();
    }
    // A hash made with earlier settings moves to the current ones once its password is proven, after
    // the answer so that the sign-in waits for one hash, not two.
    if (this.passwords.needsRehash(row.password_hash)) this.core.afterAnswer(() => this.rehash(row, input.password));
    if (await this.factors.isEnabled(row.id)) {
      // A right password is no failure, so its point comes back; but the failures counted so far
      // stay until a code is right too: signing in with the password again must not wipe the count
      // of wrong codes.
      await this.budgets.forgiveFailure(email, client.ip, 'one', device?.hash);
      const { challenge, expire } = await this.factors.newChallenge(row.id);
      return fail.secondFactorRequired(challenge, expire);
    }
    await this.budgets.forgiveFailure(email, client.ip, 'all', device?.hash);
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
    const spent = await this.budgets.spendFailure(row.email, client.ip, device?.hash);
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
    await this.budgets.forgiveFailure(row.email, client.ip, 'all', device?.hash);
    if (method === 'recovery_code') {
      await this.securityLog.write({ userId, kind: 'recovery_code_used', ...client });
      this.core.notifyChange(row, 'recovery_code_used');
    }
    return this.signIn(row, client, method, device);
  }

  /**
   * A sign-in a provider vouched for (social sign-in): the second factor still applies (913), as
   * after a right password; otherwise the same session, log line and device handling as a login.
   */
  async signInVouched(
    row: UserRow,
    client: ClientInfo,
    provider: string,
    deviceToken: string | undefined,
  ): Promise<Outcome<IssuedSession>> {
    const device = await this.knownDevice(deviceToken, row.email);
    if (await this.factors.isEnabled(row.id)) {
      const { challenge, expire } = await this.factors.newChallenge(row.id);
      return fail.secondFactorRequired(challenge, expire);
    }
    return this.signIn(row, client, 'social', device, provider);
  }

  /** A session for a user who proved who they are; logged, and a new device is told of by mail. */
  private async signIn(
    row: UserRow,
    client: ClientInfo,
    method: ProofMethod | 'password' | 'social',
    device: KnownDevice,
    provider?: string,
  ): Promise<IssuedSession> {
    // The session, its log line and the device token commit together: one commit, and no session
    // without its line.
    const session = await inTransaction(this.deps.db, async (trx) => {
      const issued = await this.core.issueSession(row, client, trx);
      await this.securityLog.write(
        provider
          ? { userId: row.id, kind: 'social_signin', ...client, detail: { provider } }
          : { userId: row.id, kind: 'signin', ...client, detail: { method } },
        trx,
      );
      return { ...issued, deviceToken: await deviceTokenFor(trx, row.id, device, this.now()) };
    });
    this.noticeNewDevice(row, client);
    return session;
  }

  /** Stores the password hashed with the current settings, unless it changed since `row` was read. */
  private async rehash(row: UserRow, password: string): Promise<void> {
    await this.repo.replacePasswordHash(row.id, row.password_hash, await this.passwords.hash(password));
  }

  /** Remembers the device of a sign-in; one not seen before is told of by mail, after the answer. */
  noticeNewDevice(row: UserRow, client: ClientInfo): void {
    const at = this.now();
    this.core.afterAnswer(async () => {
      if (!(await rememberDevice(this.deps.db, row.id, client.ip, client.userAgent, at))) return;
      await this.core.sendMail(row, 'new_device', row.email, {
        device: describeClient(client.userAgent),
        ip: client.ip,
        at: iso(at).replace('T', ' ').slice(0, 16) + ' UTC',
      });
    });
  }
}
