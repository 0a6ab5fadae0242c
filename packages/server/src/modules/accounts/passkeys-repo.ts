import type { Kysely, Selectable } from 'kysely';
import type { Executor } from '../../db/rows.js';
import type { Database, PasskeysTable, WebauthnChallengesTable } from '../../db/schema.js';

export type PasskeyRow = Selectable<PasskeysTable>;
export type ChallengeKind = WebauthnChallengesTable['kind'];

/** SQL for passkeys and their one-time challenges. Every method takes an optional transaction. */
export class PasskeysRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private x(trx?: Executor): Executor {
    return trx ?? this.db;
  }

  async insertChallenge(row: WebauthnChallengesTable, trx?: Executor): Promise<void> {
    await this.x(trx).insertInto('webauthn_challenges').values(row).execute();
  }

  /**
   * Takes a live challenge of this kind (and user, where it was made for one) out of the table and
   * answers whether there was one: a single DELETE, so two answers racing on one challenge cannot
   * both be accepted.
   */
  async consumeChallenge(
    hash: string,
    kind: ChallengeKind,
    userId: string | null,
    now: number,
    trx?: Executor,
  ): Promise<boolean> {
    let q = this.x(trx)
      .deleteFrom('webauthn_challenges')
      .where('challenge_hash', '=', hash)
      .where('kind', '=', kind)
      .where('expires_at', '>', now);
    q = userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', userId);
    const res = await q.executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  async purgeChallenges(now: number): Promise<number> {
    const res = await this.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async insert(row: PasskeysTable, trx?: Executor): Promise<void> {
    await this.x(trx).insertInto('passkeys').values(row).execute();
  }

  listByUser(userId: string, trx?: Executor): Promise<PasskeyRow[]> {
    return this.x(trx)
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  findByCredentialId(credentialId: string, trx?: Executor): Promise<PasskeyRow | undefined> {
    return this.x(trx).selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
  }

  findOwned(id: string, userId: string, trx?: Executor): Promise<PasskeyRow | undefined> {
    return this.x(trx)
      .selectFrom('passkeys')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Records a use: the new signature counter and the time. The counter only moves forward, so of
   * two assertions racing with the same counter value only one is recorded as a use.
   */
  async recordUse(id: string, previous: number, next: number, now: number, trx?: Executor): Promise<boolean> {
    const res = await this.x(trx)
      .updateTable('passkeys')
      .set({ counter: next, last_used_at: now })
      .where('id', '=', id)
      .where('counter', '=', previous)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async rename(id: string, userId: string, name: string, trx?: Executor): Promise<PasskeyRow | undefined> {
    return this.x(trx)
      .updateTable('passkeys')
      .set({ name })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  remove(id: string, userId: string, trx?: Executor): Promise<PasskeyRow | undefined> {
    return this.x(trx)
      .deleteFrom('passkeys')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Every passkey and pending challenge of a user (their account is being deleted); answers how many passkeys. */
  async removeAllOf(userId: string, trx?: Executor): Promise<number> {
    await this.x(trx).deleteFrom('webauthn_challenges').where('user_id', '=', userId).execute();
    const res = await this.x(trx).deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
