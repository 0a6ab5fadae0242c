import { iso } from '../../db/rows.js';
import { fail, type Outcome, type Failure } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import { hashToken } from '../../security/tokens.js';
import type { SessionFields, SessionUser } from './repo.js';
import type { FactorProof } from './second-factor.js';
import { STEP_UP_TTL_S, type ClientInfo, LOADED, type LoadedCaller, TOUCH_INTERVAL_MS } from './accounts-types.js';
import { AccountsPart, type AccountsCore } from './accounts-core.js';
import type { FailureBudgets } from './failure-budgets.js';

/** Sessions: checking a token, listing and ending sessions, and step-up proofs on a session. */
export class SessionFlows extends AccountsPart {
  constructor(
    core: AccountsCore,
    private readonly budgets: FailureBudgets,
  ) {
    super(core);
  }

  /** Checks a session token: the caller, or 901. */
  authenticate(token: string): Outcome<Caller> | Promise<Outcome<Caller>> {
    const now = this.now();
    const found = this.repo.findSession(hashToken(token), now);
    // A kept session (every call but the first of a while) is answered without a promise.
    return found instanceof Promise ? found.then((row) => this.callerOf(row, now)) : this.callerOf(found, now);
  }

  private callerOf(
    found: (SessionUser & SessionFields) | undefined,
    now: number,
  ): Outcome<Caller> | Promise<Outcome<Caller>> {
    if (!found) return fail.invalidToken();
    // Last use is recorded at most once a minute, so a session counts as idle only when even a call
    // just after that record would be older than the idle lifetime: the owner always gets the whole of it.
    const idleMs = this.deps.config.sessionIdleTtl * 1000 + TOUCH_INTERVAL_MS;
    if (now - (found.last_seen_at ?? 0) > idleMs) return fail.invalidToken();
    const caller: LoadedCaller = {
      userId: found.id,
      sessionId: found.session_id,
      email: found.email,
      level: this.core.levelOf(found),
      [LOADED]: found,
    };
    // Writing last-seen on every call would make every read a write; once a minute is plenty.
    if (!found.last_seen_at || now - found.last_seen_at > TOUCH_INTERVAL_MS) {
      return this.repo.touchSession(found.session_id, now).then(() => caller);
    }
    return caller;
  }

  async logout(caller: Caller): Promise<void> {
    await this.repo.deleteSession(caller.sessionId);
  }

  /** A user's sessions that are neither expired nor idle past their lifetime, as the protocol shows them. */
  async liveSessions(userId: string) {
    const rows = await this.repo.listSessions(userId, this.now(), this.idleCutoff());
    return rows.map((s) => ({
      id: s.id,
      createdAt: iso(s.created_at),
      expiresAt: iso(s.expires_at),
      lastSeenAt: s.last_seen_at ? iso(s.last_seen_at) : null,
      userAgent: s.user_agent,
      ip: s.ip,
    }));
  }

  /** The caller's live sessions, the one they call with marked. */
  async listSessions(caller: Caller) {
    return (await this.liveSessions(caller.userId)).map((s) => ({ ...s, current: s.id === caller.sessionId }));
  }

  /** Sessions last used before this moment are idle past their lifetime (see `callerOf`). */
  idleCutoff(now = this.now()): number {
    return now - this.deps.config.sessionIdleTtl * 1000 - TOUCH_INTERVAL_MS;
  }

  async revokeOtherSessions(caller: Caller, client: ClientInfo): Promise<number> {
    const count = await this.repo.deleteOtherSessions(caller.userId, caller.sessionId);
    if (count)
      await this.securityLog.write({ userId: caller.userId, kind: 'sessions_revoked', ...client, detail: { count } });
    return count;
  }

  /**
   * Ends one of the caller's own live sessions, named by its id (never its token): 904 `id` when
   * the caller has no live session with that id, so another user's session cannot be ended nor
   * told to exist. Ending the caller's own session is a logout; ending another is logged.
   */
  async endSession(caller: Caller, id: string, client: ClientInfo): Promise<Outcome<{ current: boolean }>> {
    const res = await this.deps.db
      .deleteFrom('sessions')
      .where('id', '=', id)
      .where('user_id', '=', caller.userId)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    if (!Number(res.numDeletedRows)) return fail.notFound('id');
    const current = id === caller.sessionId;
    if (!current)
      await this.securityLog.write({
        userId: caller.userId,
        kind: 'sessions_revoked',
        ...client,
        detail: { count: 1 },
      });
    return { current };
  }

  /**
   * Proves the password (and the second factor when it is on) again on the caller's session, under
   * the login's failure budgets: credential changes and administrators' sensitive actions then stand
   * for {@link STEP_UP_TTL_S} seconds.
   */
  async stepUp(
    caller: Caller,
    input: { password: string } & FactorProof,
    client: ClientInfo,
  ): Promise<Outcome<{ data: { validFor: number } }>> {
    const row = await this.repo.findUserById(caller.userId);
    if (!row) return fail.invalidToken();
    const checked = await this.budgets.checkCurrentPassword(row, input.password, client, 'step_up');
    if (checked) return checked;
    if (await this.factors.isEnabled(row.id)) {
      if (input.code === undefined && input.recoveryCode === undefined) return fail.invalidInput('code', 'required');
      const spent = await this.budgets.spendFailure(row.email, client.ip);
      if (spent) return spent;
      const method = await this.factors.spend(row.id, input);
      if (!method) return fail.invalidInput(input.code !== undefined ? 'code' : 'recoveryCode', 'invalid');
      await this.budgets.forgiveFailure(row.email, client.ip, 'one');
      if (method === 'recovery_code') {
        await this.securityLog.write({ userId: row.id, kind: 'recovery_code_used', ...client });
        this.core.notifyChange(row, 'recovery_code_used');
      }
    }
    await this.markProof(caller);
    return { data: { validFor: STEP_UP_TTL_S } };
  }

  /** Records that the caller's session has just proved the password (and second factor when on). */
  async markProof(caller: Caller): Promise<void> {
    await this.deps.db
      .updateTable('sessions')
      .set({ step_up_at: this.now() })
      .where('id', '=', caller.sessionId)
      .execute();
  }

  /** Undefined when the caller's session proved its password within {@link STEP_UP_TTL_S}, else 914. */
  async recentProof(caller: Caller): Promise<Failure | undefined> {
    const row = await this.deps.db
      .selectFrom('sessions')
      .select('step_up_at')
      .where('id', '=', caller.sessionId)
      .executeTakeFirst();
    const at = row?.step_up_at;
    const age = at == null ? Infinity : this.now() - Number(at);
    return age >= 0 && age <= STEP_UP_TTL_S * 1000 ? undefined : fail.stepUpRequired(STEP_UP_TTL_S);
  }
}
