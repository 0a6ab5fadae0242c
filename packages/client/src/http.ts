import axios, { type AxiosInstance, type AxiosRequestConfig } from 'axios';
import { clientFailure, type Answer } from './answers.js';
import { BodyError } from './errors/body-error.js';
import { HttpError } from './errors/http-error.js';
import { NetworkError } from './errors/network-error.js';
import { TimeoutError } from './errors/timeout-error.js';
import type { RequestInfo } from './errors/till-error.js';
import { buildFormData, needsMultipart } from './form-data.js';
import type { CallSpec } from './call-spec.js';

// What touches the wire: axios, the request body and the mapping of failures to 905. The
// transport loads this module with its first call, so that a web app's bundler makes it a chunk
// of its own and a page that makes no call (the catalog, drawn from the data in the page) never
// downloads it.

/** The protocol's HTTP defaults on one axios instance. */
export function createHttp(options: {
  host?: string | undefined;
  timeout: number;
  headers?: Record<string, string> | undefined;
  adapter?: AxiosRequestConfig['adapter'] | undefined;
}): AxiosInstance {
  return axios.create({
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

/** Sends one call whose token is already in `fields`; every failure is a 905, never a throw. */
export async function perform<T>(
  http: AxiosInstance,
  spec: CallSpec,
  fields: Record<string, unknown>,
  request: RequestInfo,
  /** Headers of this call only (the app's language). */
  headers?: Record<string, string>,
): Promise<Answer<T>> {
  let data: unknown;
  try {
    data =
      spec.method === 'GET' ? undefined : needsMultipart(fields, spec) ? buildFormData(fields, spec.files) : fields;
  } catch (error) {
    return clientFailure(new NetworkError(request, error, 'request'));
  }
  try {
    const res = await http.request<unknown>({
      method: spec.method ?? 'POST',
      url: spec.path,
      data,
      ...(headers ? { headers } : {}),
      ...(spec.onUploadProgress ? { onUploadProgress: spec.onUploadProgress } : {}),
    });
    const body = res.data;
    if (body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'number') {
      return body as Answer<T>;
    }
    return clientFailure(new BodyError(body, request));
  } catch (error) {
    return clientFailure(toError(error, request, http.defaults.timeout ?? 0));
  }
}

function toError(error: unknown, request: RequestInfo, timeout: number) {
  if (axios.isAxiosError(error)) {
    if (error.response) return new HttpError(error.response.status, error.response.data, request, error);
    if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') return new TimeoutError(timeout, request, error);
    if (error.code === 'ERR_CANCELED') return new NetworkError(request, error);
    if (error.request) return new NetworkError(request, error);
  }
  return new NetworkError(request, error, 'request');
}
