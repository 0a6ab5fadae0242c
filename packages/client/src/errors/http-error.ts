import { TillError, type RequestInfo } from './till-error.js';

/**
 * The server answered outside 200-299 (malformed JSON 400, body too large 413, unknown route 404,
 * server fault 500). The protocol keeps non-2xx for transport failures, so the caller sees 905.
 *
 * @example
 * if (res.code === 905 && res.error instanceof HttpError) console.warn(res.error.status);
 */
export class HttpError extends TillError {
  constructor(
    readonly status: number,
    readonly body: unknown,
    request: RequestInfo,
    cause?: unknown,
  ) {
    super('status', `Request failed with status ${status}`, request, { cause });
    this.name = 'HttpError';
  }
}
