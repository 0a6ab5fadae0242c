import { z } from 'zod';
import { deviceTokenSchema } from './account.js';
import { SecurityPaths } from './constants.js';
import { pageRequest } from './paging.js';
import { dataResponse, secondFactorChallengeResponse } from './responses.js';

// Kept with the other constants so that importing a path never loads the schemas (and zod).
export { SecurityPaths };

const token = z.string().min(1).max(512);

/** Digits of a TOTP code, and seconds of its time step (RFC 6238's defaults, which every authenticator app uses). */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD = 30;
/** How many single-use recovery codes enabling the second factor hands out. */
export const RECOVERY_CODE_COUNT = 10;

/** A TOTP code as typed: six digits, spaces allowed (apps show `123 456`). */
export const totpCodeSchema = z
  .string()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/));

/** A recovery code as shown (`abcd-efgh-jkmn-pqrs`); case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string()
  .max(64)
  .transform((v) => v.toLowerCase().replace(/[\s-]+/g, ''))
  .pipe(z.string().regex(/^[a-z2-9]{16}$/));

/**
 * 913: the password was right and the account has a second factor. No session yet: `challenge` (an
 * opaque single-use token, valid `expire` seconds) goes to {@link SecurityPaths.loginSecondFactor}
 * with a code.
 */
export const secondFactorRequiredResponse = secondFactorChallengeResponse;
export type SecondFactorRequired = z.infer<typeof secondFactorChallengeResponse>;

/**
 * POST api/login/secondFactor: the challenge from 913 with a TOTP `code` or a `recoveryCode`.
 * Answers a session like a login (900), 902 for a wrong code, 911 for a challenge unknown, expired
 * or already used, 906 when the failure limit is reached.
 *
 * @example
 * loginSecondFactorRequest.parse({ challenge, code: '123456' })
 */
