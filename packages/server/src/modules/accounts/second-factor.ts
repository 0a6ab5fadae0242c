import type { Kysely } from 'kysely';
import type { SecondFactorStatusData } from '@till/protocol';
import { iso } from '../../db/rows.js';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { runInTransaction } from '../../db/transaction.js';
import { AbortTransaction, fail, type Outcome } from '../../errors.js';
import { hashToken, newToken } from '../../security/tokens.js';
import type { SecurityLog } from './security-log.js';
import { matchStep, newRecoveryCodes, newTotpSecret, recoveryCodeHash, SecretBox } from './totp.js';

const enabledAt = prepared<{ userId: string }, { enabled_at: number | null }>((db, p) =>
  db.selectFrom('user_totp').select('enabled_at').where('user_id', '=', p('userId')),
);

/** How long the step between the password and the code may take. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Codes tried on one challenge before it is spent (the failure limits bound it across challenges too). */
export const CHALLENGE_ATTEMPTS = 5;

/** A TOTP code or a recovery code, as the calls take them (already normalised by the protocol's schemas). */
export interface FactorProof {
  code?: string | undefined;
  recoveryCode?: string | undefined;
}

/** How a proof was accepted. */
export type ProofMethod = 'totp' | 'recovery_code';

/**
 * The TOTP second factor: its secret (sealed at rest), the replay guard (the last time step used),
 * recovery codes (hashed, single use) and login challenges (random, hashed, single use, short-lived).
 * Every acceptance is one conditional write, so two requests racing with one code, one recovery code
 * or one challenge cannot both win.
 */
