import type { Executor, SecurityEvent, SecurityEventKind, SecurityEvents } from '@till/server/testing';

/** Keeps the security events it is given, and whether each came inside a transaction. */
export class RecordedSecurityEvents implements SecurityEvents {
  readonly events: (SecurityEvent & { inTransaction: boolean })[] = [];

  record(event: SecurityEvent, trx?: Executor): Promise<void> {
    this.events.push({ ...event, inTransaction: Boolean(trx?.isTransaction) });
    return Promise.resolve();
  }

  /** The kinds recorded for a user, oldest first. */
  kinds(userId: string): SecurityEventKind[] {
    return this.events.filter((e) => e.userId === userId).map((e) => e.kind);
  }
}
