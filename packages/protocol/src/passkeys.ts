import { z } from 'zod';
import { PasskeyPaths } from './constants.js';
import { emailSchema } from './objects.js';
import { recoveryCodeSchema, totpCodeSchema } from './security.js';

// Kept with the other constants so that importing a path never loads the schemas (and zod).
export { PasskeyPaths };

const token = z.string().min(1).max(512);
const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'base64url');

/** A passkey's name as the user chose it. @example passkeyNameSchema.parse('Phone') */
export const passkeyNameSchema = z.string().trim().min(1).max(60);

/** A passkey of the user. @example passkeySchema.parse(p) */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** How the authenticator is reached (`internal`, `hybrid`, `usb`, `nfc`, `ble`, ...). */
  transports: z.array(z.string()),
  /** Whether the passkey is synced to the user's other devices (a password manager, a cloud keychain). */
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/**
 * WebAuthn options for `navigator.credentials.create()` or `.get()`, as JSON (the WebAuthn Level 3
 * `PublicKeyCredentialCreationOptionsJSON` / `PublicKeyCredentialRequestOptionsJSON`); hand them
 * to the browser as they are (`@simplewebauthn/browser`'s `startRegistration({ optionsJSON })`).
 */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string() });
export type WebauthnOptions = z.infer<typeof webauthnOptionsSchema>;

/** An answer with WebAuthn options. */
export const webauthnOptionsResponse = z.object({
  code: z.literal(900),
  data: z.object({ options: webauthnOptionsSchema }),
});
export type WebauthnOptionsResponse = z.infer<typeof webauthnOptionsResponse>;

const transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(10);
const credentialBase = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

/** What the browser answers `navigator.credentials.create()` with, as JSON (`RegistrationResponseJSON`). */
export const registrationCredentialSchema = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16_384),
    authenticatorData: b64url(8192).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4096).optional(),
  }),
});
export type RegistrationCredential = z.infer<typeof registrationCredentialSchema>;

/** What the browser answers `navigator.credentials.get()` with, as JSON (`AuthenticationResponseJSON`). */
export const authenticationCredentialSchema = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(8192),
    signature: b64url(2048),
    userHandle: z.string().max(512).optional(),
  }),
});
export type AuthenticationCredential = z.infer<typeof authenticationCredentialSchema>;

/** POST api/auth/passkeys/register. @example passkeyRegisterRequest.parse({ token, name: 'Phone', credential }) */
export const passkeyRegisterRequest = z.object({
  token,
  name: passkeyNameSchema,
  credential: registrationCredentialSchema,
});
export type PasskeyRegisterRequest = z.infer<typeof passkeyRegisterRequest>;

/** An answer with one passkey. */
export const passkeyResponse = z.object({ code: z.literal(900), data: z.object({ passkey: passkeySchema }) });
export type PasskeyResponse = z.infer<typeof passkeyResponse>;

/** POST api/auth/passkeys/list answer: newest first. */
export const passkeysListResponse = z.object({
  code: z.literal(900),
  data: z.object({ passkeys: z.array(passkeySchema) }),
});
export type PasskeysListResponse = z.infer<typeof passkeysListResponse>;

/** POST api/auth/passkeys/rename. @example passkeyRenameRequest.parse({ token, id, name: 'Laptop' }) */
export const passkeyRenameRequest = z.object({ token, id: z.string().min(1).max(64), name: passkeyNameSchema });
export type PasskeyRenameRequest = z.infer<typeof passkeyRenameRequest>;

/** POST api/auth/passkeys/remove. @example passkeyRemoveRequest.parse({ token, id }) */
export const passkeyRemoveRequest = z.object({ token, id: z.string().min(1).max(64) });
export type PasskeyRemoveRequest = z.infer<typeof passkeyRemoveRequest>;

/** POST api/passkeys/signIn: the assertion for a challenge from signInOptions; answers like a login. */
export const passkeySignInRequest = z.object({ credential: authenticationCredentialSchema });
export type PasskeySignInRequest = z.infer<typeof passkeySignInRequest>;

/**
 * POST api/auth/deleteAccount. `confirm` is the account's e-mail address, typed by the user (any
 * case); then either the current `password`, or `passkey`: an assertion of one of the user's
 * passkeys for a challenge from confirmOptions.
 *
 * @example deleteAccountRequest.parse({ token, confirm: 'ada@example.com', password })
 */
export const deleteAccountRequest = z.object({
  token,
  confirm: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024).optional(),
  passkey: authenticationCredentialSchema.optional(),
  /** With the password, when the account has a second factor on: a code or a recovery code. */
  code: totpCodeSchema.optional(),
  recoveryCode: recoveryCodeSchema.optional(),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequest>;

/**
 * POST api/admin/users/delete: an administrator deletes a user. `confirm` is that user's e-mail
 * address; `password` (and `code` or `recoveryCode` when their second factor is on) is the
 * administrator's own.
 *
 * @example adminDeleteUserRequest.parse({ token, userId, confirm: 'ada@example.com', password })
 */
export const adminDeleteUserRequest = z.object({
  token,
  userId: z.string().min(1).max(64),
  confirm: emailSchema,
  password: z.string().min(1).max(1024),
  /** The administrator's own code or recovery code, when their second factor is on. */
  code: totpCodeSchema.optional(),
  recoveryCode: recoveryCodeSchema.optional(),
});
export type AdminDeleteUserRequest = z.infer<typeof adminDeleteUserRequest>;
