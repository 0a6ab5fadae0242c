import { SocialPaths, type AuthSuccess, type LinkedIdentity, type SocialProvider } from '@till/protocol';
import type { Answer } from './answers.js';
import type { CallSpec } from './call-spec.js';
import type { OkBody } from './protocol-types.js';

/** What these calls need of the `ApiClient` they belong to. */
interface AccountCalls {
  request<T>(spec: CallSpec): Promise<Answer<T>>;
  startSession(res: Answer<AuthSuccess>, path: string): Answer<AuthSuccess>;
}

type Data<T> = { code: 900; data: T };

/**
 * The social sign-in calls of an `ApiClient` (`api.social`): Google, Apple and OpenID Connect
 * providers. The web flow: {@link start} answers the provider's page to send the browser to; the
 * provider comes back through the server to `PUBLIC_URL/social/finish#ticket=...`, whose ticket goes
 * to {@link finish}. A phone app signs in natively and sends the ID token to {@link idToken}. Every
 * sign-in answers like a login: the session starts on 900; 913 asks for the second factor; 915 asks
 * the owner of the address to prove the account ({@link linkWithPassword}, {@link linkByMail}).
 * Every method resolves to the server's answer or a 905; none throws.
 *
 * @example
 * const res = await till.api.social.start('google');
 * if (res.code === 900) location.assign(res.data.url);
 */
export class SocialApi {
  constructor(private readonly api: AccountCalls) {}

  /**
   * The providers the server offers.
   *
   * @example
   * const res = await api.social.providers();
   */
  providers(): Promise<Answer<Data<{ providers: SocialProvider[] }>>> {
    return this.api.request({ path: SocialPaths.providers, token: 'none' });
  }

  /**
   * The provider's authorization page for a web sign-in (904 `provider` when it is not on).
   *
   * @example
   * const res = await api.social.start('apple', 'de');
   * // A phone app running the flow in the system browser: base64url SHA-256 of a secret it keeps.
   * const inApp = await api.social.start('apple', 'de', challenge);
   */
  start(provider: string, lang?: string, appChallenge?: string): Promise<Answer<Data<{ url: string }>>> {
    return this.api.request({
      path: SocialPaths.start,
      fields: { provider, ...(lang ? { lang } : {}), ...(appChallenge ? { appChallenge } : {}) },
      token: 'none',
    });
  }

  /**
   * Signs in with the ticket the provider's return left in the finish page's fragment; a phone
   * app's flow (started with `appChallenge`) also sends the secret it hashed.
   *
   * @example
   * const res = await api.social.finish(new URLSearchParams(location.hash.slice(1)).get('ticket') ?? '');
   */
  async finish(ticket: string, appVerifier?: string): Promise<Answer<AuthSuccess>> {
    const res = await this.api.request<AuthSuccess>({
      path: SocialPaths.finish,
      fields: appVerifier ? { ticket, appVerifier } : { ticket },
      token: 'none',
    });
    return this.api.startSession(res, SocialPaths.finish);
  }

  /**
   * A single-use nonce for a native sign-in; the provider's sheet puts it in the ID token.
   *
   * @example
   * const res = await api.social.nonce('google');
   */
  nonce(provider: string): Promise<Answer<Data<{ nonce: string; expire: number }>>> {
    return this.api.request({ path: SocialPaths.nonce, fields: { provider }, token: 'none' });
  }

  /**
   * Signs in with the ID token a phone's native sheet answered (902 when it does not verify). Apple
   * gives the name only on the first sign-in: pass it along then.
   *
   * @example
   * const res = await api.social.idToken({ provider: 'apple', idToken, name: 'Ada Lovelace' });
   */
  async idToken(fields: {
    provider: string;
    idToken: string;
    name?: string;
    lang?: string;
  }): Promise<Answer<AuthSuccess>> {
    const res = await this.api.request<AuthSuccess>({ path: SocialPaths.idToken, fields, token: 'none' });
    return this.api.startSession(res, SocialPaths.idToken);
  }

  /**
   * Links the provider from a 915 to the account with its password, and signs in (913 with a second factor).
   *
   * @example
   * const res = await api.social.linkWithPassword(answer.link, password);
   */
  async linkWithPassword(link: string, password: string): Promise<Answer<AuthSuccess>> {
    const res = await this.api.request<AuthSuccess>({
      path: SocialPaths.linkWithPassword,
      fields: { link, password },
      token: 'none',
    });
    return this.api.startSession(res, SocialPaths.linkWithPassword);
  }

  /**
   * Mails the address's owner a link that links the provider from a 915.
   *
   * @example
   * await api.social.linkByMail(answer.link);
   */
  linkByMail(link: string): Promise<Answer<OkBody>> {
    return this.api.request({ path: SocialPaths.linkByMail, fields: { link }, token: 'none' });
  }

  /**
   * Links the provider named by a mailed link's token (911 when unknown, expired or used).
   *
   * @example
   * const res = await api.social.confirmLink(token);
   */
  confirmLink(token: string): Promise<Answer<Data<{ provider: string }>>> {
    return this.api.request({ path: SocialPaths.confirmLink, fields: { token }, token: 'none' });
  }

  /**
   * The signed-in account's linked providers, and whether it has a password.
   *
   * @example
   * const res = await api.social.list();
   */
  list(): Promise<Answer<Data<{ identities: LinkedIdentity[]; hasPassword: boolean }>>> {
    return this.api.request({ path: SocialPaths.list, token: 'required' });
  }

  /**
   * The provider's page to link it to the signed-in account; the provider comes back to
   * `PUBLIC_URL/profile#connectTicket=...`, whose ticket goes to {@link connectFinish} from this same
   * session. An account with a password answers 914 without a recent step-up (the SDK's `stepUp`
   * handler is asked, then the call is sent again).
   *
   * @example
   * const res = await api.social.connect('google', 'en');
   * if (res.code === 900) location.assign(res.data.url);
   */
  connect(provider: string, lang?: string, app = false): Promise<Answer<Data<{ url: string }>>> {
    return this.api.request({
      path: SocialPaths.connect,
      fields: { provider, ...(lang ? { lang } : {}), ...(app ? { app } : {}) },
      token: 'required',
    });
  }

  /**
   * Links the provider account a connect flow came back with (907 `provider`/`taken` when another
   * account has it; 911 when the ticket is unknown, expired, used or another session's).
   *
   * @example
   * const res = await api.social.connectFinish(new URLSearchParams(location.hash.slice(1)).get('connectTicket') ?? '');
   */
  connectFinish(ticket: string): Promise<Answer<Data<{ identity: LinkedIdentity }>>> {
    return this.api.request({ path: SocialPaths.connectFinish, fields: { ticket }, token: 'required' });
  }

  /**
   * Removes a linked provider (912 `last_way_in` when no other way to sign in would remain).
   *
   * @example
   * await api.social.unlink(identity.id);
   */
  unlink(id: string): Promise<Answer<Data<Record<string, never>>>> {
    return this.api.request({ path: SocialPaths.unlink, fields: { id }, token: 'required' });
  }
}
