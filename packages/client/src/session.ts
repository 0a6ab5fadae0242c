import { Level, type User } from '@till/protocol';
import type { SessionStorage } from './session-storage.js';

/**
 * What a session holds. Times are in seconds, as the protocol gives `expire`.
 *
 * @example
 * const state: SessionState | null = session.snapshot();
 * if (state) console.log(new Date((state.issuedAt + state.expire) * 1000));
 */
export interface SessionState {
  token: string;
  /** When the client received the token (seconds since the epoch). */
  issuedAt: number;
  /** The token's lifetime in seconds, as the server answered it. */
  expire: number;
  level: number;
  user: User | null;
}

/**
 * Why a session ended: the user logged out, the server answered 901, or the token's time ran out.
 *
 * @example
 * session.subscribe((e) => { if (e.type === 'end' && e.reason === 'expired') say('Please log in again'); });
 */
export type SessionEndReason = 'logout' | 'invalid' | 'expired';

/**
 * A change of the session: started by a login or registration, restored from storage, its user
 * updated, or ended.
 *
 * @example
 * session.subscribe((e: SessionEvent) => setLevel(e.state?.level ?? 0));
 */
export type SessionEvent =
  | { type: 'start' | 'restore' | 'update'; state: SessionState }
  | { type: 'end'; reason: SessionEndReason; state: null };

/**
 * Listener of {@link Session.subscribe}.
 *
 * @example
 * const log: SessionListener = (e) => console.log(e.type);
 */
export type SessionListener = (event: SessionEvent) => void;

/**
 * Options of {@link Session}.
 *
 * @example
 * const session = new Session({ storage: window.localStorage, storageKey: 'my-app.session' });
 */
export interface SessionOptions {
  /** Keeps the session across reloads (web storage, device preferences). */
  storage?: SessionStorage;
  /** Key under which the session is stored; default `till.session`. */
  storageKey?: string;
  /** Clock in milliseconds; default `Date.now`. */
  now?: () => number;
}

// setTimeout takes at most a signed 32-bit number of milliseconds (about 24.8 days); longer
// sessions re-arm the timer in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Accounts whose device tokens a {@link Session} keeps. */
const MAX_DEVICE_TOKENS = 20;

/**
 * The login session: token, issue time, expiry and level, held in memory (and in the optional
 * storage). The token is valid while now (seconds) < issue time + expire. On any 901 the clients
 * call {@link Session.clear}, which returns to level 0 and tells the listeners.
 *
 * @example
 * const session = new Session({ storage: window.localStorage });
 * session.subscribe((e) => { if (e.type === 'end') navigate('/login'); });
 * if (session.isValid()) console.log(session.level);
 */
export class Session {
  /** Settles once the stored session (if any) has been read. */
  readonly ready: Promise<void>;
  private state: SessionState | null = null;
  private readonly listeners = new Set<SessionListener>();
  private readonly storage: SessionStorage | undefined;
  private readonly key: string;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refresher: (() => Promise<unknown>) | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(options: SessionOptions = {}) {
    this.storage = options.storage;
    this.key = options.storageKey ?? 'till.session';
    this.now = options.now ?? Date.now;
    this.ready = this.restore();
  }

  /** The token while the session is valid, else null. */
  get token(): string | null {
    return this.isValid() ? (this.state?.token ?? null) : null;
  }

  /** The account level while the session is valid; 0 (anonymous) otherwise. */
  get level(): number {
    return this.isValid() ? (this.state?.level ?? Level.Anonymous) : Level.Anonymous;
  }

  /** The user the server last answered, while the session is valid. */
  get user(): User | null {
    return this.isValid() ? (this.state?.user ?? null) : null;
  }

  /** When the token stops being valid (seconds since the epoch), or null when logged out. */
  get expiresAt(): number | null {
    return this.state ? this.state.issuedAt + this.state.expire : null;
  }

  /**
   * How to ask the server for the user again (the account client sets it to getUserInfo, whose
   * answer comes back through {@link setUser}).
   */
  setRefresher(refresher: () => Promise<unknown>): void {
    this.refresher = refresher;
  }

  /**
   * The device token the server gave this device for the account of `email`, if any. Device tokens
   * outlive sessions (a logout keeps them): a later login to that account sends its token and so
   * spends this device's failure budget, not the account's.
   *
   * @example
   * const deviceToken = await session.deviceToken('ada@example.com');
   */
  async deviceToken(email: string): Promise<string | undefined> {
    return (await this.loadDevices()).get(email.toLowerCase());
  }

  /**
   * Keeps the device token a sign-in answered for the account of `email` (the newest accounts first,
   * at most {@link MAX_DEVICE_TOKENS}).
   *
   * @example
   * if (res.code === 900 && res.deviceToken) await session.keepDeviceToken(email, res.deviceToken);
   */
  async keepDeviceToken(email: string, token: string): Promise<void> {
    const devices = await this.loadDevices();
    const key = email.toLowerCase();
    devices.delete(key);
    devices.set(key, token);
    for (const oldest of devices.keys()) {
      if (devices.size <= MAX_DEVICE_TOKENS) break;
      devices.delete(oldest);
    }
    try {
      await this.storage?.setItem(`${this.key}.devices`, JSON.stringify(Object.fromEntries(devices)));
    } catch (error) {
      console.warn('till: could not store the device token', error);
    }
  }

