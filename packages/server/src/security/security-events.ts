import type { Executor } from '../db/rows.js';

/** What happened to an account that its owner (and administrators) may want to see later. */
export type SecurityEventKind =
  'passkey_added' | 'passkey_renamed' | 'passkey_removed' | 'passkey_signin' | 'account_deleted';

/** One event; `detail` holds names and ids only, never a secret, a token or a key. */
export interface SecurityEvent {
  userId: string;
  kind: SecurityEventKind;
  ip?: string | null;
  userAgent?: string | null;
  /** Who acted when it was not the user (an administrator). */
  actorId?: string | null;
  detail?: Record<string, string | number | boolean | null>;
}

/**
 * Where security events go. Services call it with the transaction of the change, so that an event
 * is recorded exactly when its change commits.
 */
export interface SecurityEvents {
  record(event: SecurityEvent, trx?: Executor): Promise<void>;
}
