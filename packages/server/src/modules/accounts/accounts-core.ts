import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Level, type User } from '@till/protocol';
import { type Executor, iso } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';
import { renderMail, type MailKind, type MailValues, type SecurityChange } from '../../mail/templates.js';
import { standardHasher, type PasswordHasher } from '../../security/passwords.js';
import { hashToken, newToken } from '../../security/tokens.js';
import { AccountsRepo, type SessionUser, type UserRow } from './repo.js';
import { SecondFactor } from './second-factor.js';
import { SecurityLog } from './security-log.js';
import type { AccountLimiters, AccountsDeps, ClientInfo, IssuedSession } from './accounts-types.js';

/**
 * What the account flows share: the stores, the user as the protocol shows it, link tokens, mails and
 * work after the answer.
 */
export class AccountsCore {
  readonly repo: AccountsRepo;
  readonly securityLog: SecurityLog;
  readonly factors: SecondFactor;
  readonly now: () => number;
  readonly passwords: PasswordHasher;
  private readonly pending = new Set<Promise<void>>();

  constructor(readonly deps: AccountsDeps) {
    this.repo = new AccountsRepo(deps.db, deps.read, deps.version);
    this.now = deps.now ?? Date.now;
    this.passwords = deps.passwords ?? standardHasher;
    this.securityLog = new SecurityLog(deps.db, this.now, deps.config.securityLogRetentionDays);
    this.factors = new SecondFactor(deps.db, this.now, deps.config.totpKey, this.securityLog);
  }

  /** The account calls' budgets (passkey sign-in and deletion spend the login's). */
  get limiters(): AccountLimiters {
    return this.deps.limiters;
  }

  get db(): Kysely<Database> {
    return this.deps.db;
  }

  /** The level a user has now: admins by configuration once confirmed, 2 once confirmed, else 1. */
  levelOf(row: Pick<UserRow, 'email' | 'level' | 'email_confirmed'>): number {
    if (!row.email_confirmed) return Level.Registered;
    if (this.deps.config.adminEmails.includes(row.email)) return Level.Admin;
    return Math.max(row.level, Level.Confirmed);
  }

  /** The user's balance, asked of the store (0 without one); answered at once when the store keeps it. */
  balanceOf(userId: string): number | Promise<number> {
    const balance = this.deps.balances?.of(userId);
    return balance instanceof Promise ? balance.then((b) => b ?? 0) : (balance ?? 0);
  }

  /** Opens a new account's balance at zero in the store, in the transaction that creates the account. */
  async openBalance(trx: Kysely<Database>, userId: string): Promise<void> {
    await this.deps.balances?.open(trx, userId);
  }

  /** The user as the protocol shows it, with their balance. */
  toUser(row: SessionUser, credits: number): User {
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      lang: row.lang,
      level: this.levelOf(row),
      emailConfirmed: Boolean(row.email_confirmed),
      avatarUrl: row.avatar_key && this.deps.avatars ? this.deps.avatars.url(row.avatar_key) : null,
      credits,
      createdAt: iso(row.created_at),
      pendingEmail: row.pending_email,
    };
  }

  /**
   * Tells the owner of a change to the account's security, after the answer, in the account's
   * language, with a "this was not me" link to ask for a password reset.
   */
  notifyChange(row: Pick<UserRow, 'name' | 'lang' | 'email'>, change: SecurityChange, extra: MailValues = {}): void {
    const at = iso(this.now()).replace('T', ' ').slice(0, 16) + ' UTC';
    const link = `${this.deps.config.publicUrl}/forgot`;
    const to = extra.newEmail && change === 'email_changed' ? [row.email, extra.newEmail] : [row.email];
    for (const address of to)
      this.afterAnswer(() => this.sendMail(row, 'security_notice', address, { ...extra, change, at, link }));
  }

  /** Mails `to` after the answer (a notice that needs no link), in the user's language. */
  mailAfterAnswer(row: UserRow, kind: MailKind, to: string): void {
    this.afterAnswer(() => this.sendMail(row, kind, to, {}));
  }

  /** Work that runs after the answer; {@link settle} waits for it (the app does so as it closes). */
  afterAnswer(work: () => Promise<void>): void {
    const task = work()
      .catch((error: unknown) => {
        this.deps.log.error(
          { err: error instanceof Error ? error.message : String(error) },
          'work after the answer failed',
        );
      })
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Waits for the work still running after its answer (mails on their way). */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Starts a session for the user (in `trx` when given) and answers it as login does. */
  async issueSession(row: UserRow, client: ClientInfo, trx?: Executor, credits?: number): Promise<IssuedSession> {
    const token = newToken();
    const now = this.now();
    const ttl = this.deps.config.sessionTtl;
    await this.repo.insertSession(
      {
        id: randomUUID(),
        user_id: row.id,
        token_hash: hashToken(token),
        created_at: now,
        expires_at: now + ttl * 1000,
        last_seen_at: now,
        user_agent: client.userAgent,
        ip: client.ip,
        step_up_at: null,
      },
      trx,
    );
    return { token, expire: ttl, user: this.toUser(row, credits ?? (await this.balanceOf(row.id))) };
  }

  async sendLink(
    row: UserRow,
    kind: 'confirm' | 'reset' | 'email_change_confirm',
    to: string,
    ttlMs: number,
    newEmail?: string,
  ): Promise<void> {
    const link = await this.newLink(row, kind, ttlMs, newEmail);
    await this.sendMail(row, kind, to, { link });
  }

  /** Stores a new link token of `kind` for the user (in `trx` when given) and answers its link. */
  async newLink(
    row: UserRow,
    kind: 'confirm' | 'reset' | 'email_change_confirm',
    ttlMs: number,
    newEmail?: string,
    trx?: Executor,
  ): Promise<string> {
    const token = newToken();
    const now = this.now();
    await this.repo.insertLinkToken(
      {
        token_hash: hashToken(token),
        user_id: row.id,
        kind: kind === 'email_change_confirm' ? 'email_change' : kind,
        new_email: newEmail ?? null,
        created_at: now,
        expires_at: now + ttlMs,
        used_at: null,
      },
      trx,
    );
    return `${this.deps.config.publicUrl}/${kind === 'reset' ? 'reset' : 'confirm'}/${token}`;
  }

  /** Sends one of the account mails; a failure is logged, never answered. */
  async sendMail(row: Pick<UserRow, 'name' | 'lang'>, kind: MailKind, to: string, values: MailValues): Promise<void> {
    const mail = renderMail(kind, row.lang, { name: row.name, ...values });
    try {
      await this.deps.mailer.send({ to, ...mail });
    } catch (error) {
      // The account change stands; the user can ask for the mail again. The error is logged
      // without the message body, which holds a link token.
      this.deps.log.error({ kind, err: error instanceof Error ? error.message : String(error) }, 'mail not sent');
    }
  }
}

/** One concern of the accounts service, with the shared stores and settings under their usual names. */
export abstract class AccountsPart {
  protected readonly deps: AccountsDeps;
  protected readonly repo: AccountsRepo;
  protected readonly securityLog: SecurityLog;
  protected readonly factors: SecondFactor;
  protected readonly now: () => number;
  protected readonly passwords: PasswordHasher;

  constructor(protected readonly core: AccountsCore) {
    this.deps = core.deps;
    this.repo = core.repo;
    this.securityLog = core.securityLog;
    this.factors = core.factors;
    this.now = core.now;
    this.passwords = core.passwords;
  }
}
