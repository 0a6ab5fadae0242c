import {
  authSuccess,
  dataResponse,
  Level,
  PasskeyPaths,
  passkeyRegisterRequest,
  passkeyRemoveRequest,
  passkeyRenameRequest,
  passkeyResponse,
  passkeySignInRequest,
  passkeysListResponse,
  tokenRequest,
  webauthnOptionsResponse,
  webauthnOptionsSchema,
  type AuthenticationCredential,
} from '@till/protocol';
import { z } from 'zod';
import { runInTransaction } from '../../db/transaction.js';
import { fail, Failure, type Outcome } from '../../errors.js';
import type { CallRegistry } from '../../http/calls.js';
import type { SecurityEvents } from '../../security/security-events.js';
import type { PasskeysService } from './passkeys.js';
import type { AccountsService, ClientInfo, IssuedSession } from './service.js';

const tag = 'accounts';

/**
 * Signs in with a passkey alone, under the login's budgets: the address's attempts (each call
 * spends one), and the account's failures, counted per account and address and per account before
 * the signature is checked, given back when it verifies.
 */
async function signIn(
  accounts: AccountsService,
  passkeys: PasskeysService,
  events: SecurityEvents,
  credential: AuthenticationCredential,
  client: ClientInfo,
): Promise<Outcome<IssuedSession>> {
  const { loginPerIp } = accounts.limiters;
  const ipWait = await loginPerIp.hit(client.ip);
  if (ipWait) return fail.rateLimited(ipWait);
  const claimed = await passkeys.repo.findByCredentialId(credential.id);
  const owner = claimed ? await accounts.repo.findUserById(claimed.user_id) : undefined;
  if (owner) {
    const spent = await accounts.spendFailure(owner.email, client.ip);
    if (spent) return spent;
  }
  const proved = await passkeys.verifyAssertion(credential, 'signin', null);
  if (proved instanceof Failure) return proved;
  const user = owner?.id === proved.userId ? owner : await accounts.repo.findUserById(proved.userId);
  if (!user || user.deleted_at != null) return fail.wrongCredentials();
  if (owner) await accounts.forgiveFailure(owner.email, client.ip);
  const session = await runInTransaction(accounts.db, async (trx) => {
    const issued = await accounts.issueSession(user, client, trx);
    await events.record(
      { userId: user.id, kind: 'passkey_signin', ...client, detail: { passkeyId: proved.passkey.id } },
      trx,
    );
    return issued;
  });
  if (!(session instanceof Failure)) accounts.noticeNewDevice(user, client);
  return session;
}

/** Tells the owner that a passkey was added or removed (see `notifyChange`). */
async function notifyChange(accounts: AccountsService, userId: string, change: 'passkey_added' | 'passkey_removed') {
  const row = await accounts.repo.findUserById(userId);
  if (row) accounts.notifyChange(row, change);
}

/** The passkey calls: options and verification for registration, sign-in and confirmation; list, rename, remove. */
export function registerPasskeyRoutes(
  calls: CallRegistry,
  accounts: AccountsService,
  passkeys: PasskeysService,
  events: SecurityEvents,
): void {
  calls.define({
    path: `/${PasskeyPaths.registrationOptions}`,
    summary: 'WebAuthn options for adding a passkey to the account (a single-use challenge, 5 minutes).',
    tag,
    auth: Level.Registered,
    stepUp: true,
    request: tokenRequest,
    response: webauthnOptionsResponse,
    handler: async (_input, ctx) => {
      const user = await accounts.getUser(ctx.caller);
      if (user instanceof Failure) return user;
      const options = await passkeys.registrationOptions(ctx.caller, user);
      return options instanceof Failure ? options : { data: { options } };
    },
  });

  calls.define({
    path: `/${PasskeyPaths.register}`,
    summary: "Keep a new passkey: the browser's answer to registrationOptions, with a name for it.",
    tag,
    auth: Level.Registered,
    stepUp: true,
    request: passkeyRegisterRequest,
    response: passkeyResponse,
    handler: async (input, ctx) => {
      const passkey = await passkeys.register(ctx.caller, input, ctx);
      if (passkey instanceof Failure) return passkey;
      await notifyChange(accounts, ctx.caller.userId, 'passkey_added');
      return { data: { passkey } };
    },
  });

  calls.define({
    path: `/${PasskeyPaths.list}`,
    summary: "The account's passkeys, newest first.",
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: passkeysListResponse,
    handler: async (_input, ctx) => ({ data: { passkeys: await passkeys.list(ctx.caller) } }),
  });

  calls.define({
    path: `/${PasskeyPaths.rename}`,
    summary: 'Rename one of the account’s passkeys.',
    tag,
    auth: Level.Registered,
    request: passkeyRenameRequest,
    response: passkeyResponse,
    handler: async (input, ctx) => {
      const passkey = await passkeys.rename(ctx.caller, input.id, input.name, ctx);
      return passkey instanceof Failure ? passkey : { data: { passkey } };
    },
  });

  calls.define({
    path: `/${PasskeyPaths.remove}`,
    summary: 'Remove one of the account’s passkeys; it no longer signs in.',
    tag,
    auth: Level.Registered,
    stepUp: true,
    request: passkeyRemoveRequest,
    response: dataResponse(z.object({})),
    handler: async (input, ctx) => {
      const done = await passkeys.remove(ctx.caller, input.id, ctx);
      if (done instanceof Failure) return done;
      await notifyChange(accounts, ctx.caller.userId, 'passkey_removed');
      return { data: {} };
    },
  });

  calls.define({
    path: `/${PasskeyPaths.confirmOptions}`,
    summary: "WebAuthn options for confirming the account's deletion with one of its passkeys (904 when it has none).",
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: webauthnOptionsResponse,
    handler: async (_input, ctx) => {
      const options = await passkeys.confirmOptions(ctx.caller);
      return options instanceof Failure ? options : { data: { options } };
    },
  });

  calls.define({
    path: `/${PasskeyPaths.signInOptions}`,
    summary: 'WebAuthn options for signing in with a passkey alone (no e-mail needed); spends a login attempt.',
    tag,
    request: z.object({}),
    response: z.object({ code: z.literal(900), data: z.object({ options: webauthnOptionsSchema }) }),
    handler: async (_input, ctx) => {
      const wait = await accounts.limiters.loginPerIp.hit(ctx.ip);
      if (wait) return fail.rateLimited(wait);
      return { data: { options: await passkeys.signInOptions() } };
    },
  });

  calls.define({
    path: `/${PasskeyPaths.signIn}`,
    summary:
      "Sign in with a passkey: the browser's answer to signInOptions; answers like a login (902 when it does not verify).",
    tag,
    request: passkeySignInRequest,
    response: authSuccess,
    handler: async (input, ctx) => signIn(accounts, passkeys, events, input.credential, ctx),
  });
}
