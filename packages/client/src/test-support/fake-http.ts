import {
  AxiosError,
  AxiosHeaders,
  type AxiosAdapter,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';

/** A request as the fake server saw it: JSON bodies parsed, multipart bodies as the FormData sent. */
export interface SeenRequest {
  method: string;
  url: string;
  baseURL: string | undefined;
  body: Record<string, unknown>;
  form: FormData | undefined;
  headers: AxiosHeaders;
  timeout: number | undefined;
  config: InternalAxiosRequestConfig;
}

/** What the fake answers: a status and body, a dropped connection, or a timeout. */
export type FakeReply = { status?: number; body: unknown } | { fail: 'network' | 'timeout' };

/**
 * An axios adapter standing in for the server: records every request and answers what `handler`
 * says, following axios's own rules (validateStatus, error codes), so the clients run unchanged.
 */
export function fakeHttp(
  handler: (req: SeenRequest) => FakeReply | Promise<FakeReply> = () => ({ body: { code: 900 } }),
) {
  const requests: SeenRequest[] = [];
  const adapter: AxiosAdapter = async (config) => {
    const form = config.data instanceof FormData ? config.data : undefined;
    let body: Record<string, unknown> = {};
    if (form) form.forEach((value, key) => (body[key] = value));
    else if (typeof config.data === 'string' && config.data) body = JSON.parse(config.data) as Record<string, unknown>;
    const seen: SeenRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      baseURL: config.baseURL,
      body,
      form,
      headers: AxiosHeaders.from(config.headers),
      timeout: config.timeout,
      config,
    };
    requests.push(seen);
    const reply = await handler(seen);
    if ('fail' in reply) {
      if (reply.fail === 'timeout')
        throw new AxiosError(`timeout of ${config.timeout}ms exceeded`, 'ECONNABORTED', config, {});
      throw new AxiosError('connect ECONNREFUSED', 'ECONNREFUSED', config, {});
    }
    const status = reply.status ?? 200;
    const response: AxiosResponse = {
      data: typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body),
      status,
      statusText: String(status),
      headers: new AxiosHeaders({ 'content-type': 'application/json' }),
      config,
      request: {},
    };
    if (config.validateStatus && !config.validateStatus(status)) {
      throw new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_REQUEST', config, {}, response);
    }
    return response;
  };
  return { adapter, requests };
}

/** Lets a test hold an answer until it chooses to release it. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A user object as the server answers it. */
export function fakeUser(overrides: Record<string, unknown> = {}) {
  return {
    id: 'u1',
    email: 'ada@example.test',
    name: 'Ada',
    lang: 'en',
    level: 1,
    emailConfirmed: false,
    avatarUrl: null,
    credits: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
