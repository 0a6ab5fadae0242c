import { TillError, type RequestInfo } from './till-error.js';

/**
 * The call took longer than the client's timeout (50 s for account calls, 5 s for store calls).
 *
 * @example
 * if (res.code === 905 && res.error instanceof TimeoutError) say('The server is slow, try again');
 */
export class TimeoutError extends TillError {
  constructor(
    readonly timeoutMs: number,
    request: RequestInfo,
    cause?: unknown,
  ) {
    super('timeout', `Request timed out after ${timeoutMs} ms`, request, { cause });
    this.name = 'TimeoutError';
  }
}