export class SecondFactor {
  private readonly box: SecretBox;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    keyMaterial: string,
    private readonly log: SecurityLog,
  ) {
    this.box = new SecretBox(keyMaterial);
  }

  /** Asked at every password sign-in. */
  async isEnabled(userId: string): Promise<boolean> {
    const [row] = (await enabledAt(this.db, { userId })).rows;
    return row?.enabled_at != null;
  }

  async status(userId: string): Promise<SecondFactorStatusData> {
    const [row] = (await enabledAt(this.db, { userId })).rows;
    const left = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    const enabled = row?.enabled_at != null;
    return {
      totp: {
        enabled,
        enabledAt: row?.enabled_at != null ? iso(Number(row.enabled_at)) : null,
        recoveryCodesLeft: enabled ? Number(left.n) : 0,
      },
    };
  }

  /** A new secret, kept pending until {@link enable}; 912 `enabled` while one is on. */
  async setup(userId: string, label: string): Promise<Outcome<{ secret: string; uri: string }>> {
    if (await this.isEnabled(userId)) return fail.conflict('enabled');
    const fresh = newTotpSecret(label);
    const now = this.now();
    await this.db
      .insertInto('user_totp')
      .values({
        user_id: userId,
        secret_enc: this.box.seal(fresh.secret),
        enabled_at: null,
        last_step: null,
        created_at: now,
      })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ secret_enc: this.box.seal(fresh.secret), last_step: null, created_at: now })
          .where('user_totp.enabled_at', 'is', null),
      )
      .execute();
    return fresh;
  }

  /**
   * Turns the pending secret on with a code from it, and answers ten new recovery codes. The
   * caller has checked the password. 912 `not_set_up` without a pending secret; 907 `code` for a
   * code that does not match.
   */
  async enable(
    userId: string,
    code: string,
    client: ClientFacts,
    alongside?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<Outcome<{ recoveryCodes: string[] }>> {
    const row = await this.db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return fail.conflict('not_set_up');
    if (row.enabled_at != null) return fail.conflict('enabled');
    const secret = this.box.open(row.secret_enc);
    const now = this.now();
    const step = secret ? matchStep(secret, code, now) : null;
    if (step === null) return fail.invalidInput('code', 'invalid');
    const codes = newRecoveryCodes();
    return runInTransaction(this.db, async (trx) => {
      const on = await trx
        .updateTable('user_totp')
        .set({ enabled_at: now, last_step: step })
        .where('user_id', '=', userId)
        .where('enabled_at', 'is', null)
        .where('secret_enc', '=', row.secret_enc)
        .executeTakeFirst();
      // Another request enabled it, or a new setup replaced the secret meanwhile.
      if (Number(on.numUpdatedRows) !== 1) throw new AbortTransaction(fail.conflict('enabled'));
      await replaceRecoveryCodes(trx, userId, codes, now);
      await this.log.write({ userId, kind: 'totp_enabled', ...client }, trx);
      await alongside?.(trx);
      return { recoveryCodes: codes };
    });
  }

  /**
   * Replaces the user's recovery codes, used or not, with ten new ones (the format and hashing of
   * {@link enable}), logged in the same transaction; answers the new codes. 912 `not_enabled` when
   * the second factor is off. The caller has checked the step-up proof.
   */
  async renewRecoveryCodes(userId: string, client: ClientFacts): Promise<Outcome<{ recoveryCodes: string[] }>> {
    const codes = newRecoveryCodes();
    const now = this.now();
    return runInTransaction(this.db, async (trx) => {
      // The factor's row is written first, and holds its lock until the commit: a renewal racing
      // this one waits here, then replaces this set instead of adding its own beside it. The same
      // write finds a factor turned off meanwhile.
      const on = await trx
        .updateTable('user_totp')
        .set((eb) => ({ enabled_at: eb.ref('enabled_at') }))
        .where('user_id', '=', userId)
        .where('enabled_at', 'is not', null)
        .executeTakeFirst();
      if (Number(on.numUpdatedRows) !== 1) throw new AbortTransaction(fail.conflict('not_enabled'));
      await replaceRecoveryCodes(trx, userId, codes, now);
      await this.log.write({ userId, kind: 'recovery_codes_renewed', ...client }, trx);
      return { recoveryCodes: codes };
    });
  }

  /**
   * Checks a proof against the user's second factor and spends it: a TOTP code only for a time step
   * after the last one used (no replay within or across windows), a recovery code once. Answers how
   * it was accepted, or null. Runs inside the caller's transaction when given one.
   */
  async spend(userId: string, proof: FactorProof, trx?: Kysely<Database>): Promise<ProofMethod | null> {
    const db = trx ?? this.db;
    const now = this.now();
    if (proof.code !== undefined) {
      const row = await db
        .selectFrom('user_totp')
        .select(['secret_enc', 'enabled_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (row?.enabled_at == null) return null;
      const secret = this.box.open(row.secret_enc);
      const step = secret ? matchStep(secret, proof.code, now) : null;
      if (step === null) return null;
      const taken = await db
        .updateTable('user_totp')
        .set({ last_step: step })
        .where('user_id', '=', userId)
        .where('enabled_at', 'is not', null)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return Number(taken.numUpdatedRows) === 1 ? 'totp' : null;
    }
    if (proof.recoveryCode !== undefined) {
      const used = await db
        .updateTable('recovery_codes')
        .set({ used_at: now })
        .where('code_hash', '=', recoveryCodeHash(userId, proof.recoveryCode))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1 ? 'recovery_code' : null;
    }
    return null;
  }

  /** Removes the second factor, its recovery codes and open challenges; answers whether one was on. */
  async remove(userId: string, trx: Kysely<Database>): Promise<boolean> {
    const gone = await trx.deleteFrom('user_totp').where('user_id', '=', userId).executeTakeFirst();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('login_challenges').where('user_id', '=', userId).execute();
    return Number(gone.numDeletedRows) > 0;
  }

  /** A new login challenge for a user whose password was right: the token (stored hashed) and its lifetime in seconds. */
  async newChallenge(userId: string): Promise<{ challenge: string; expire: number }> {
    const challenge = newToken();
    const now = this.now();
    await this.db
      .insertInto('login_challenges')
      .values({
        token_hash: hashToken(challenge),
        user_id: userId,
        created_at: now,
        expires_at: now + CHALLENGE_TTL_MS,
        used_at: null,
      })
      .execute();
    return { challenge, expire: CHALLENGE_TTL_MS / 1000 };
  }

  /**
   * Counts a try on a live challenge and answers its user, or 911 when the challenge is unknown,
   * expired, used, or out of tries. The count is one guarded update, so tries racing on one
   * challenge cannot go past the limit.
   */
  async tryChallenge(challenge: string): Promise<Outcome<string>> {
    const row = await this.db
      .updateTable('login_challenges')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('token_hash', '=', hashToken(challenge))
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.now())
      .where('attempts', '<', CHALLENGE_ATTEMPTS)
      .returning('user_id')
      .executeTakeFirst();
    return row ? row.user_id : fail.badLinkToken();
  }

  /**
   * Spends the challenge and the proof together: both or neither. 911 when another request spent the
   * challenge first, 902 when the proof does not hold (the challenge then stays for another try).
   */
  async complete(challenge: string, userId: string, proof: FactorProof): Promise<Outcome<ProofMethod>> {
    const now = this.now();
    return runInTransaction(this.db, async (trx) => {
      const spent = await trx
        .updateTable('login_challenges')
        .set({ used_at: now })
        .where('token_hash', '=', hashToken(challenge))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) throw new AbortTransaction(fail.badLinkToken());
      const method = await this.spend(userId, proof, trx);
      if (!method) throw new AbortTransaction(fail.wrongCredentials());
      return method;
    });
  }

  /** Removes challenges past their end or used (the housekeeping job). */
  async purge(now: number): Promise<number> {
    const res = await this.db
      .deleteFrom('login_challenges')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null)]))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

/** Removes every recovery code of the user and stores `codes` (as shown, dashes and all) hashed instead. */
async function replaceRecoveryCodes(
  trx: Kysely<Database>,
  userId: string,
  codes: string[],
  now: number,
): Promise<void> {
  await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('recovery_codes')
    .values(
      codes.map((c) => ({
        code_hash: recoveryCodeHash(userId, c.replace(/-/g, '')),
        user_id: userId,
        created_at: now,
        used_at: null,
      })),
    )
    .execute();
}

/** The request facts a log entry keeps. */
export interface ClientFacts {
  ip?: string | null;
  userAgent?: string | null;
}
