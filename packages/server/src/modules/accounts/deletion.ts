import type { AuthenticationCredential } from '@till/protocol';
import type { Executor } from '../../db/rows.js';
import { AbortTransaction, fail, Failure, type Outcome } from '../../errors.js';
import type { PasskeysService } from './passkeys.js';
import type { UserRow } from './repo.js';
import type { AccountsService, ClientInfo } from './service.js';

/** What a deletion is confirmed with. */
export interface DeletionProof {
  /** The e-mail address of the account being deleted, typed out (any case). */
  confirm: string;
  /** The deleting person's current password... */
  password?: string | undefined;
  /** ...or an assertion of one of their passkeys, for a challenge from confirmOptions. */
  passkey?: AuthenticationCredential | undefined;
  /** With the password, when the deleting person's second factor is on: a code or a recovery code. */
  code?: string | undefined;
  recoveryCode?: string | undefined;
}

/** What is left of an account's personal data once erased: enough for the goodbye mail and the storage clean-up. */
export interface ErasedAccount {
  userId: string;
  email: string;
  name: string;
  lang: string;
  avatarKey: string | null;
}

/** The address a deleted account's row gets: unique, in a reserved domain, so never a real one and free for reuse. */
export function tombstoneEmail(userId: string): string {
  return `${userId}@deleted.invalid`;
}

/**
 * Whether `actor` may delete `target`'s account now: the one place that checks a deletion's
 * confirmation (a second factor adds its check here). The typed confirmation must be the target's
 * e-mail address, so that nobody deletes an account by a slip, and for an administrator names the
 * account meant. The actor then proves who they are, as at sign-in: their password (spending the
 * login's failure budget, so that a stolen session cannot guess it), or a passkey assertion made
 * for this purpose in the last 5 minutes (which also proves user verification on the device).
 */
export async function checkDeletionProof(
  accounts: AccountsService,
  passkeys: PasskeysService,
  target: UserRow,
  actor: UserRow,
  proof: DeletionProof,
  client: ClientInfo,
): Promise<Outcome<void>> {
  if (proof.confirm.trim().toLowerCase() !== target.email) return fail.invalidInput('confirm', 'mismatch');
  if (proof.passkey) {
    const proved = await passkeys.verifyAssertion(proof.passkey, 'confirm', actor.id);
    return proved instanceof Failure ? proved : undefined;
  }
  if (!proof.password) return fail.invalidInput('password', 'required');
  const checked = await accounts.checkCurrentPassword(actor, proof.password, client, 'delete');
  if (checked) return checked;
  // A password is one factor: with a second one on, its code (or a recovery code) comes too, spent
  // once like a sign-in's. A passkey above needs none: it is possession and user verification at once.
  // The code spends a point of its own, as the second step of a sign-in does.
  if (await accounts.factors.isEnabled(actor.id)) {
    if (proof.code === undefined && proof.recoveryCode === undefined) return fail.invalidInput('code', 'required');
    const spent = await accounts.spendFailure(actor.email, client.ip);
    if (spent) return spent;
    const method = await accounts.factors.spend(actor.id, { code: proof.code, recoveryCode: proof.recoveryCode });
    if (!method) return fail.invalidInput(proof.code !== undefined ? 'code' : 'recoveryCode', 'invalid');
    if (method === 'recovery_code')
      await accounts.securityLog.write({ userId: actor.id, kind: 'recovery_code_used', ...client });
    await accounts.forgiveFailure(actor.email, client.ip);
  }
  return undefined;
}

/**
 * Erases an account's personal data in `trx`: every session, link token, passkey and challenge
 * goes; the user row stays as a tombstone (orders, ledger entries and entitlements point at it, and
 * its balance must keep matching the ledger), with the e-mail replaced by {@link tombstoneEmail},
 * name, pending e-mail and avatar cleared, and a password hash that no password matches. Answers
 * what the clean-up after the commit needs; 904 when there is no such live account.
 */
export async function eraseAccount(
  accounts: AccountsService,
  passkeys: PasskeysService,
  userId: string,
  now: number,
  trx: Executor,
): Promise<ErasedAccount> {
  // The row is read and marked by one guarded update, so two deletions racing erase it once.
  const row = await accounts.repo.findUserById(userId, trx);
  if (!row || row.deleted_at != null) throw new AbortTransaction(fail.notFound('userId'));
  const marked = await trx
    .updateTable('users')
    .set({
      email: tombstoneEmail(userId),
      name: '',
      pending_email: null,
      avatar_file_id: null,
      avatar_key: null,
      // Not an argon2 hash: verification of any password fails.
      password_hash: '!deleted',
      email_confirmed: 0,
      level: 1,
      deleted_at: now,
      updated_at: now,
    })
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1) throw new AbortTransaction(fail.notFound('userId'));
  await accounts.repo.deleteOtherSessions(userId, null, trx);
  await trx.deleteFrom('link_tokens').where('user_id', '=', userId).execute();
  await passkeys.repo.removeAllOf(userId, trx);
  // The second factor, its codes and challenges, and the devices seen go; the security log keeps
  // what happened and when, without the addresses and browsers it was seen from or any detail.
  for (const table of [
    'user_totp',
    'recovery_codes',
    'login_challenges',
    'known_devices',
    'device_tokens',
    'social_identities',
    'social_flows',
  ] as const)
    await trx.deleteFrom(table).where('user_id', '=', userId).execute();
  // Details hold addresses (an e-mail change's old and new ones), passkey names and reasons: only the
  // kinds and times stay.
  await trx
    .updateTable('security_log')
    .set({ ip: null, user_agent: null, detail: null })
    .where('user_id', '=', userId)
    .execute();
  return { userId, email: row.email, name: row.name, lang: row.lang, avatarKey: row.avatar_key };
}
