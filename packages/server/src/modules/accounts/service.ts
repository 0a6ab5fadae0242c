import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PasswordHasher } from '../../security/passwords.js';
import type { AccountsRepo } from './repo.js';
import type { SecondFactor } from './second-factor.js';
import type { SecurityLog } from './security-log.js';
import type { AccountLimiters, AccountsDeps } from './accounts-types.js';
import { AccountsCore } from './accounts-core.js';
import { FailureBudgets } from './failure-budgets.js';
import { SessionFlows } from './sessions.js';
import { SignInFlows } from './sign-in.js';
import { LinkFlows } from './links.js';
import { ProfileFlows } from './profile.js';

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
  private readonly profile: ProfileFlows;

  constructor(deps: AccountsDeps) {
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
    this.profile = new ProfileFlows(core, this.budgets, this.sessions);
  }

  /** The account calls' budgets (passkey sign-in and deletion spend the login's). */
  get limiters(): AccountLimiters {
    return this.core.limiters;
  }

  get db(): Kysely<Database> {
    return this.core.db;
  }

  levelOf(...args: Parameters<AccountsCore['levelOf']>): ReturnType<AccountsCore['levelOf']> {
    return this.core.levelOf(...args);
  }

  /** A user's balance, asked of the store (see `AccountsCore.balanceOf`). */
  async balanceOf(userId: string): Promise<number> {
    return this.core.balanceOf(userId);
  }

  /** Opens a new account's balance at zero in the store, in the transaction that creates the account. */
  async openBalance(...args: Parameters<AccountsCore['openBalance']>): Promise<void> {
    return this.core.openBalance(...args);
  }

  /** Several users' balances, asked of the store; empty without a store. */
  balancesOf(userIds: readonly string[]): Promise<Map<string, number>> {
    return this.core.deps.balances?.ofMany(userIds) ?? Promise.resolve(new Map());
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

  signInVouched(...args: Parameters<SignInFlows['signInVouched']>): ReturnType<SignInFlows['signInVouched']> {
    return this.signIns.signInVouched(...args);
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

  getUser(...args: Parameters<ProfileFlows['getUser']>): ReturnType<ProfileFlows['getUser']> {
    return this.profile.getUser(...args);
  }

  getUserText(...args: Parameters<ProfileFlows['getUserText']>): ReturnType<ProfileFlows['getUserText']> {
    return this.profile.getUserText(...args);
  }

  updateInfo(...args: Parameters<ProfileFlows['updateInfo']>): ReturnType<ProfileFlows['updateInfo']> {
    return this.profile.updateInfo(...args);
  }

  logout(...args: Parameters<SessionFlows['logout']>): ReturnType<SessionFlows['logout']> {
    return this.sessions.logout(...args);
  }

  liveSessions(...args: Parameters<SessionFlows['liveSessions']>): ReturnType<SessionFlows['liveSessions']> {
    return this.sessions.liveSessions(...args);
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

  endSession(...args: Parameters<SessionFlows['endSession']>): ReturnType<SessionFlows['endSession']> {
    return this.sessions.endSession(...args);
  }

  resendConfirmation(
    ...args: Parameters<LinkFlows['resendConfirmation']>
  ): ReturnType<LinkFlows['resendConfirmation']> {
    return this.links.resendConfirmation(...args);
  }

  issueSession(...args: Parameters<AccountsCore['issueSession']>): ReturnType<AccountsCore['issueSession']> {
    return this.core.issueSession(...args);
  }

  sendMail(...args: Parameters<AccountsCore['sendMail']>): ReturnType<AccountsCore['sendMail']> {
    return this.core.sendMail(...args);
  }
}
