import { TillError, type RequestInfo } from './till-error.js';

/**
 * A 2xx answer whose body is not a JSON object with a numeric `code` (a proxy's HTML page, say).
 *
 * @example
 * if (res.code === 905 && res.error instanceof BodyError) console.warn(res.error.body);
 */
export class BodyError extends TillError {
  constructor(
    readonly body: unknown,
    request: RequestInfo,
  ) {
    super('body', 'The answer is not a protocol body', request);
    this.name = 'BodyError';
  }
}