export const loginSecondFactorRequest = z
  .object({
    challenge: z.string().min(16).max(128),
    deviceToken: deviceTokenSchema.optional(),
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .refine((v) => v.code !== undefined || v.recoveryCode !== undefined, { path: ['code'], message: 'required' });
export type LoginSecondFactorRequest = z.input<typeof loginSecondFactorRequest>;

/** POST api/auth/secondFactor/status: whether TOTP is on, since when, and recovery codes left. */
export const secondFactorStatusData = z.object({
  totp: z.object({
    enabled: z.boolean(),
    enabledAt: z.string().nullable(),
    recoveryCodesLeft: z.number().int(),
  }),
});
export type SecondFactorStatusData = z.infer<typeof secondFactorStatusData>;

/**
 * POST api/auth/totp/setup: a new secret for an authenticator app (base32) and its `otpauth://` URI
 * (for a QR code). Nothing is on until {@link totpEnableRequest} proves the app has it; a new setup
 * replaces one not yet enabled. 912 `status: 'enabled'` when TOTP is already on.
 */
export const totpSetupData = z.object({ secret: z.string(), uri: z.string() });
export type TotpSetupData = z.infer<typeof totpSetupData>;

/**
 * POST api/auth/totp/enable: a code from the app and the current password. Answers the ten recovery
 * codes, shown this once (the server keeps only their hashes).
 *
 * @example
 * totpEnableRequest.parse({ token, code: '123456', currentPassword })
 */
export const totpEnableRequest = z.object({
  token,
  code: totpCodeSchema,
  currentPassword: z.string().min(1).max(1024),
});
export const totpEnableData = z.object({ recoveryCodes: z.array(z.string()) });
export type TotpEnableData = z.infer<typeof totpEnableData>;

/**
 * POST api/auth/totp/disable: the current password and a TOTP code (or a recovery code, for a lost
 * phone). Ends the second factor and its recovery codes.
 */
export const totpDisableRequest = z
  .object({
    token,
    currentPassword: z.string().min(1).max(1024),
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .refine((v) => v.code !== undefined || v.recoveryCode !== undefined, { path: ['code'], message: 'required' });

/**
 * POST api/auth/totp/recoveryCodes: replaces the recovery codes with ten new ones, answered this
 * once; the old ones, used or not, stop working. Needs a recent step-up on this session (914) and
 * the second factor on (912 `not_enabled`).
 *
 * @example
 * recoveryCodesRequest.parse({ token })
 */
export const recoveryCodesRequest = z.object({ token });
export const recoveryCodesData = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesData = z.infer<typeof recoveryCodesData>;

/**
 * POST api/auth/stepUp: the current password, and a `code` or `recoveryCode` when the second factor
 * is on, proven again on this session. Credential changes and administrators' sensitive actions
 * answer 914 without such a proof within the last `within` seconds. 902 wrong password, 907 `code`
 * (`required` or `invalid`), 906 when the login's failure budget is spent.
 *
 * @example
 * stepUpRequest.parse({ token, password, code: '123456' })
 */
export const stepUpRequest = z.object({
  token,
  password: z.string().min(1).max(1024),
  code: totpCodeSchema.optional(),
  recoveryCode: recoveryCodeSchema.optional(),
});
export type StepUpRequest = z.input<typeof stepUpRequest>;
/** How long the proof now stands, in seconds. */
export const stepUpData = z.object({ validFor: z.number().int() });
export type StepUpData = z.infer<typeof stepUpData>;

/**
 * What a security-log entry records. The web app words each kind; `detail` adds what the kind
 * needs (`method` of a sign-in, `count` of revoked sessions, `level` of a level change, ...).
 */
export const SECURITY_EVENT_KINDS = [
  'signin',
  'signin_failed',
  'password_check_failed',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'email_change_requested',
  'email_changed',
  'totp_enabled',
  'totp_disabled',
  'recovery_code_used',
  'recovery_codes_renewed',
  'second_factor_reset_by_admin',
  'sessions_revoked',
  'admin_level_changed',
  'admin_credits_adjusted',
  'passkey_added',
  'passkey_renamed',
  'passkey_removed',
  'passkey_signin',
  'account_deleted',
  'social_linked',
  'social_unlinked',
  'social_signin',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** One entry of a user's security log; the device is the browser and system read from the user agent. */
export const securityLogEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(SECURITY_EVENT_KINDS),
  at: z.string(),
  ip: z.string().nullable(),
  device: z.object({ browser: z.string().nullable(), os: z.string().nullable() }).nullable(),
  /** Who did it when it was not the user (an administrator). */
  actorId: z.string().nullable(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type SecurityLogEntry = z.infer<typeof securityLogEntrySchema>;

/** POST api/auth/securityLog: the caller's log, newest first. */
export const securityLogRequest = pageRequest.extend({ token });
export const securityLogData = z.object({ entries: z.array(securityLogEntrySchema), total: z.number().int() });
export type SecurityLogData = z.infer<typeof securityLogData>;

/** POST api/admin/users/securityLog: any user's log, newest first (administrators). */
export const adminSecurityLogRequest = securityLogRequest.extend({ userId: z.string().min(1).max(64) });

/**
 * POST api/admin/users/resetSecondFactor: turns a user's second factor off (a lost phone and lost
 * recovery codes). Logged in the user's security log and mailed to them; `reset` is false when it
 * was not on. 904 `userId` for an unknown user.
 */
export const adminResetSecondFactorRequest = z.object({ token, userId: z.string().min(1).max(64) });
export const adminResetSecondFactorData = z.object({ reset: z.boolean() });

/** Success bodies of the calls above, for the OpenAPI document. */
export const securityResponses = {
  status: dataResponse(secondFactorStatusData),
  setup: dataResponse(totpSetupData),
  enable: dataResponse(totpEnableData),
  disable: dataResponse(z.object({})),
  recoveryCodes: dataResponse(recoveryCodesData),
  log: dataResponse(securityLogData),
  adminReset: dataResponse(adminResetSecondFactorData),
};
