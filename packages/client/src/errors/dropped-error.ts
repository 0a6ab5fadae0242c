import { TillError, type RequestInfo } from './till-error.js';

/**
 * A call that waited for a login was dropped without being sent: the queue was full, the call
 * waited longer than the queue's age limit, or the queue was cleared.
 *
 * @example
 * if (res.code === 905 && res.error instanceof DroppedError) say('Please log in and try again');
 */
export class DroppedError extends TillError {
  constructor(reason: 'queue_full' | 'queue_expired' | 'queue_cleared', request?: RequestInfo) {
    const why = {
      queue_full: 'too many calls were waiting for a login',
      queue_expired: 'it waited too long for a login',
      queue_cleared: 'the calls waiting for a login were cleared',
    }[reason];
    super(reason, `The call was dropped: ${why}`, request);
    this.name = 'DroppedError';
  }
}
