/**
 * Why a call ended without a server answer; every one of these is reported as code 905.
 *
 * @example
 * if (res.code === 905 && res.reason === 'queue_expired') say('Please log in and try again');
 */
export type FailureReason =
  'network' | 'timeout' | 'status' | 'body' | 'request' | 'queue_full' | 'queue_expired' | 'queue_cleared';

/**
 * The request a failure belongs to, as far as the client knows it (never its payload: it may hold a token).
 *
 * @example
 * if (res.code === 905) console.warn(res.error.request?.url);
 */
export interface RequestInfo {
  method: string;
  url: string;
}

/**
 * Base class of every failure the SDK reports inside a 905 answer. Calls never throw it: it rides
 * in `answer.error` so that logs keep the cause while the caller only looks at `answer.code`.
 *
 * @example
 * const res = await till.api.getUserInfo();
 * if (res.code === 905) console.warn(res.reason, res.error.cause);
 */
export class TillError extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
    readonly request?: RequestInfo,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TillError';
  }
}
