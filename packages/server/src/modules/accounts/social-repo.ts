import type { Kysely } from 'kysely';
import { readJson, type Executor } from '../../db/rows.js';
import type { Database, SocialFlowsTable, SocialIdentitiesTable } from '../../db/schema.js';
import { hashToken, newToken } from '../../security/tokens.js';

export type SocialIdentityRow = SocialIdentitiesTable;

/**
 * What a single-use value stands for: a web flow's `state` (its PKCE verifier and nonce), a native
 * sign-in's `nonce`, the `ticket` a browser comes back with, a pending `link` (915), a link's
 * mailed confirmation (`link_mail`), and the ticket a signed-in session's connect flow comes back
 * with (`connect`); and the id of each Apple notification applied (`apple_event`), so that none applies twice.
 */
export type SocialFlowKind = 'state' | 'nonce' | 'ticket' | 'link' | 'link_mail' | 'connect' | 'apple_event';

/** The social tables: linked identities and the single-use values of flows in progress. */
export class SocialRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private x(trx?: Executor): Executor {
    return trx ?? this.db;
  }

  /** Keeps a new single-use value of `kind` (only its hash is stored) and answers it. */
  async issue(
    kind: SocialFlowKind,
    provider: string,
    data: object,
    now: number,
    ttlMs: number,
    userId: string | null = null,
    trx?: Executor,
  ): Promise<string> {
    const value = newToken();
    await this.x(trx)
      .insertInto('social_flows')
      .values({
        value_hash: hashToken(value),
        kind,
        provider,
        user_id: userId,
        data: JSON.stringify(data),
        created_at: now,
        expires_at: now + ttlMs,
      })
      .execute();
    return value;
  }

  /** A live value of `kind`, without spending it. */
  async peek<T>(
    kind: SocialFlowKind,
    value: string,
    now: number,
  ): Promise<(SocialFlowsTable & { fields: T }) | undefined> {
    const row = await this.db
      .selectFrom('social_flows')
      .selectAll()
      .where('value_hash', '=', hashToken(value))
      .where('kind', '=', kind)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && { ...row, fields: readJson<T>(row.data, {} as T) };
  }

  /**
   * Spends a live value of `kind`: answers what it stood for to the one caller whose delete removed
   * it, so that two requests racing with one value cannot both use it.
   */
  async take<T>(
    kind: SocialFlowKind,
    value: string,
    now: number,
    trx?: Executor,
  ): Promise<(SocialFlowsTable & { fields: T }) | undefined> {
    const hash = hashToken(value);
    const row = await this.x(trx)
      .selectFrom('social_flows')
      .selectAll()
      .where('value_hash', '=', hash)
      .where('kind', '=', kind)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    const gone = await this.x(trx).deleteFrom('social_flows').where('value_hash', '=', hash).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) return undefined;
    return { ...row, fields: readJson<T>(row.data, {} as T) };
  }

  async findIdentity(provider: string, subject: string, trx?: Executor): Promise<SocialIdentityRow | undefined> {
    return this.x(trx)
      .selectFrom('social_identities')
      .selectAll()
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  async insertIdentity(row: SocialIdentityRow, trx?: Executor): Promise<void> {
    await this.x(trx).insertInto('social_identities').values(row).execute();
  }

  async touchIdentity(id: string, now: number): Promise<void> {
    await this.db.updateTable('social_identities').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  async listByUser(userId: string, trx?: Executor): Promise<SocialIdentityRow[]> {
    return this.x(trx)
      .selectFrom('social_identities')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  async remove(id: string, userId: string, trx: Executor): Promise<SocialIdentityRow | undefined> {
    const row = await trx
      .selectFrom('social_identities')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return undefined;
    await trx.deleteFrom('social_identities').where('id', '=', id).execute();
    return row;
  }

  /** Removes values past their time; answers how many. */
  async purge(now: number): Promise<number> {
    const res = await this.db.deleteFrom('social_flows').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
