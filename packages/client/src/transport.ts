import axios, { type AxiosInstance, type AxiosProgressEvent, type AxiosRequestConfig } from 'axios';
import { Code, TOKEN_PLACEHOLDER } from '@till/protocol';
import { clientFailure, type Answer } from './answers.js';
import { CallQueue, replaceTokenPlaceholders } from './call-queue.js';
import { BodyError } from './errors/body-error.js';
import { HttpError } from './errors/http-error.js';
import { NetworkError } from './errors/network-error.js';
import { TimeoutError } from './errors/timeout-error.js';
import type { RequestInfo } from './errors/till-error.js';
import { buildFormData, needsMultipart, type UploadFiles } from './form-data.js';
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
}

/**
 * Whether a call carries the session token.
 *
 * @example
 * await till.serviceCall('api/store/products', {}, { token: 'optional' });
 */
export type TokenUse =
  /** Needs a token: waits in the queue while logged out. */
  | 'required'
  /** Sends the token when logged in, goes without it otherwise. */
  | 'optional'
  /** Never sends a token. */
  | 'none';

/**
 * One call as the clients describe it.
 *
 * @example
 * await till.api.request<{ code: 900 }>({ path: 'api/auth/logout', token: 'required' });
 */
export interface CallSpec {
  method?: 'GET' | 'POST';
  /** Path without a leading slash (`api/login`), or a full URL. */
  path: string;
  fields?: Record<string, unknown>;
  token: TokenUse;
  files?: UploadFiles;
  onUploadProgress?: (event: AxiosProgressEvent) => void;
}

/**
 * The HTTP side shared by the clients: one axios instance with the protocol's defaults, the token
 * put into the payload, logged-out calls parked in the queue, every failure turned into 905 and
 * every 901 ending the session. Internal: apps use {@link ApiClient} and {@link StoreClient}.
 */
export class Transport {
  readonly http: AxiosInstance;
  readonly session: Session;
  readonly queue: CallQueue;
  private readonly timeout: number;

  constructor(options: TransportOptions & { timeout: number }) {
    this.session = options.session ?? new Session();
    this.queue = options.queue ?? new CallQueue({ session: this.session });
    this.timeout = options.timeout;
    this.http = axios.create({
      // Paths are written without a leading slash; '/' keeps them at the origin's root when the
      // host is left out, instead of relative to the page the app is showing.
      baseURL: `${(options.host ?? '').replace(/\/+$/, '')}/`,
      timeout: options.timeout,
      headers: { Accept: 'application/json', ...options.headers },
      xsrfCookieName: 'XSRF-TOKEN',
      xsrfHeaderName: 'X-XSRF-TOKEN',
      validateStatus: (status) => status >= 200 && status < 300,
      responseType: 'json',
      ...(options.adapter ? { adapter: options.adapter } : {}),
    });
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
    let data: unknown;
    try {
      let fields = spec.fields ?? {};
      if (token) fields = replaceTokenPlaceholders(fields, token);
      // A call that may go without a token must not send the placeholder itself.
      else if (fields.token === TOKEN_PLACEHOLDER) {
        const { token: _placeholder, ...rest } = fields;
        fields = rest;
      }
      data =
        spec.method === 'GET' ? undefined : needsMultipart(fields, spec) ? buildFormData(fields, spec.files) : fields;
    } catch (error) {
      return clientFailure(new NetworkError(request, error, 'request'));
    }
    const answer = await this.perform<T>(spec, data, request);
    // Only the token this call carried is known dead: a 901 for a token that a newer login has
    // replaced must not end the newer session.
    if ((answer as { code: number }).code === Code.InvalidToken && token && this.session.token === token)
      this.session.clear('invalid');
    return answer;
  }

  private async perform<T>(spec: CallSpec, data: unknown, request: RequestInfo): Promise<Answer<T>> {
    try {
      const res = await this.http.request<unknown>({
        method: spec.method ?? 'POST',
        url: spec.path,
        data,
        ...(spec.onUploadProgress ? { onUploadProgress: spec.onUploadProgress } : {}),
      });
      const body = res.data;
      if (body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'number') {
        return body as Answer<T>;
      }
      return clientFailure(new BodyError(body, request));
    } catch (error) {
      return clientFailure(this.toError(error, request));
    }
  }

  private toError(error: unknown, request: RequestInfo) {
    if (axios.isAxiosError(error)) {
      if (error.response) return new HttpError(error.response.status, error.response.data, request, error);
      if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT')
        return new TimeoutError(this.timeout, request, error);
      if (error.code === 'ERR_CANCELED') return new NetworkError(request, error);
      if (error.request) return new NetworkError(request, error);
    }
    return new NetworkError(request, error, 'request');
  }

  private info(spec: CallSpec): RequestInfo {
    return { method: spec.method ?? 'POST', url: spec.path };
  }
}
