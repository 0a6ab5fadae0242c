import { randomBytes, randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { AuthenticationCredential, Passkey, RegistrationCredential, WebauthnOptions } from '@till/protocol';
import type { Config } from '../../config.js';
import { iso, readJson } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';
import { runInTransaction } from '../../db/transaction.js';
import { AbortTransaction, fail, Failure, type Outcome } from '../../errors.js';
import type { Caller } from '../../http/calls.js';
import type { SecurityEvents } from '../../security/security-events.js';
import { hashToken } from '../../security/tokens.js';
import { PasskeysRepo, type ChallengeKind, type PasskeyRow } from './passkeys-repo.js';
import { relyingParty } from './relying-party.js';
import type { ClientInfo } from './service.js';

/** How long a WebAuthn challenge can be answered: the browser's own timeout plus a little. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
const BROWSER_TIMEOUT_MS = 4 * 60_000;
/** More than enough for one person's devices; a cap keeps the options small. */
export const MAX_PASSKEYS = 20;

export interface PasskeysDeps {
  db: Kysely<Database>;
  config: Config;
  events: SecurityEvents;
  now: () => number;
}

/** The account a passkey assertion proved, with the passkey used. */
export interface PasskeyAssertion {
  userId: string;
  passkey: PasskeyRow;
}

/** The challenge a browser signed, read from its client data; undefined when it is not readable. */
function challengeOf(clientDataJSON: string): string | undefined {
  const data = readJson<{ challenge?: unknown }>(Buffer.from(clientDataJSON, 'base64url').toString('utf8'), {});
  return typeof data.challenge === 'string' && data.challenge.length <= 128 ? data.challenge : undefined;
}

/**
 * Passkeys: registration from the profile, sign-in with a discoverable credential alone, and the
 * list, rename and removal. Challenges are 256 random bits, kept only as a hash, taken out of the
 * table by the answer that uses them (single use) and refused after {@link CHALLENGE_TTL_MS}.
 * Verification itself is `@simplewebauthn/server`'s: origin, relying-party id hash, user presence
 * and verification flags, the signature, and the signature counter.
 */
export class PasskeysService {
  readonly repo: PasskeysRepo;

  constructor(private readonly deps: PasskeysDeps) {
    this.repo = new PasskeysRepo(deps.db);
  }

  toPasskey(row: PasskeyRow): Passkey {
    return {
      id: row.id,
      name: row.name,
      createdAt: iso(row.created_at),
      lastUsedAt: row.last_used_at != null ? iso(row.last_used_at) : null,
      transports: readJson<string[]>(row.transports, []),
      backedUp: Boolean(row.backed_up),
    };
  }

  private async newChallenge(kind: ChallengeKind, userId: string | null): Promise<Uint8Array<ArrayBuffer>> {
    const challenge = randomBytes(32);
    const now = this.deps.now();
    await this.repo.insertChallenge({
      challenge_hash: hashToken(challenge.toString('base64url')),
      kind,
      user_id: userId,
      created_at: now,
      expires_at: now + CHALLENGE_TTL_MS,
    });
    return new Uint8Array(challenge);
  }

  /** Takes the challenge the client data names out of the store; undefined when it is not a live one of this kind. */
  private async takeChallenge(
    clientDataJSON: string,
    kind: ChallengeKind,
    userId: string | null,
  ): Promise<string | undefined> {
    const challenge = challengeOf(clientDataJSON);
    if (!challenge) return undefined;
    const taken = await this.repo.consumeChallenge(hashToken(challenge), kind, userId, this.deps.now());
    return taken ? challenge : undefined;
  }

  /** Options for adding a passkey to the caller's account; the caller's passkeys are excluded. */
  async registrationOptions(caller: Caller, user: { email: string; name: string }): Promise<Outcome<WebauthnOptions>> {
    const existing = await this.repo.listByUser(caller.userId);
    if (existing.length >= MAX_PASSKEYS) return fail.invalidInput('passkeys', 'too_many');
    const rp = relyingParty(this.deps.config);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      // The user handle: the account id, which is random and names no person.
      userID: new TextEncoder().encode(caller.userId),
      userName: user.email,
      userDisplayName: user.name,
      challenge: await this.newChallenge('register', caller.userId),
      timeout: BROWSER_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({
        id: p.credential_id,
        transports: readJson<string[]>(p.transports, []),
      })),
      // Discoverable, so that it signs in without an e-mail typed first; verified, since it stands
      // alone in place of the password.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: [-7, -257],
    });
    return options as unknown as WebauthnOptions;
  }

  /** Checks the browser's answer to {@link registrationOptions} and keeps the new passkey. */
  async register(
    caller: Caller,
    input: { name: string; credential: RegistrationCredential },
    client: ClientInfo,
  ): Promise<Outcome<Passkey>> {
    // The challenge is spent before anything is checked, and stays spent whatever the outcome.
    const challenge = await this.takeChallenge(input.credential.response.clientDataJSON, 'register', caller.userId);
    if (!challenge) return fail.invalidInput('credential', 'challenge');
    const rp = relyingParty(this.deps.config);
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response: input.credential as Parameters<typeof verifyRegistrationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
    } catch {
      return fail.invalidInput('credential', 'invalid');
    }
    const info = verification.registrationInfo;
    if (!verification.verified || !info) return fail.invalidInput('credential', 'invalid');
    const outcome = await runInTransaction(this.deps.db, async (trx) => {
      if (await this.repo.findByCredentialId(info.credential.id, trx)) {
        throw new AbortTransaction(fail.invalidInput('credential', 'taken'));
      }
      const row: PasskeyRow = {
        id: randomUUID(),
        user_id: caller.userId,
        credential_id: info.credential.id,
        public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: JSON.stringify(info.credential.transports ?? input.credential.response.transports ?? []),
        name: input.name,
        device_type: info.credentialDeviceType,
        backed_up: info.credentialBackedUp ? 1 : 0,
        created_at: this.deps.now(),
        last_used_at: null,
      };
      await this.repo.insert(row, trx);
      await this.deps.events.record(
        { userId: caller.userId, kind: 'passkey_added', ...client, detail: { passkeyId: row.id, name: row.name } },
        trx,
      );
      return row;
    });
    return outcome instanceof Failure ? outcome : this.toPasskey(outcome);
  }

  /** Options for signing in with any passkey of this site: no user is named, the authenticator offers its own. */
  async signInOptions(): Promise<WebauthnOptions> {
    const rp = relyingParty(this.deps.config);
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      challenge: await this.newChallenge('signin', null),
      timeout: BROWSER_TIMEOUT_MS,
      userVerification: 'required',
    });
    return options as unknown as WebauthnOptions;
  }

  /** Options for confirming a sensitive step (deleting the account) with one of the caller's passkeys. */
  async confirmOptions(caller: Caller): Promise<Outcome<WebauthnOptions>> {
    const passkeys = await this.repo.listByUser(caller.userId);
    if (!passkeys.length) return fail.notFound('passkey');
    const rp = relyingParty(this.deps.config);
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      challenge: await this.newChallenge('confirm', caller.userId),
      timeout: BROWSER_TIMEOUT_MS,
      userVerification: 'required',
      allowCredentials: passkeys.map((p) => ({
        id: p.credential_id,
        transports: readJson<string[]>(p.transports, []),
      })),
    });
    return options as unknown as WebauthnOptions;
  }

  /**
   * Verifies an assertion for a challenge of `kind` (a sign-in's, or a confirmation made for
   * `userId`) and records the use. The challenge is spent first, whatever the outcome. Answers the account it proves, or 902 for anything that
   * does not verify: an unknown credential, a used or expired challenge, another origin or
   * relying party, a bad signature, a counter that went back (a cloned authenticator).
   */
  async verifyAssertion(
    credential: AuthenticationCredential,
    kind: 'signin' | 'confirm',
    userId: string | null,
  ): Promise<Outcome<PasskeyAssertion>> {
    const challenge = await this.takeChallenge(credential.response.clientDataJSON, kind, userId);
    if (!challenge) return fail.wrongCredentials();
    const passkey = await this.repo.findByCredentialId(credential.id);
    if (!passkey || (userId !== null && passkey.user_id !== userId)) return fail.wrongCredentials();
    // A discoverable credential names its account too: it must be the one the passkey was made for.
    const handle = credential.response.userHandle;
    if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== passkey.user_id) {
      return fail.wrongCredentials();
    }
    const rp = relyingParty(this.deps.config);
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response: credential as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: true,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
          counter: Number(passkey.counter),
          transports: readJson<string[]>(passkey.transports, []),
        },
      });
    } catch {
      return fail.wrongCredentials();
    }
    if (!verification.verified) return fail.wrongCredentials();
    const recorded = await this.repo.recordUse(
      passkey.id,
      Number(passkey.counter),
      verification.authenticationInfo.newCounter,
      this.deps.now(),
    );
    if (!recorded) return fail.wrongCredentials();
    return { userId: passkey.user_id, passkey };
  }

  async list(caller: Caller): Promise<Passkey[]> {
    return (await this.repo.listByUser(caller.userId)).map((p) => this.toPasskey(p));
  }

  async rename(caller: Caller, id: string, name: string, client: ClientInfo): Promise<Outcome<Passkey>> {
    const outcome = await runInTransaction(this.deps.db, async (trx) => {
      const row = await this.repo.rename(id, caller.userId, name, trx);
      if (!row) throw new AbortTransaction(fail.notFound('id'));
      await this.deps.events.record(
        { userId: caller.userId, kind: 'passkey_renamed', ...client, detail: { passkeyId: id, name } },
        trx,
      );
      return row;
    });
    return outcome instanceof Failure ? outcome : this.toPasskey(outcome);
  }

  async remove(caller: Caller, id: string, client: ClientInfo): Promise<Outcome<object>> {
    const outcome = await runInTransaction(this.deps.db, async (trx) => {
      const row = await this.repo.remove(id, caller.userId, trx);
      if (!row) throw new AbortTransaction(fail.notFound('id'));
      await this.deps.events.record(
        { userId: caller.userId, kind: 'passkey_removed', ...client, detail: { passkeyId: id, name: row.name } },
        trx,
      );
      return row;
    });
    return outcome instanceof Failure ? outcome : {};
  }
}