  private devices: Map<string, string> | undefined;

  private async loadDevices(): Promise<Map<string, string>> {
    if (this.devices) return this.devices;
    const found = new Map<string, string>();
    try {
      const raw = await this.storage?.getItem(`${this.key}.devices`);
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      if (parsed && typeof parsed === 'object') {
        for (const [email, token] of Object.entries(parsed)) if (typeof token === 'string') found.set(email, token);
      }
    } catch (error) {
      console.warn('till: could not read the device tokens', error);
    }
    // Two first calls may both have read: the first to finish is kept.
    this.devices ??= found;
    return this.devices;
  }

  /**
   * Asks the server for the user, and so the level, again. The level kept here is only what the
   * server last answered, for the interface to show or hide things; the server reads the level
   * afresh on every call. So the interface asks again where a kept level may be out of date (the
   * app coming back to the front, a screen that needs more than the kept level allows, a call
   * refused with 903), and a level given or taken meanwhile shows without a new sign-in. Asks
   * made while one is under way share it; answers when it is done (never rejects).
   *
   * @example
   * await session.refreshUser(); if (session.level >= Level.Admin) showAdmin();
   */
  refreshUser(): Promise<void> {
    if (!this.refresher || !this.token) return Promise.resolve();
    this.refreshing ??= this.refresher()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  /** A copy of the current state, or null when logged out. */
  snapshot(): SessionState | null {
    return this.isValid() && this.state ? { ...this.state } : null;
  }

  /**
   * True while now (seconds) < issue time + expire. A session found expired here ends with
   * reason `expired`, so that listeners hear of it even if the timer has not fired yet.
   */
  isValid(): boolean {
    if (!this.state) return false;
    if (this.nowSeconds() < this.state.issuedAt + this.state.expire) return true;
    this.end('expired');
    return false;
  }

  /**
   * Starts a session from a login or registration answer; the issue time is now.
   *
   * @example
   * if (res.code === 900) session.start(res);
   */
  start(answer: { token: string; expire: number; user?: User | null }): void {
    const user = answer.user ?? null;
    this.state = {
      token: answer.token,
      issuedAt: this.nowSeconds(),
      expire: answer.expire,
      level: user?.level ?? Level.Registered,
      user,
    };
    this.changed({ type: 'start', state: { ...this.state } });
  }

  /**
   * Keeps the user (and their level) from a getUserInfo or updateInfo answer.
   *
   * @example
   * if (res.code === 900) session.setUser(res.user);
   */
  setUser(user: User): void {
    if (!this.isValid() || !this.state) return;
    this.state = { ...this.state, user, level: user.level };
    this.changed({ type: 'update', state: { ...this.state } });
  }

  /**
   * Ends the session: forgets the token, returns to level 0 and tells the listeners.
   *
   * @example
   * session.clear('logout');
   */
  clear(reason: SessionEndReason = 'logout'): void {
    if (this.state) this.end(reason);
  }

  /**
   * Calls `listener` on every change; answers a function that stops it.
   *
   * @example
   * const stop = session.subscribe((e) => setLevel(e.state?.level ?? 0));
   */
  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  private end(reason: SessionEndReason): void {
    this.state = null;
    this.changed({ type: 'end', reason, state: null });
  }

  private changed(event: SessionEvent): void {
    this.armTimer();
    this.persist();
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One failing listener must not keep the others (or the client) from hearing of the change.
        console.error('till: session listener failed', error);
      }
    }
  }

  private armTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const at = this.expiresAt;
    if (at === null) return;
    const wait = Math.min(Math.max(at * 1000 - this.now(), 0), MAX_TIMER_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // isValid ends the session when it is due; a long session re-arms for its next step.
      if (this.isValid()) this.armTimer();
    }, wait);
    // An idle Node process (a script, a test) must not stay alive only to expire a token.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private persist(): void {
    if (!this.storage) return;
    const write = async () => {
      if (this.state) await this.storage?.setItem(this.key, JSON.stringify(this.state));
      else await this.storage?.removeItem(this.key);
    };
    write().catch((error: unknown) => console.warn('till: could not store the session', error));
  }

  private async restore(): Promise<void> {
    if (!this.storage) return;
    let raw: string | null | undefined;
    try {
      const stored = this.storage.getItem(this.key);
      // Web Storage answers at once: restore synchronously so the first render already knows the user.
      raw = stored instanceof Promise ? await stored : stored;
    } catch (error) {
      console.warn('till: could not read the stored session', error);
      return;
    }
    // A login that happened while an asynchronous storage was being read wins over the stored one.
    if (!raw || this.state) return;
    const parsed = parseStored(raw);
    if (!parsed || this.nowSeconds() >= parsed.issuedAt + parsed.expire) {
      this.persist();
      return;
    }
    this.state = parsed;
    this.changed({ type: 'restore', state: { ...parsed } });
  }
}

function parseStored(raw: string): SessionState | null {
  try {
    const v = JSON.parse(raw) as Partial<SessionState>;
    if (typeof v.token !== 'string' || typeof v.issuedAt !== 'number' || typeof v.expire !== 'number') return null;
    return {
      token: v.token,
      issuedAt: v.issuedAt,
      expire: v.expire,
      level: typeof v.level === 'number' ? v.level : Level.Registered,
      user: v.user ?? null,
    };
  } catch {
    return null;
  }
}
