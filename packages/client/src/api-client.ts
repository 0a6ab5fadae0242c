import {
  Paths,
  SecurityPaths,
  Timeouts,
  type AuthSuccess,
  type LoginSecondFactorRequest,
  type SecondFactorStatusData,
  type SecurityLogData,
  type StepUpData,
  type StepUpRequest,
  type RecoveryCodesData,
  type TotpEnableData,
  type TotpSetupData,
  type GenResetLinkRequest,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
  type RevokeSessionsResponse,
  type EndSessionResponse,
  type SessionsResponse,
  type UpdateInfoRequest,
  type UserResponse,
} from '@till/protocol';
import { clientFailure, type Answer, type DataAnswer } from './answers.js';
import { BodyError } from './errors/body-error.js';
import type { CallQueue } from './call-queue.js';
import { deleteAccount, PasskeysApi, type DeletionFields } from './passkeys-api.js';
import { BackupsApi } from './backups-api.js';
import { SocialApi } from './social-api.js';
import type { OkBody } from './protocol-types.js';
import { createServiceCall, type ServiceCall } from './service-call.js';
import { resolveServerUrl } from './server-url.js';
import type { Session } from './session.js';
import { Transport, type CallSpec, type TransportOptions } from './transport.js';

/**
 * Options of {@link ApiClient}.
 *
 * @example
 * const api = new ApiClient({ apiHost: 'https://api.example.com', session });
 */
export interface ApiClientOptions extends Omit<TransportOptions, 'host' | 'timeout'> {
  /** The API host; default the app's own origin. */
  apiHost?: string;
  /** Timeout in ms; default 50 000 (the specification's). */
  timeout?: number;
}

/**
 * The fields updateInfo takes; the client adds the token.
 *
 * @example
 * const changes: UpdateInfoChanges = { email: 'new@example.com', currentPassword };
 */
export type UpdateInfoChanges = Omit<UpdateInfoRequest, 'token'>;

/**
 * The account calls on the API host (50 s timeout). Every method resolves to the server's answer or
 * to a 905 {@link ClientFailure}; none throws. Login and registration start the session (which
 * replays the calls that waited for it); a 901 ends it.
 *
 * @example
 * const api = new ApiClient({ apiHost: 'http://localhost:3000' });
 * const res = await api.login({ email: 'ada@example.com', password: 'a long passphrase' });
 * if (res.code === 900) console.log(api.session.level);
 * else if (res.code === 902) say('Wrong e-mail or password');
 */
export class ApiClient {
  readonly session: Session;
  readonly queue: CallQueue;
  /**
   * `POST /{path}` with the fields plus `token`: multipart when there are files, a progress
   * callback or data-URI fields; `sync` calls run one at a time in call order.
   */
  readonly serviceCall: ServiceCall;
  /** The passkey calls: register, sign in with, list, rename, remove. */
  readonly passkeys: PasskeysApi;
  /** Sign-in with Google, Apple and OpenID Connect providers. */
  readonly social: SocialApi;
  /** The administrators' backups: start one, follow it, list them, download one. */
  readonly backups: BackupsApi;
  private readonly transport: Transport;
  private readonly apiHost: string | undefined;

  constructor(options: ApiClientOptions = {}) {
    const { apiHost, timeout, ...rest } = options;
    this.apiHost = apiHost;
    this.transport = new Transport({
      ...rest,
      ...(apiHost !== undefined ? { host: apiHost } : {}),
      timeout: timeout ?? Timeouts.apiMs,
    });
    this.session = this.transport.session;
    this.queue = this.transport.queue;
    this.serviceCall = createServiceCall(this.transport);
    this.passkeys = new PasskeysApi(this);
    this.social = new SocialApi(this);
    this.backups = new BackupsApi(this);
    this.session.setRefresher(() => this.getUserInfo());
  }

  /**
   * The axios instance, for interceptors (logging, headers). axios loads with the first call, or
   * with this: an app may call it early to have the library ready before the user needs it.
   *
   * @example
   * (await client.http()).interceptors.request.use((config) => config);
   */
  http() {
    return this.transport.http();
  }

