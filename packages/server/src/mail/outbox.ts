import { randomUUID } from 'node:crypto';
import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Executor } from '../db/rows.js';
import type { Database, MailOutboxTable } from '../db/schema.js';

export type OutboxRow = Selectable<MailOutboxTable>;

/** A mail to queue: what it is about (`key`, once), its kind, its reader, and what it says. */
export interface QueuedMail {
  key: string;
  kind: string;
  userId: string;
  orderId?: string | null;
  data?: Record<string, unknown>;
  /** Not sent before (epoch ms); now when left out. */
  dueAt?: number;
}

/** How long one instance holds a mail it is sending before another may try. */
export const CLAIM_MS = 5 * 60_000;
/** Attempts after which a mail is left for an administrator (the row stays, with its last error). */
export const MAX_ATTEMPTS = 12;

/**
 * Queues a mail in the caller's transaction, so that it exists exactly when its cause committed.
 * Answers its id, or undefined when a mail with that key was queued before (the cause was applied
 * already): one cause, one mail.
 */
export async function queueMail(x: Executor, mail: QueuedMail, now: number): Promise<string | undefined> {
  const row = await x
    .insertInto('mail_outbox')
    .values({
      id: randomUUID(),
      key: mail.key,
      kind: mail.kind,
      user_id: mail.userId,
      order_id: mail.orderId ?? null,
      data: JSON.stringify(mail.data ?? {}),
      created_at: now,
      due_at: mail.dueAt ?? now,
      claimed_until: null,
      last_error: null,
      sent_at: null,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * A condition for another module's query: no mail has been queued under `prefix` followed by `id`
 * (the key of a cause), so that the query need not name the outbox.
 */
export function noMailQueued(prefix: string, id: Expression<string>): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from mail_outbox m where m.key = cast(${prefix} as text) || ${id})`;
}

/** Makes a held mail due now (its cause was confirmed). */
export async function releaseMail(x: Executor, key: string, now: number): Promise<string | undefined> {
  const row = await x
    .updateTable('mail_outbox')
    .set({ due_at: now })
    .where('key', '=', key)
    .where('sent_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Takes back a mail not yet sent whose cause was undone, in the transaction that undoes it. */
export async function dropMail(x: Executor, key: string): Promise<void> {
  await x.deleteFrom('mail_outbox').where('key', '=', key).where('sent_at', 'is', null).execute();
}

/**
 * The queue as a sender sees it. Sending is at least once: a mail is claimed (one conditional
 * update, so two instances never send it at once), sent, then marked sent; a sender that dies
 * between the SMTP answer and the mark leaves the claim to run out, and the mail goes again.
 */
export class MailOutbox {
  constructor(private readonly db: Kysely<Database>) {}

  /** Ids of mails due and not held, oldest first. */
  async due(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('sent_at', 'is', null)
      .where('due_at', '<=', now)
      .where('attempts', '<', MAX_ATTEMPTS)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Holds a due mail for this sender; undefined when it is sent, not due, or held by another. */
  async claim(id: string, now: number): Promise<OutboxRow | undefined> {
    return this.db
      .updateTable('mail_outbox')
      .set((eb) => ({ claimed_until: now + CLAIM_MS, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('sent_at', 'is', null)
      .where('due_at', '<=', now)
      .where('attempts', '<', MAX_ATTEMPTS)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  async sent(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({ sent_at: now, claimed_until: null, last_error: null })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Deletes mails sent before `before`, at most `limit` of them (oldest first), and answers how many.
   * A mail not sent yet, or left after its last attempt failed, stays: only a sent one has done its work.
   */
  async prune(before: number, limit: number): Promise<number> {
    const old = this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('sent_at', 'is not', null)
      .where('sent_at', '<', before)
      .orderBy('sent_at')
      .limit(limit);
    const gone = await this.db.deleteFrom('mail_outbox').where('id', 'in', old).executeTakeFirst();
    return Number(gone.numDeletedRows);
  }

  /** The attempt failed: the mail is due again after a pause that grows with its attempts. */
  async failed(row: Pick<OutboxRow, 'id' | 'attempts'>, now: number, error: string): Promise<void> {
    const pause = Math.min(60_000 * 2 ** Math.max(0, row.attempts - 1), 6 * 3_600_000);
    await this.db
      .updateTable('mail_outbox')
      .set({ claimed_until: null, due_at: now + pause, last_error: error.slice(0, 500) })
      .where('id', '=', row.id)
      .execute();
  }
}
