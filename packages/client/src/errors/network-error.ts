import { TillError, type RequestInfo } from './till-error.js';

/**
 * No answer reached the client (server down, connection refused or reset, offline), or the
 * request could not be built at all (`reason: 'request'`).
 *
 * @example
 * if (res.code === 905 && res.error instanceof NetworkError) showOfflineBanner();
 */
export class NetworkError extends TillError {
  constructor(request: RequestInfo, cause?: unknown, reason: 'network' | 'request' = 'network') {
    super(reason, reason === 'network' ? 'The server could not be reached' : 'The request could not be sent', request, {
      cause,
    });
    this.name = 'NetworkError';
  }
}
