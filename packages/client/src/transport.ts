import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import { Code, SecurityPaths, TOKEN_PLACEHOLDER } from '@till/protocol';
import { clientFailure, type Answer } from './answers.js';
import { CallQueue, replaceTokenPlaceholders } from './call-queue.js';
import { NetworkError } from './errors/network-error.js';
import type { RequestInfo } from './errors/till-error.js';
import type { CallSpec } from './call-spec.js';
import type * as HttpModule from './http.js';
import { Session } from './session.js';

/**
 * Options shared by {@link ApiClient} and {@link StoreClient}.
 *
 * @example
 * const options: TransportOptions = { host: 'https://api.example.com', timeout: 10_000, adapter: 'fetch' };
 */
export interface TransportOptions {
  /** Host to call, e.g. `https://api.example.com`; default the app's own origin. */
  host?: string;
  /** Timeout in ms. */
  timeout?: number;
  /** The session whose token authenticated calls carry; a new one when left out. */
  session?: Session;
  /** Where calls that need a token wait while logged out; a new one on `session` when left out. */
  queue?: CallQueue;
  /** axios adapter, to run over `fetch` or a test double instead of XHR / Node's http. */
  adapter?: AxiosRequestConfig['adapter'];
  /** Extra headers sent with every call. */
  headers?: Record<string, string>;
  /**
   * The app's language now (`de`), asked at each call and sent as `Accept-Language`, so that
   * answers with texts (product titles, the payment page) come in it; nothing is sent when it
   * answers nothing.
   */
  language?: () => string | null | undefined;
  /**
   * Asked when a call answers 914 (the session must prove the password again): the user's password,
   * and a code when the second factor is on, or null to give up (the call then answers its 914).
   * The SDK sends the proof to `api/auth/stepUp` and, once it holds, the call again; a refused proof
   * (902, 907) asks again with that answer as `refused`.
   */
  stepUp?: StepUpHandler;
}

/**
 * What {@link TransportOptions.stepUp} answers with: the proof, or null to give up.
 *
 * @example
 * const stepUp: StepUpHandler = async (refused) => ({ password: await askPassword(refused) });
 */
export type StepUpHandler = (
  refused: { code: number; parameter?: string; reason?: string } | undefined,
) => Promise<{ password: string; code?: string; recoveryCode?: string } | null>;

export type { CallSpec, TokenUse } from './call-spec.js';

type HttpLayer = typeof HttpModule;

/** The wire layer (axios and the body encoding), loaded once per process or page. */
let httpLayer: Promise<HttpLayer> | undefined;
function loadHttpLayer(): Promise<HttpLayer> {
  httpLayer ??= import('./http.js').catch((error: unknown) => {
    // A chunk that could not be fetched (offline) is fetched again by the next call.
    httpLayer = undefined;
    throw error;
  });
  return httpLayer;
}

/**
 * The HTTP side shared by the clients: one axios instance with the protocol's defaults, the token
 * put into the payload, logged-out calls parked in the queue, every failure turned into 905 and
 * every 901 ending the session. Internal: apps use {@link ApiClient} and {@link StoreClient}.
 */
export class Transport {
  readonly session: Session;
  readonly queue: CallQueue;
  private readonly options: TransportOptions & { timeout: number };
  private instance: Promise<{ layer: HttpLayer; http: AxiosInstance }> | undefined;

  constructor(options: TransportOptions & { timeout: number }) {
    this.session = options.session ?? new Session();
    this.queue = options.queue ?? new CallQueue({ session: this.session });
    this.options = options;
  }

  /** The axios instance, made on first use (the first call, or this). */
  async http(): Promise<AxiosInstance> {
    return (await this.load()).http;
  }

  private load(): Promise<{ layer: HttpLayer; http: AxiosInstance }> {
    this.instance ??= loadHttpLayer().then((layer) => {
      const { host, headers, adapter, timeout } = this.options;
      return { layer, http: layer.createHttp({ host, headers, adapter, timeout }) };
    });
    this.instance.catch(() => {
      this.instance = undefined;
    });
    return this.instance;
  }

  /** Sends a call (or parks it until the next login); never rejects. */
  call<T>(spec: CallSpec): Promise<Answer<T>> {
    // The token goes first: a server reading a multipart body as a stream needs it before any file.
    const fields: Record<string, unknown> =
      spec.token !== 'none' && spec.fields?.token === undefined
        ? { token: TOKEN_PLACEHOLDER, ...spec.fields }
        : { ...spec.fields };
    const prepared = { ...spec, fields };
    const token = this.session.token;
    if (token) return this.send<T>(prepared, token);
    if (spec.token === 'required') return this.queue.enqueue<T>((t) => this.send<T>(prepared, t), this.info(spec));
    return this.send<T>(prepared, undefined);
  }

  private async send<T>(spec: CallSpec, token: string | undefined): Promise<Answer<T>> {
    const request = this.info(spec);
    let fields = spec.fields ?? {};
    try {
      if (token) fields = replaceTokenPlaceholders(fields, token);
      // A call that may go without a token must not send the placeholder itself.
      else if (fields.token === TOKEN_PLACEHOLDER) {
        const { token: _placeholder, ...rest } = fields;
        fields = rest;
      }
    } catch (error) {
      return clientFailure(new NetworkError(request, error, 'request'));
    }
    let loaded;
    try {
      loaded = await this.load();
    } catch (error) {
      // The wire layer itself could not be loaded: as unreachable as the server, and worth a retry.
      return clientFailure(new NetworkError(request, error));
    }
    const lang = this.options.language?.();
    const headers = lang ? { 'Accept-Language': lang } : undefined;
    let answer: Answer<T> = await loaded.layer.perform<T>(loaded.http, spec, fields, request, headers);
    const ask = this.options.stepUp;
    if ((answer as { code: number }).code === Code.StepUpRequired && token && ask) {
      const stepUp: CallSpec = { path: SecurityPaths.stepUp, token: 'required' };
      let refused: Parameters<StepUpHandler>[0];
      for (;;) {
        const proof = await ask(refused);
        if (!proof) break;
        const proved = await loaded.layer.perform<{ code: number }>(
          loaded.http,
          stepUp,
          { token, ...proof },
          this.info(stepUp),
          headers,
        );
        if (proved.code === Code.Ok) {
          answer = await loaded.layer.perform<T>(loaded.http, spec, fields, request, headers);
          break;
        }
        // A wrong password or code is the user's to correct; anything else (906, 901) ends the try.
        if (proved.code !== Code.WrongCredentials && proved.code !== Code.InvalidInput) {
          answer = proved as unknown as Answer<T>;
          break;
        }
        refused = proved as Parameters<StepUpHandler>[0];
      }
    }
    // Only the token this call carried is known dead: a 901 for a token that a newer login has
    // replaced must not end the newer session.
    const code = (answer as { code: number }).code;
    if (code === Code.InvalidToken && token && this.session.token === token) this.session.clear('invalid');
    // Refused for the level: the level kept with the session is out of date (taken away since), so
    // the user is asked for again and the interface follows.
    else if (code === Code.Forbidden && token && this.session.token === token) void this.session.refreshUser();
    return answer;
  }

  private info(spec: CallSpec): RequestInfo {
    return { method: spec.method ?? 'POST', url: spec.path };
  }
}