  /**
   * An address the server answered (`user.avatarUrl`, a file's `url`, a product's `imageUrl`) made
   * absolute against the API host, which serves them: an app whose pages come from another origin
   * (the phone apps) puts it in an `<img>` as it is. An absolute address (an image elsewhere, `data:`)
   * is answered as it is, and so is every address when the API host is the app's own origin.
   *
   * @example
   * <img src={till.api.serverUrl(user.avatarUrl)} />
   */
  serverUrl(url: string): string;
  serverUrl(url: string | null | undefined): string | undefined;
  serverUrl(url: string | null | undefined): string | undefined {
    return resolveServerUrl(url, this.apiHost);
  }

  /**
   * Any call, for services this client has no method for.
   *
   * @example
   * await api.request<{ code: 900 }>({ path: 'api/auth/logout', token: 'required' });
   */
  request<T>(spec: CallSpec): Promise<Answer<T>> {
    return this.transport.call<T>(spec);
  }

  /**
   * Logs in; on 900 the session starts and the calls that waited for it are replayed.
   *
   * @example
   * const res = await api.login({ email, password });
   * if (res.code === 902) say('Wrong e-mail or password');
   */
  async login(credentials: LoginRequest): Promise<Answer<AuthSuccess>> {
    // A device that signed in to this account before says so, and keeps a failure budget of its own.
    const deviceToken = credentials.deviceToken ?? (await this.session.deviceToken(credentials.email));
    const fields = deviceToken ? { ...credentials, deviceToken } : credentials;
    this.loginEmail = credentials.email;
    const res = await this.transport.call<AuthSuccess>({ path: Paths.login, fields, token: 'none' });
    await this.keepDeviceToken(res, credentials.email);
    return this.startSession(res, Paths.login);
  }

  /** The address of the last login, whose second step {@link loginSecondFactor} completes. */
  private loginEmail: string | undefined;

  private async keepDeviceToken(res: Answer<AuthSuccess>, email: string | undefined): Promise<void> {
    if (res.code === 900 && typeof res.deviceToken === 'string' && res.deviceToken && email) {
      await this.session.keepDeviceToken(email, res.deviceToken);
    }
  }

  /**
   * A login's second step, after a 913 answer: the challenge with a TOTP `code` or a `recoveryCode`.
   * On 900 the session starts as after a login; 902 is a wrong code (the challenge stays for another
   * try), 911 a challenge that expired or was used (log in again).
   *
   * @example
   * const first = await api.login({ email, password });
   * if (first.code === 913) {
   *   const res = await api.loginSecondFactor({ challenge: first.challenge, code: '123456' });
   * }
   */
  async loginSecondFactor(fields: LoginSecondFactorRequest): Promise<Answer<AuthSuccess>> {
    const email = this.loginEmail;
    const deviceToken = fields.deviceToken ?? (email ? await this.session.deviceToken(email) : undefined);
    const res = await this.transport.call<AuthSuccess>({
      path: SecurityPaths.loginSecondFactor,
      fields: deviceToken ? { ...fields, deviceToken } : { ...fields },
      token: 'none',
    });
    await this.keepDeviceToken(res, email);
    return this.startSession(res, SecurityPaths.loginSecondFactor);
  }

  /**
   * Whether the second factor is on, and how many recovery codes are left.
   *
   * @example
   * const res = await api.secondFactorStatus();
   * if (res.code === 900 && res.data.totp.enabled) showDisable();
   */
  secondFactorStatus(): Promise<DataAnswer<SecondFactorStatusData>> {
    return this.transport.call({ path: SecurityPaths.secondFactorStatus, token: 'required' });
  }

  /**
   * A new TOTP secret and its `otpauth://` URI (show it as a QR code); on once {@link totpEnable} confirms it.
   *
   * @example
   * const res = await api.totpSetup();
   * if (res.code === 900) showQr(res.data.uri);
   */
  totpSetup(): Promise<DataAnswer<TotpSetupData>> {
    return this.transport.call({ path: SecurityPaths.totpSetup, token: 'required' });
  }

