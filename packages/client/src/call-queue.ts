import { TOKEN_PLACEHOLDER } from '@till/protocol';
import { clientFailure, type Answer } from './answers.js';
import { DroppedError } from './errors/dropped-error.js';
import { NetworkError } from './errors/network-error.js';
import type { RequestInfo } from './errors/till-error.js';
import type { Session } from './session.js';

/**
 * Options of {@link CallQueue}.
 *
 * @example
 * const till = createTill({ queue: { maxSize: 20, maxAgeMs: 60_000 } });
 */
export interface CallQueueOptions {
  /** Replays after every login of this session; without one, call {@link CallQueue.flush} yourself. */
  session?: Session;
  /** Most calls that may wait at once; a call beyond it is dropped at once. Default 50. */
  maxSize?: number;
  /** Longest a call may wait for a login before it is dropped, in ms. Default 5 minutes. */
  maxAgeMs?: number;
  /** Clock in milliseconds; default `Date.now`. */
  now?: () => number;
}

/** A call waiting for a token: it is sent by `run` with the new token once someone logs in. */
interface Entry {
  run: (token: string) => Promise<unknown>;
  resolve: (answer: unknown) => void;
  enqueuedAt: number;
  request: RequestInfo | undefined;
}

/**
 * Replaces every `[TOKEN]` placeholder in a call's parameters (inside strings, nested objects and
 * arrays) by `token`; files and other non-plain values pass through untouched.
 *
 * @example
 * replaceTokenPlaceholders({ token: '[TOKEN]', meta: { by: '[TOKEN]' } }, 'abc');
 * // { token: 'abc', meta: { by: 'abc' } }
 */
export function replaceTokenPlaceholders<T>(value: T, token: string): T {
  if (typeof value === 'string') return value.replaceAll(TOKEN_PLACEHOLDER, token) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => replaceTokenPlaceholders(v, token)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceTokenPlaceholders(v, token);
    return out as T;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Calls that need a token, made while logged out, wait here and are replayed in call order after
 * a login that answers 900, each with the new token. Bounded in size and age: a dropped call
 * resolves with 905 and a {@link DroppedError} (`reason` `queue_full`, `queue_expired` or
 * `queue_cleared`); no call waits forever.
 *
 * @example
 * const queue = new CallQueue({ session, maxSize: 20, maxAgeMs: 60_000 });
 * const answer = await queue.enqueue((token) => sendWith(token));
 */
export class CallQueue {
  private readonly entries: Entry[] = [];
  private readonly maxSize: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private readonly session: Session | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> | undefined;

  constructor(options: CallQueueOptions = {}) {
    this.maxSize = options.maxSize ?? 50;
    this.maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
    this.session = options.session;
    this.session?.subscribe((event) => {
      if (event.type === 'start' || event.type === 'restore') void this.flush(event.state.token);
    });
  }

  /** How many calls are waiting. */
  get size(): number {
    return this.entries.length;
  }

  /**
   * Parks a call until the next login; answers what `run` answers once replayed, or a 905 when
   * the call is dropped.
   *
   * @example
   * const res = await queue.enqueue((token) => api.post('api/auth/getUserInfo', { token }));
   */
  enqueue<T>(run: (token: string) => Promise<Answer<T>>, request?: RequestInfo): Promise<Answer<T>> {
    if (this.entries.length >= this.maxSize) {
      return Promise.resolve(clientFailure(new DroppedError('queue_full', request)));
    }
    return new Promise<Answer<T>>((resolve) => {
      this.entries.push({
        run,
        resolve: resolve as (answer: unknown) => void,
        enqueuedAt: this.now(),
        request,
      });
      this.armTimer();
    });
  }

  /**
   * Replays every waiting call in call order with `token`, one after the other. Stops (keeping the
   * rest) if the session ends on the way, so that the rest wait for the next login instead of
   * being sent with a dead token.
   *
   * @example
   * const res = await api.login(credentials); // the clients call flush for you on 900
   * if (res.code === 900) await queue.flush(res.token);
   */
  flush(token: string): Promise<void> {
    // Two logins in a row must not replay the same calls twice: the second waits for the first.
    const run = (this.flushing ?? Promise.resolve()).then(() => this.replay(token));
    this.flushing = run;
    void run.finally(() => {
      if (this.flushing === run) this.flushing = undefined;
    });
    return run;
  }

  /**
   * Drops every waiting call; each resolves with 905 `queue_cleared`.
   *
   * @example
   * queue.clear(); // the user closed the login dialog
   */
  clear(): void {
    this.drop(this.entries.splice(0), 'queue_cleared');
    this.armTimer();
  }

  private async replay(token: string): Promise<void> {
    this.dropExpired();
    while (this.entries.length > 0) {
      if (this.session && this.session.token !== token) return;
      const entry = this.entries.shift();
      if (!entry) return;
      try {
        entry.resolve(await entry.run(token));
      } catch (error) {
        // `run` answers protocol outcomes as values; a throw is a fault in the call itself.
        entry.resolve(clientFailure(new NetworkError(entry.request ?? { method: 'POST', url: '' }, error, 'request')));
      }
    }
    this.armTimer();
  }

  private dropExpired(): void {
    const limit = this.now() - this.maxAgeMs;
    const expired: Entry[] = [];
    while (this.entries[0] && this.entries[0].enqueuedAt <= limit) expired.push(this.entries.shift() as Entry);
    this.drop(expired, 'queue_expired');
  }

  private drop(entries: Entry[], reason: 'queue_expired' | 'queue_cleared'): void {
    for (const entry of entries) entry.resolve(clientFailure(new DroppedError(reason, entry.request)));
  }

  // One timer for the oldest call: entries are in call order, so the oldest is always due first.
  private armTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const oldest = this.entries[0];
    if (!oldest) return;
    const wait = Math.max(oldest.enqueuedAt + this.maxAgeMs - this.now(), 0);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dropExpired();
      this.armTimer();
    }, wait);
  }
}
