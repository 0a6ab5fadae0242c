import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { User } from '@till/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import type { Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import type { Mailer } from '../../mail/mailer.js';
import type { PasswordHasher } from '../../security/passwords.js';
import type { Limiter } from '../../security/rate-limit.js';
import type { SecurityEvents } from '../../security/security-events.js';
import type { SessionFields, SessionUser } from './repo.js';

/** The accounts module's settings and the shapes its flows share. */

const HOUR = 3_600_000;

export const RESET_LINK_TTL_MS = 1 * HOUR;
/** How often a session's last use is written at most (see `callerOf`). */
export const TOUCH_INTERVAL_MS = 60_000;
export const CONFIRM_LINK_TTL_MS = 24 * HOUR;

/** The budgets the account calls spend. */
export interface AccountLimiters {
  loginPerIp: Limiter;
  /** Failures per account and client address. */
  loginFailuresFromIp: Limiter;
  /** Failures per account, from anywhere but its known devices. */
  loginFailures: Limiter;
  /** Failures per device token (a device that signed in to the account before). */
  loginFailuresFromDevice: Limiter;
  registerPerIp: Limiter;
  mailPerIp: Limiter;
  mailPerAddress: Limiter;
  /** Password resets per client address, and tries per reset token. */
  resetPerIp: Limiter;
  resetPerToken: Limiter;
  /** Confirmations per client address, and tries per confirmation token. */
  confirmPerIp: Limiter;
  confirmPerToken: Limiter;
}

export interface AccountsDeps {
  db: Kysely<Database>;
  /** Hot-path reads outside transactions (see `Db.read`). */
  read?: Db['read'];
  /** When the hot-path reads may be answered again (see `Db.version`). */
  version?: Db['version'];
  config: Config;
  mailer: Mailer;
  limiters: AccountLimiters;
  log: FastifyBaseLogger;
  avatars?: Avatars | undefined;
  /** Balances, which the store owns: shown with the account, opened with it. */
  balances?: Balances | undefined;
  /** Where passkey changes and sign-ins are recorded. */
  events: SecurityEvents;
  now?: () => number;
  /** How passwords are hashed (the production settings unless a test server says otherwise). */
  passwords?: PasswordHasher | undefined;
}

/** Why a signed-in user's password was asked for, as the security log records a wrong one. */
export type PasswordCheckPurpose = 'profile' | 'totp_enable' | 'totp_disable' | 'delete' | 'step_up';

/**
 * How long a proof of the password (and second factor) on a session stands for credential changes
 * and administrators' sensitive actions: long enough to finish the change, short enough that a
 * session left open or taken over is not enough.
 */
export const STEP_UP_TTL_S = 300;

/** Request facts kept with a session. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/** A fresh session: the opaque token and its lifetime in seconds. */
export interface IssuedSession {
  token: string;
  expire: number;
  user: User;
  /** The device's token for later logins (see `device-tokens.ts`); answered by sign-ins. */
  deviceToken?: string;
}

/** A device token a login carried that is live for its account: the token and its hash. */
export type KnownDevice = { token: string; hash: string } | undefined;

/**
 * Where avatars come from: uploaded files, which this module does not own. The app hands in the
 * files module's implementation; without one, `avatarFileId` is refused as not found.
 */
export interface Avatars {
  /** Checks the user's uploaded image, stores its avatar copy and answers that copy's key. */
  make(userId: string, fileId: string): Promise<Outcome<string>>;
  /** The link to a stored avatar copy. */
  url(key: string): string;
  /** Removes an avatar copy that is no longer used. */
  remove(key: string): Promise<void>;
}

/**
 * Where a user's credit balance comes from: the store's, which this module does not own. The app
 * hands in the store's implementation; without one, every balance shows as 0.
 */
export interface Balances {
  /** The user's balance; undefined for a user without one. Answered at once when it is kept. */
  of(userId: string): number | undefined | Promise<number | undefined>;
  /** The balances of several users (a user without one is left out). */
  ofMany(userIds: readonly string[]): Promise<Map<string, number>>;
  /** Opens a new account's balance at zero, in the transaction that creates the account. */
  open(trx: Kysely<Database>, userId: string): Promise<void>;
}

// The user row read with the session rides on the caller for the rest of that request, so that
// getUserInfo needs no second query. A symbol keeps it out of sight of other modules and of JSON;
// a WeakMap did the same but cost the collector visibly under load.
export const LOADED = Symbol('loaded user');
export type LoadedCaller = Caller & { [LOADED]?: SessionUser & Partial<SessionFields> };

/** Registration, login, links, profile and sessions. */