  /**
   * Turns TOTP on with a code from the app and the current password; answers the recovery codes,
   * shown this once (902 wrong password, 907 `code` wrong code).
   *
   * @example
   * const res = await api.totpEnable({ code: '123456', currentPassword });
   * if (res.code === 900) showOnce(res.data.recoveryCodes);
   */
  totpEnable(fields: { code: string; currentPassword: string }): Promise<DataAnswer<TotpEnableData>> {
    return this.transport.call({ path: SecurityPaths.totpEnable, fields, token: 'required' });
  }

  /**
   * Turns TOTP off with the current password and a code (or a recovery code).
   *
   * @example
   * await api.totpDisable({ currentPassword, code: '123456' });
   */
  totpDisable(fields: { currentPassword: string; code?: string; recoveryCode?: string }): Promise<DataAnswer<object>> {
    return this.transport.call({ path: SecurityPaths.totpDisable, fields, token: 'required' });
  }

  /**
   * Replaces the recovery codes with ten new ones, shown this once; the old ones stop working. Needs
   * a recent step-up (914, which the `stepUp` handler given to the SDK answers) and the second
   * factor on (912 `not_enabled`).
   *
   * @example
   * const res = await api.renewRecoveryCodes();
   * if (res.code === 900) showOnce(res.data.recoveryCodes);
   */
  renewRecoveryCodes(): Promise<DataAnswer<RecoveryCodesData>> {
    return this.transport.call({ path: SecurityPaths.recoveryCodes, token: 'required' });
  }

  /**
   * Proves the password (and a `code` or `recoveryCode` when the second factor is on) again on this
   * session. Credential changes (passkeys, the second factor, e-mail or password with a second
   * factor on) and administrators' sensitive actions answer 914 without such a proof in the last
   * `within` seconds: ask the user, call this, then call again.
   *
   * @example
   * let res = await api.passkeys.remove(id);
   * if (res.code === 914 && (await api.stepUp({ password: await askPassword() })).code === 900) {
   *   res = await api.passkeys.remove(id);
   * }
   */
  stepUp(fields: Omit<StepUpRequest, 'token'>): Promise<DataAnswer<StepUpData>> {
    return this.transport.call({ path: SecurityPaths.stepUp, fields, token: 'required' });
  }

  /**
   * The user's security log, newest first.
   *
   * @example
   * const res = await api.securityLog({ page: 1, pageSize: 20 });
   * if (res.code === 900) list(res.data.entries);
   */
  securityLog(page: { page?: number; pageSize?: number } = {}): Promise<DataAnswer<SecurityLogData>> {
    return this.transport.call({ path: SecurityPaths.securityLog, fields: page, token: 'required' });
  }

  /**
   * Creates an account; the answer is a session like a login's (907 names the bad field).
   *
   * @example
   * const res = await api.register({ email, password, name: 'Ada', lang: 'en' });
   * if (res.code === 907) showFieldError(res.parameter, res.reason);
   */
  async register(fields: RegisterRequest): Promise<Answer<AuthSuccess>> {
    const res = await this.transport.call<AuthSuccess>({ path: Paths.register, fields, token: 'none' });
    return this.startSession(res, Paths.register);
  }

  /**
   * Starts the session from a sign-in answer (login, registration, passkey); a 900 without a session
   * is no protocol body. Internal to the SDK's calls.
   *
   * @example
   * api.startSession(await api.request<AuthSuccess>({ path, fields, token: 'none' }), path);
   */
  startSession(res: Answer<AuthSuccess>, path: string): Answer<AuthSuccess> {
    if (res.code !== 900) return res;
    if (typeof res.token !== 'string' || !res.token || typeof res.expire !== 'number') {
      return clientFailure(new BodyError(res, { method: 'POST', url: path }));
    }
    this.session.start(res);
    return res;
  }

  /**
   * Mails a password reset link (same answer for unknown addresses).
   *
   * @example
   * await api.genResetLink({ email, lang: 'en' });
   */
  genResetLink(fields: GenResetLinkRequest): Promise<Answer<OkBody>> {
    return this.transport.call<OkBody>({ path: Paths.genResetLink, fields, token: 'none' });
  }

