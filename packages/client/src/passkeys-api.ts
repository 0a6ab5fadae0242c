import {
  PasskeyPaths,
  type AuthenticationCredential,
  type AuthSuccess,
  type DeleteAccountRequest,
  type PasskeyResponse,
  type PasskeysListResponse,
  type RegistrationCredential,
  type WebauthnOptionsResponse,
} from '@till/protocol';
import type { Answer } from './answers.js';
import type { CallSpec } from './call-spec.js';
import type { OkBody } from './protocol-types.js';
import type { Session } from './session.js';

/** What these calls need of the `ApiClient` they belong to. */
interface AccountCalls {
  readonly session: Session;
  request<T>(spec: CallSpec): Promise<Answer<T>>;
  startSession(res: Answer<AuthSuccess>, path: string): Answer<AuthSuccess>;
}

/**
 * The passkey calls of an `ApiClient` (`api.passkeys`). The SDK does not touch the browser's
 * WebAuthn API: hand the options to `navigator.credentials` (or `@simplewebauthn/browser`) and the
 * JSON it answers back here. Every method resolves to the server's answer or a 905; none throws.
 *
 * @example
 * const o = await till.api.passkeys.signInOptions();
 * if (o.code === 900) {
 *   const credential = await startAuthentication({ optionsJSON: o.data.options });
 *   const res = await till.api.passkeys.signIn(credential); // like a login: the session starts on 900
 * }
 */
export class PasskeysApi {
  constructor(private readonly api: AccountCalls) {}

  /**
   * Options for adding a passkey to the signed-in account (a single-use challenge, 5 minutes).
   *
   * @example
   * const o = await api.passkeys.registrationOptions();
   */
  registrationOptions(): Promise<Answer<WebauthnOptionsResponse>> {
    return this.api.request({ path: PasskeyPaths.registrationOptions, token: 'required' });
  }

  /**
   * Keeps a new passkey: the browser's answer to {@link registrationOptions}, with a name for it.
   *
   * @example
   * const res = await api.passkeys.register('Phone', await startRegistration({ optionsJSON }));
   */
  register(name: string, credential: RegistrationCredential): Promise<Answer<PasskeyResponse>> {
    return this.api.request({ path: PasskeyPaths.register, fields: { name, credential }, token: 'required' });
  }

  /**
   * The account's passkeys, newest first.
   *
   * @example
   * const res = await api.passkeys.list();
   * if (res.code === 900) show(res.data.passkeys);
   */
  list(): Promise<Answer<PasskeysListResponse>> {
    return this.api.request({ path: PasskeyPaths.list, token: 'required' });
  }

  /**
   * Renames a passkey (904 when the account has no such passkey).
   *
   * @example
   * await api.passkeys.rename(passkey.id, 'Work laptop');
   */
  rename(id: string, name: string): Promise<Answer<PasskeyResponse>> {
    return this.api.request({ path: PasskeyPaths.rename, fields: { id, name }, token: 'required' });
  }

  /**
   * Removes a passkey; it no longer signs in.
   *
   * @example
   * await api.passkeys.remove(passkey.id);
   */
  remove(id: string): Promise<Answer<{ code: 900; data: Record<string, never> }>> {
    return this.api.request({ path: PasskeyPaths.remove, fields: { id }, token: 'required' });
  }

  /**
   * Options for signing in with a passkey alone: no account is named.
   *
   * @example
   * const o = await api.passkeys.signInOptions();
   */
  signInOptions(): Promise<Answer<WebauthnOptionsResponse>> {
    return this.api.request({ path: PasskeyPaths.signInOptions, token: 'none' });
  }

  /**
   * Signs in with the browser's answer to {@link signInOptions}; on 900 the session starts exactly as
   * after a login (902 when the passkey does not verify).
   *
   * @example
   * const res = await api.passkeys.signIn(await startAuthentication({ optionsJSON }));
   */
  async signIn(credential: AuthenticationCredential): Promise<Answer<AuthSuccess>> {
    const res = await this.api.request<AuthSuccess>({
      path: PasskeyPaths.signIn,
      fields: { credential },
      token: 'none',
    });
    return this.api.startSession(res, PasskeyPaths.signIn);
  }

  /**
   * Options for confirming the account's deletion with one of its passkeys (904 when it has none).
   *
   * @example
   * const o = await api.passkeys.confirmOptions();
   */
  confirmOptions(): Promise<Answer<WebauthnOptionsResponse>> {
    return this.api.request({ path: PasskeyPaths.confirmOptions, token: 'required' });
  }
}

/**
 * The fields of a deletion: the typed e-mail address, with the password or a passkey assertion.
 *
 * @example
 * const proof: DeletionFields = { confirm: 'ada@example.com', password };
 */
export type DeletionFields = Omit<DeleteAccountRequest, 'token'>;

/** Deletes the signed-in account; on 900 the session ends in the client too. */
export async function deleteAccount(api: AccountCalls, fields: DeletionFields): Promise<Answer<OkBody>> {
  const res = await api.request<OkBody>({ path: PasskeyPaths.deleteAccount, fields, token: 'required' });
  if (res.code === 900) api.session.clear('logout');
  return res;
}
