import { createHash, randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { Level, SocialPaths, type LinkedIdentity, type SocialProvider } from '@till/protocol';
import { isUniqueViolation, iso, type Executor } from '../../db/rows.js';
import { inTransaction, runInTransaction } from '../../db/transaction.js';
import { AbortTransaction, fail, Failure, type Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import { safeEqual } from '../../security/tokens.js';
import type { PasskeysRepo } from './passkeys-repo.js';
import type { UserRow } from './repo.js';
import type { AccountsService, ClientInfo, IssuedSession } from './service.js';
import type { SocialConfig } from './social-config.js';
import { identityOf, SocialProviders, type VerifiedIdentity } from './social-providers.js';
import { SocialRepo, type SocialIdentityRow } from './social-repo.js';

/** Whether an insert hit the one-link-per-provider-account key. */
const identityTaken = (error: unknown) => isUniqueViolation(error, 'social_identities', 'provider', 'subject');

/** A web flow's state lives while the person is at the provider. */
const STATE_TTL_MS = 10 * 60_000;
/** A phone's nonce lives while the provider's sheet is open. */
const NONCE_TTL_MS = 10 * 60_000;
/** The ticket the browser comes back with is used at once by the page it lands on. */
const TICKET_TTL_MS = 5 * 60_000;
/** A pending link (915) waits for the password or the choice of a mail. */
const LINK_TTL_MS = 15 * 60_000;
/** A mailed link confirmation lives as a confirmation link does. */
const LINK_MAIL_TTL_MS = 24 * 3_600_000;

interface StateData {
  nonce: string;
  verifier: string;
  lang: string | undefined;
  /** A connect flow's session: only it may spend the ticket the flow comes back with. */
  sessionId?: string;
  /** A flow a phone app runs in the system browser: it comes back to the app's URL scheme. */
  app?: boolean;
  /** A phone app's sign-in: SHA-256 (base64url) of the secret the ticket is spent with. */
  appChallenge?: string;
}
interface IdentityData {
  identity: VerifiedIdentity;
  lang?: string | undefined;
  sessionId?: string;
  appChallenge?: string;
}

/** The passwords Till stores are argon2 hashes; an account made by a provider has none (`''`). */
function hasPassword(row: Pick<UserRow, 'password_hash'>): boolean {
  return row.password_hash.startsWith('$argon2');
}

/**
 * Social sign-in. A provider's verified identity signs in the account linked to it; failing that, it
 * makes an account when the provider vouches for an address no account has; an address that has an
 * account is linked only once its owner proves the account (915, then the password or a mailed
 * link), never silently. The second factor, the login's budgets, sessions, the security log and its
 * mails are the password sign-in's. docs/decisions/012-social-sign-in.md.
 */
export class SocialFlows {
  readonly repo: SocialRepo;
  readonly providers: SocialProviders;
  private readonly appScheme: string;

  constructor(
    private readonly accounts: AccountsService,
    private readonly passkeys: PasskeysRepo,
    config: SocialConfig,
    private readonly publicUrlOf: () => string,
  ) {
    this.appScheme = config.appScheme;
    this.repo = new SocialRepo(accounts.db);
    this.providers = new SocialProviders(config.providers, () => this.callbackUrl, accounts.now);
  }

  private get publicUrl(): string {
    return this.publicUrlOf();
  }

  /** The redirect URI every provider is registered with: `PUBLIC_URL/api/social/callback`. */
  get callbackUrl(): string {
    return `${this.publicUrl}/${SocialPaths.callback}`;
  }

  private get now(): number {
    return this.accounts.now();
  }

  list(): SocialProvider[] {
    return this.providers.list();
  }

  /** The provider's authorization page for a new web flow, its single-use values kept hashed. */
  async start(providerId: string, lang: string | undefined, appChallenge?: string): Promise<Outcome<{ url: string }>> {
    const p = this.providers.find(providerId);
    if (!p?.clientId) return fail.notFound('provider');
    const values = { nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), lang };
    const kept: StateData = appChallenge ? { ...values, app: true, appChallenge } : values;
    const state = await this.repo.issue('state', p.id, kept, this.now, STATE_TTL_MS);
    const url = await this.providers.authorizationUrl(p, { ...values, state });
    return { url: url.href };
  }

  /**
   * The provider sent the browser back: spends the state, exchanges the code and keeps the verified
   * identity under a ticket. Answers where to send the browser: the web app's finish page, with the
   * ticket or an error word in the fragment (never sent to a server, kept out of logs).
   */
  async callback(callback: URL | Request, params: URLSearchParams): Promise<string> {
    const stateValue = params.get('state');
    if (!stateValue || stateValue.length > 128) return `${this.publicUrl}/social/finish#error=failed`;
    const state = await this.repo.take<StateData>('state', stateValue, this.now);
    // A connect flow (started by a signed-in session) comes back to the profile.
    const connecting = state?.user_id != null && state.fields.sessionId !== undefined;
    // A phone app's flow comes back to the app through its URL scheme; a browser's to the web app.
    const base = state?.fields.app ? `${this.appScheme}:` : this.publicUrl;
    const finish = connecting ? `${base}/profile` : `${base}/social/finish`;
    const error = connecting ? 'connectError' : 'error';
    if (!state) return `${finish}#${error}=expired`;
    const p = this.providers.find(state.provider);
    if (!p) return `${finish}#${error}=failed`;
    if (params.get('error')) return `${finish}#${error}=denied`;
    let identity: VerifiedIdentity;
    try {
      identity = await this.providers.exchange(
        p,
        callback,
        { state: stateValue, nonce: state.fields.nonce, verifier: state.fields.verifier },
        appleName(params.get('user')),
      );
    } catch {
      return `${finish}#${error}=failed`;
    }
    if (connecting) {
      const ticket = await this.repo.issue(
        'connect',
        p.id,
        { identity, sessionId: state.fields.sessionId } satisfies IdentityData,
        this.now,
        TICKET_TTL_MS,
        state.user_id,
      );
      return `${finish}#connectTicket=${ticket}`;
    }
    const appChallenge = state.fields.appChallenge;
    const ticket = await this.repo.issue(
      'ticket',
      p.id,
      { identity, lang: state.fields.lang, ...(appChallenge ? { appChallenge } : {}) } satisfies IdentityData,
      this.now,
      TICKET_TTL_MS,
    );
    return `${finish}#ticket=${ticket}`;
  }

  /**
   * A signed-in session links a provider: the provider's page for a web flow whose state is bound
   * to the session. The session is the proof that the account is the caller's; an account with a
   * password proves it again first (step-up, 914), as for its other ways in.
   */
  async connect(
    caller: Caller,
    providerId: string,
    lang: string | undefined,
    app = false,
  ): Promise<Outcome<{ url: string }>> {
    const p = this.providers.find(providerId);
    if (!p?.clientId) return fail.notFound('provider');
    const row = await this.accounts.repo.findUserById(caller.userId);
    if (!row || row.deleted_at != null) return fail.invalidToken();
    if (hasPassword(row)) {
      const missing = await this.accounts.recentProof(caller);
      if (missing) return missing;
    }
    const values = { nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), lang };
    const state = await this.repo.issue(
      'state',
      p.id,
      { ...values, sessionId: caller.sessionId, ...(app ? { app } : {}) } satisfies StateData,
      this.now,
      STATE_TTL_MS,
      caller.userId,
    );
    const url = await this.providers.authorizationUrl(p, { ...values, state });
    return { url: url.href };
  }

  /**
   * The session that started a connect flow spends its ticket: the provider account is linked to
   * the caller's account (logged; the owner is mailed), or refused when another account has it.
   */
  async connectFinish(caller: Caller, ticket: string, client: ClientInfo): Promise<Outcome<LinkedIdentity>> {
    const pending = await this.repo.take<IdentityData>('connect', ticket, this.now);
    if (!pending || pending.user_id !== caller.userId || pending.fields.sessionId !== caller.sessionId)
      return fail.badLinkToken();
    const identity = pending.fields.identity;
    let outcome: Outcome<{ row: UserRow; linked: SocialIdentityRow; added: boolean }>;
    try {
      outcome = await runInTransaction(this.accounts.db, async (trx) => {
        const row = await this.accounts.repo.findUserById(caller.userId, trx);
        if (!row || row.deleted_at != null) throw new AbortTransaction(fail.invalidToken());
        const found = await this.repo.findIdentity(identity.provider, identity.subject, trx);
        if (found && found.user_id !== row.id) throw new AbortTransaction(fail.invalidInput('provider', 'taken'));
        if (found) return { row, linked: found, added: false };
        const linked = await this.link(row, identity, client, trx);
        return { row, linked, added: true };
      });
    } catch (error) {
      // Linked to another account by a sign-in or connect racing this one.
      if (identityTaken(error)) return fail.invalidInput('provider', 'taken');
      throw error;
    }
    if (outcome instanceof Failure) return outcome;
    if (outcome.added)
      this.accounts.notifyChange(outcome.row, 'social_linked', { provider: this.providerName(identity.provider) });
    return this.toLinked(outcome.linked);
  }

  /** The web app's page spends the ticket: a sign-in like a login's. */
  async finish(
    input: { ticket: string; deviceToken?: string | undefined; appVerifier?: string | undefined },
    client: ClientInfo,
  ): Promise<Outcome<IssuedSession>> {
    const wait = await this.accounts.limiters.loginPerIp.hit(client.ip);
    if (wait) return fail.rateLimited(wait);
    const ticket = await this.repo.take<IdentityData>('ticket', input.ticket, this.now);
    if (!ticket) return fail.badLinkToken();
    // A phone app's ticket came through its URL scheme, which another app may claim: it signs in
    // only with the secret whose hash started the flow.
    const challenge = ticket.fields.appChallenge;
    if (challenge !== undefined) {
      const verifier = input.appVerifier ?? '';
      if (!safeEqual(createHash('sha256').update(verifier).digest('base64url'), challenge)) return fail.badLinkToken();
    }
    return this.signInWith(ticket.fields.identity, ticket.fields.lang, client, input.deviceToken);
  }

  /** A nonce for a phone's native sign-in, single use. */
  async nonce(providerId: string): Promise<Outcome<{ nonce: string; expire: number }>> {
    const p = this.providers.find(providerId);
    if (!p?.appClientIds.length) return fail.notFound('provider');
    const nonce = await this.repo.issue('nonce', p.id, {}, this.now, NONCE_TTL_MS);
    return { nonce, expire: NONCE_TTL_MS / 1000 };
  }

  /**
   * A phone's ID token from the provider's own sheet: verified for the apps' client ids, its nonce
   * one this server handed out for this provider and not used before (so a token is good once).
   */
  async idToken(
    input: {
      provider: string;
      idToken: string;
      name?: string | undefined;
      lang?: string | undefined;
      deviceToken?: string | undefined;
    },
    client: ClientInfo,
  ): Promise<Outcome<IssuedSession>> {
    const wait = await this.accounts.limiters.loginPerIp.hit(client.ip);
    if (wait) return fail.rateLimited(wait);
    const p = this.providers.find(input.provider);
    if (!p?.appClientIds.length) return fail.notFound('provider');
    let verified: Awaited<ReturnType<SocialProviders['verifyIdToken']>>;
    try {
      verified = await this.providers.verifyIdToken(p, input.idToken);
    } catch {
      return fail.wrongCredentials();
    }
    const nonce = verified.nonce.length <= 128 ? await this.repo.take('nonce', verified.nonce, this.now) : undefined;
    if (nonce?.provider !== p.id) return fail.wrongCredentials();
    return this.signInWith(identityOf(p.id, verified.claims, input.name), input.lang, client, input.deviceToken);
  }

  /** The linked account signs in; else a new account, or 915 when the address has one. */
  private async signInWith(
    identity: VerifiedIdentity,
    lang: string | undefined,
    client: ClientInfo,
    deviceToken: string | undefined,
  ): Promise<Outcome<IssuedSession>> {
    const signedIn = await this.signInLinked(identity, client, deviceToken);
    if (signedIn) return signedIn;
    if (!identity.email || !identity.emailVerified) return fail.invalidInput('email', 'unverified');
    if (!(await this.accounts.repo.findUserByEmail(identity.email))) {
      const made = await this.createAccount(identity, lang, client);
      if (made !== 'taken') return made;
    }
    // The address has an account. A sign-in racing this one may have made it, since the look-up
    // above, with this same provider account linked (its user and link commit together): then it
    // signs in to that account. Read on the writer's side, which sees every commit the database
    // refused this one's address for. Another provider account is asked for the owner's proof.
    const { linked, row, owner } = await inTransaction(this.accounts.db, async (trx) => {
      const found = await this.repo.findIdentity(identity.provider, identity.subject, trx);
      return {
        linked: found,
        row: found && (await this.accounts.repo.findUserById(found.user_id, trx)),
        owner: await this.accounts.repo.findUserByEmail(identity.email ?? '', trx),
      };
    });
    if (linked) return this.signInAs(linked, row, identity, client, deviceToken);
    return owner ? this.linkRequired(owner, identity) : fail.wrongCredentials();
  }

  /** The account linked to the identity signs in; `undefined` when none is linked. */
  private async signInLinked(
    identity: VerifiedIdentity,
    client: ClientInfo,
    deviceToken: string | undefined,
  ): Promise<Outcome<IssuedSession> | undefined> {
    const linked = await this.repo.findIdentity(identity.provider, identity.subject);
    if (!linked) return undefined;
    return this.signInAs(linked, await this.accounts.repo.findUserById(linked.user_id), identity, client, deviceToken);
  }

  private async signInAs(
    linked: SocialIdentityRow,
    row: UserRow | undefined,
    identity: VerifiedIdentity,
    client: ClientInfo,
    deviceToken: string | undefined,
  ): Promise<Outcome<IssuedSession>> {
    if (!row || row.deleted_at != null) return fail.wrongCredentials();
    await this.repo.touchIdentity(linked.id, this.now);
    return this.accounts.signInVouched(row, client, identity.provider, deviceToken);
  }

  private async linkRequired(row: UserRow, identity: VerifiedIdentity): Promise<Failure> {
    const link = await this.repo.issue('link', identity.provider, { identity }, this.now, LINK_TTL_MS, row.id);
    return fail.linkRequired(link, row.email, identity.provider, LINK_TTL_MS / 1000);
  }

  /** An account the provider vouched for: its address confirmed, no password, the provider linked. */
  private async createAccount(
    identity: VerifiedIdentity,
    lang: string | undefined,
    client: ClientInfo,
  ): Promise<IssuedSession | 'taken'> {
    const now = this.now;
    const email = identity.email ?? '';
    const row: UserRow = {
      id: randomUUID(),
      email,
      name: identity.name ?? email.split('@')[0] ?? email,
      lang: lang ?? 'en',
      level: Level.Confirmed,
      email_confirmed: 1,
      // Not an argon2 hash: no password matches until the owner sets one (a reset link).
      password_hash: '',
      pending_email: null,
      avatar_file_id: null,
      avatar_key: null,
      flagged_at: null,
      flag_reason: null,
      deleted_at: null,
      created_at: now,
      updated_at: now,
    };
    try {
      const session = await inTransaction(this.accounts.db, async (trx) => {
        await this.accounts.repo.insertUser(row, trx);
        await this.accounts.openBalance(trx, row.id);
        await this.link(row, identity, client, trx);
        const issued = await this.accounts.issueSession(row, client, trx, 0);
        await this.accounts.securityLog.write(
          { userId: row.id, kind: 'social_signin', ...client, detail: { provider: identity.provider } },
          trx,
        );
        return issued;
      });
      this.accounts.noticeNewDevice(row, client);
      return session;
    } catch (error) {
      // The provider account linked, or the address taken, by a sign-in racing this one.
      if (identityTaken(error) || isUniqueViolation(error, 'users', 'email')) return 'taken';
      throw error;
    }
  }

  /** Links the identity to the account and logs it, in `trx`. */
  private async link(
    row: UserRow,
    identity: VerifiedIdentity,
    client: ClientInfo,
    trx: Executor,
  ): Promise<SocialIdentityRow> {
    const id = randomUUID();
    const linked: SocialIdentityRow = {
      id,
      user_id: row.id,
      provider: identity.provider,
      subject: identity.subject,
      email: identity.email,
      created_at: this.now,
      last_used_at: this.now,
    };
    await this.repo.insertIdentity(linked, trx);
    await this.accounts.securityLog.write(
      { userId: row.id, kind: 'social_linked', ...client, detail: { provider: identity.provider, identityId: id } },
      trx,
    );
    return linked;
  }

  private providerName(id: string): string {
    return this.providers.find(id)?.name ?? id;
  }

  /**
   * 915's first way: the account's password. Tries spend the login's failure budgets for the address;
   * the link is spent only by a right password. Linked, the sign-in goes on as a login's (913 when a
   * second factor is on).
   */
  async linkWithPassword(
    input: { link: string; password: string; deviceToken?: string | undefined },
    client: ClientInfo,
  ): Promise<Outcome<IssuedSession>> {
    const wait = await this.accounts.limiters.loginPerIp.hit(client.ip);
    if (wait) return fail.rateLimited(wait);
    const pending = await this.repo.peek<IdentityData>('link', input.link, this.now);
    const row = pending?.user_id ? await this.accounts.repo.findUserById(pending.user_id) : undefined;
    if (!pending || !row || row.deleted_at != null) return fail.badLinkToken();
    const spent = await this.accounts.spendFailure(row.email, client.ip);
    if (spent) return spent;
    if (!(await this.accounts.passwords.verify(row.password_hash, input.password))) {
      await this.accounts.securityLog.write({
        userId: row.id,
        kind: 'signin_failed',
        ...client,
        detail: { method: 'password', provider: pending.provider },
      });
      return fail.wrongCredentials();
    }
    await this.accounts.forgiveFailure(row.email, client.ip);
    const linked = await this.linkPending('link', input.link, row, client);
    if (linked instanceof Failure) return linked;
    return this.accounts.signInVouched(row, client, linked.provider, input.deviceToken);
  }

  /** 915's second way: a link mailed to the account's address; following it links the provider. */
  async linkByMail(input: { link: string }, client: ClientInfo): Promise<Outcome<object>> {
    const ipWait = await this.accounts.limiters.mailPerIp.hit(client.ip);
    if (ipWait) return fail.rateLimited(ipWait);
    const pending = await this.repo.take<IdentityData>('link', input.link, this.now);
    const row = pending?.user_id ? await this.accounts.repo.findUserById(pending.user_id) : undefined;
    if (!pending || !row || row.deleted_at != null) return fail.badLinkToken();
    const addressWait = await this.accounts.limiters.mailPerAddress.hit(row.email);
    if (addressWait) return fail.rateLimited(addressWait);
    const token = await this.repo.issue(
      'link_mail',
      pending.provider,
      pending.fields,
      this.now,
      LINK_MAIL_TTL_MS,
      row.id,
    );
    const link = `${this.publicUrl}/social/link/${token}`;
    this.accounts.afterAnswer(() =>
      this.accounts.sendMail(row, 'social_link', row.email, { link, provider: this.providerName(pending.provider) }),
    );
    return {};
  }

  /** The mailed link was followed: the provider is linked (the person then signs in with it). */
  async confirmLink(token: string, client: ClientInfo): Promise<Outcome<{ provider: string }>> {
    const wait = await this.accounts.limiters.confirmPerIp.hit(client.ip);
    if (wait) return fail.rateLimited(wait);
    const pending = await this.repo.peek<IdentityData>('link_mail', token, this.now);
    const row = pending?.user_id ? await this.accounts.repo.findUserById(pending.user_id) : undefined;
    if (!pending || !row || row.deleted_at != null) return fail.badLinkToken();
    const linked = await this.linkPending('link_mail', token, row, client);
    return linked instanceof Failure ? linked : { provider: linked.provider };
  }

  /** Spends a pending link and links its identity, in one transaction; the owner is told by mail. */
  private async linkPending(
    kind: 'link' | 'link_mail',
    value: string,
    row: UserRow,
    client: ClientInfo,
  ): Promise<Outcome<{ provider: string }>> {
    let outcome: Outcome<{ provider: string }>;
    try {
      outcome = await runInTransaction(this.accounts.db, async (trx) => {
        const pending = await this.repo.take<IdentityData>(kind, value, this.now, trx);
        if (!pending || pending.user_id !== row.id) throw new AbortTransaction(fail.badLinkToken());
        await this.link(row, pending.fields.identity, client, trx);
        return { provider: pending.provider };
      });
    } catch (error) {
      // The provider's account was linked to another account meanwhile.
      if (identityTaken(error)) return fail.invalidInput('provider', 'taken');
      throw error;
    }
    if (!(outcome instanceof Failure))
      this.accounts.notifyChange(row, 'social_linked', { provider: this.providerName(outcome.provider) });
    return outcome;
  }

  toLinked(row: SocialIdentityRow): LinkedIdentity {
    return {
      id: row.id,
      provider: row.provider,
      email: row.email,
      createdAt: iso(row.created_at),
      lastUsedAt: row.last_used_at != null ? iso(row.last_used_at) : null,
    };
  }

  async listLinked(caller: Caller): Promise<Outcome<{ identities: LinkedIdentity[]; hasPassword: boolean }>> {
    const row = await this.accounts.repo.findUserById(caller.userId);
    if (!row) return fail.invalidToken();
    const identities = await this.repo.listByUser(caller.userId);
    return { identities: identities.map((i) => this.toLinked(i)), hasPassword: hasPassword(row) };
  }

  /**
   * Removes a linked provider while another way in remains: a password, a passkey, or another
   * provider. Unlinks of one account run one at a time (the user row is written first, which holds
   * a second unlink until the first commits), so two at once cannot remove the last two ways in.
   */
  async unlink(caller: Caller, id: string, client: ClientInfo): Promise<Outcome<object>> {
    const outcome = await runInTransaction(this.accounts.db, async (trx) => {
      await trx.updateTable('users').set({ updated_at: this.now }).where('id', '=', caller.userId).execute();
      const row = await trx.selectFrom('users').selectAll().where('id', '=', caller.userId).executeTakeFirst();
      const identities = await this.repo.listByUser(caller.userId, trx);
      const target = identities.find((i) => i.id === id);
      if (!row || !target) throw new AbortTransaction(fail.notFound('id'));
      const others = identities.length - 1;
      const passkeys = (await this.passkeys.listByUser(caller.userId, trx)).length;
      if (!hasPassword(row) && !passkeys && !others) throw new AbortTransaction(fail.conflict('linked', 'last_way_in'));
      await this.repo.remove(id, caller.userId, trx);
      await this.accounts.securityLog.write(
        {
          userId: caller.userId,
          kind: 'social_unlinked',
          ...client,
          detail: { provider: target.provider, identityId: id },
        },
        trx,
      );
      return { row, provider: target.provider };
    });
    if (outcome instanceof Failure) return outcome;
    this.accounts.notifyChange(outcome.row, 'social_unlinked', { provider: this.providerName(outcome.provider) });
    return {};
  }
}

/** The name Apple posts with the first sign-in only (`user`: `{"name":{"firstName","lastName"},"email"}`). */
export function appleName(user: string | null): string | null {
  if (!user || user.length > 2000) return null;
  try {
    const parsed = JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } };
    const parts = [parsed.name?.firstName, parsed.name?.lastName].filter((v): v is string => typeof v === 'string');
    return parts.join(' ').trim() || null;
  } catch {
    return null;
  }
}