  /**
   * Sets a new password with the token from a reset link (911 when it is unknown or used).
   *
   * @example
   * await api.resetPassword(params.resetToken, { password, lang: 'en' });
   */
  resetPassword(resetToken: string, fields: ResetPasswordRequest): Promise<Answer<OkBody>> {
    const path = `${Paths.resetPassword}/${encodeURIComponent(resetToken)}`;
    return this.transport.call<OkBody>({ path, fields, token: 'none' });
  }

  /**
   * Confirms an e-mail address with the token from a confirmation link.
   *
   * @example
   * const res = await api.confirmUser(params.confirmToken);
   */
  confirmUser(confirmToken: string): Promise<Answer<OkBody>> {
    const path = `${Paths.confirmUser}/${encodeURIComponent(confirmToken)}`;
    return this.transport.call<OkBody>({ method: 'GET', path, token: 'none' });
  }

  /**
   * The logged-in user; keeps it (and its level) in the session.
   *
   * @example
   * const res = await api.getUserInfo();
   * if (res.code === 900) setUser(res.user);
   */
  async getUserInfo(): Promise<Answer<UserResponse>> {
    const res = await this.transport.call<UserResponse>({ path: Paths.getUserInfo, token: 'required' });
    if (res.code === 900 && res.user) this.session.setUser(res.user);
    return res;
  }

  /**
   * Changes profile fields; a new password or e-mail needs `currentPassword` (902 when wrong).
   *
   * @example
   * await api.updateInfo({ name: 'Ada Lovelace' });
   */
  async updateInfo(changes: UpdateInfoChanges): Promise<Answer<UserResponse>> {
    const res = await this.transport.call<UserResponse>({ path: Paths.updateInfo, fields: changes, token: 'required' });
    if (res.code === 900 && res.user) this.session.setUser(res.user);
    return res;
  }

  /**
   * Ends this session on the server and in the client (the client forgets it whatever the answer).
   *
   * @example
   * await api.logout();
   */
  async logout(): Promise<Answer<OkBody>> {
    if (!this.session.token) return { code: 900 };
    const res = await this.transport.call<OkBody>({ path: Paths.logout, token: 'required' });
    this.session.clear('logout');
    return res;
  }

  /**
   * Deletes the account for good: `confirm` is its e-mail address, with the current `password` or a
   * `passkey` assertion for {@link PasskeysApi.confirmOptions}. On 900 the session ends here too.
   *
   * @example
   * const res = await api.deleteAccount({ confirm: user.email, password });
   * if (res.code === 902) say('Wrong password');
   */
  deleteAccount(fields: DeletionFields): Promise<Answer<OkBody>> {
    return deleteAccount(this, fields);
  }

  /**
   * The user's live sessions.
   *
   * @example
   * const res = await api.sessions();
   * if (res.code === 900) list(res.data.sessions);
   */
  sessions(): Promise<Answer<SessionsResponse>> {
    return this.transport.call<SessionsResponse>({ path: Paths.sessions, token: 'required' });
  }

  /**
   * Ends every session of the user but this one.
   *
   * @example
   * const res = await api.revokeSessions();
   * if (res.code === 900) say(`${res.data.revoked} other sessions ended`);
   */
  revokeSessions(): Promise<Answer<RevokeSessionsResponse>> {
    return this.transport.call<RevokeSessionsResponse>({ path: Paths.revokeSessions, token: 'required' });
  }

  /**
   * Ends one of the user's sessions, named by the `id` {@link sessions} lists (904 when the user has no
   * such session). Ending this very session signs the client out too.
   *
   * @example
   * const res = await api.endSession(session.id);
   * if (res.code === 900 && !res.data.current) say('Signed out on that device');
   */
  async endSession(id: string): Promise<Answer<EndSessionResponse>> {
    const res = await this.transport.call<EndSessionResponse>({
      path: Paths.endSession,
      fields: { id },
      token: 'required',
    });
    if (res.code === 900 && res.data.current) this.session.clear('logout');
    return res;
  }
}
