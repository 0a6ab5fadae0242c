import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SecurityEventKind, SecurityLogEntry } from '@till/protocol';
import { iso, pageOf, readJson, type Executor } from '../../db/rows.js';
import { preparedInsert } from '../../db/prepared.js';
import type { Database, SecurityLogTable } from '../../db/schema.js';
import { purgeDeviceTokens } from './device-tokens.js';
import { describeDevice, forgetDevices } from './devices.js';

export type { SecurityEventKind } from '@till/protocol';

/** Plain values only: the detail is shown to the user and to administrators as it is. */
export type SecurityDetail = Record<string, string | number | boolean | null>;

/**
 * One event for a user's security log. `actorId` is set when someone else (an administrator) acted
 * on the account; `ip` and `userAgent` are the request's, when there was one.
 *
 * @example
 * await log.write({ userId, kind: 'passkey_added', ip, userAgent, detail: { name: 'Laptop' } }, trx);
 */
export interface SecurityEventInput {
  userId: string;
  kind: SecurityEventKind;
  ip?: string | null | undefined;
  userAgent?: string | null | undefined;
  actorId?: string | null | undefined;
  detail?: SecurityDetail | undefined;
}

/** What another module needs to report events: the writer alone (the passkeys and deletion code use it). */
export interface SecurityEvents {
  write(input: SecurityEventInput, trx?: Executor): Promise<void>;
}

const DAY = 86_400_000;

let lastAt = 0;
let sequence = 0;

/**
 * An id that sorts as the entries were written: the time, a counter within the millisecond, then
 * random bits (unique across server copies). Entries of one moment (a failed code, then the right
 * one) then list in the order they happened.
 */
function entryId(at: number): string {
  sequence = at === lastAt ? sequence + 1 : 0;
  lastAt = at;
  return `${at.toString(16).padStart(12, '0')}-${sequence.toString(16).padStart(4, '0')}-${randomBytes(8).toString('hex')}`;
}

/** Every sign-in writes an entry: prepared, as the sign-in's other statements are. */
const insertEntry = preparedInsert<SecurityLogTable>('security_log', {
  id: 1,
  user_id: 1,
  kind: 1,
  at: 1,
  ip: 1,
  user_agent: 1,
  actor_id: 1,
  detail: 1,
});

/**
 * Writes and reads the per-user security log. A write inside the caller's transaction (`trx`) stands
 * or falls with the change it records.
 */
export class SecurityLog implements SecurityEvents {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly retentionDays: number,
  ) {}

  async write(input: SecurityEventInput, trx?: Executor): Promise<void> {
    const at = this.now();
    await insertEntry(trx ?? this.db, [
      {
        id: entryId(at),
        user_id: input.userId,
        kind: input.kind,
        at,
        ip: input.ip ?? null,
        // Capped as sessions cap it: a user agent is the client's to choose and could be huge.
        user_agent: input.userAgent?.slice(0, 300) ?? null,
        actor_id: input.actorId ?? null,
        detail: input.detail && Object.keys(input.detail).length ? JSON.stringify(input.detail) : null,
      },
    ]);
  }

  /** A user's entries, newest first, as the protocol shows them (the device as browser and system). */
  async list(
    userId: string,
    page: { page: number; pageSize: number },
  ): Promise<{ entries: SecurityLogEntry[]; total: number }> {
    const { offset, limit } = pageOf(page);
    const q = this.db.selectFrom('security_log').where('user_id', '=', userId);
    const rows = await q.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
    const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return {
      entries: rows.map((row) => ({
        id: row.id,
        kind: row.kind as SecurityEventKind,
        at: iso(row.at),
        ip: row.ip,
        device: row.user_agent ? describeDevice(row.user_agent) : null,
        actorId: row.actor_id,
        detail: readJson<SecurityDetail>(row.detail, {}),
      })),
      total: Number(count.n),
    };
  }

  /**
   * Removes entries older than the retention time, and the devices and device tokens not used for as long; answers
   * how many went (the housekeeping job).
   */
  async purge(now: number): Promise<number> {
    const before = now - this.retentionDays * DAY;
    const res = await this.db.deleteFrom('security_log').where('at', '<', before).executeTakeFirst();
    return (
      Number(res.numDeletedRows) + (await forgetDevices(this.db, before)) + (await purgeDeviceTokens(this.db, before))
    );
  }
}
