import { z } from 'zod';
import { emailSchema, langSchema, nameSchema, passwordSchema, sessionInfoSchema, userSchema } from './objects.js';

const token = z.string().min(1).max(512);

/**
 * A device token: answered by a sign-in, sent back with the device's later logins to that account,
 * which then spend that device's failure budget instead of the account's.
 */
export const deviceTokenSchema = z.string().min(1).max(512);

/** POST /api/login. @example loginRequest.parse({ email, password, deviceToken }) */
export const loginRequest = z.object({
  email: emailSchema,
  // On login the length is not checked beyond a cap: a wrong password is 902, not 907.
  password: z.string().min(1).max(1024),
  deviceToken: deviceTokenSchema.optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

/** Successful login or registration. */
export const authSuccess = z.object({
  code: z.literal(900),
  token: z.string(),
  expire: z.number().int(),
  user: userSchema,
  /** Answered by logins: the device's token for its later logins to this account. */
  deviceToken: z.string().optional(),
});
export type AuthSuccess = z.infer<typeof authSuccess>;

/** POST /api/register. @example registerRequest.parse({ email, password, name, lang: 'en' }) */
export const registerRequest = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: nameSchema,
  lang: langSchema.optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

/** POST /api/genResetLink. @example genResetLinkRequest.parse({ email, lang }) */
export const genResetLinkRequest = z.object({ email: emailSchema, lang: langSchema.optional() });
export type GenResetLinkRequest = z.infer<typeof genResetLinkRequest>;

/** POST /api/resetPassword/{resetToken}. @example resetPasswordRequest.parse({ password }) */
export const resetPasswordRequest = z.object({ password: passwordSchema, lang: langSchema.optional() });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** Any call that only needs the session token. @example tokenRequest.parse({ token }) */
export const tokenRequest = z.object({ token });
export type TokenRequest = z.infer<typeof tokenRequest>;

/** POST /api/auth/updateInfo. @example updateInfoRequest.parse({ token, name: 'Ada' }) */
export const updateInfoRequest = z.object({
  token,
  name: nameSchema.optional(),
  lang: langSchema.optional(),
  email: emailSchema.optional(),
  password: passwordSchema.optional(),
  currentPassword: z.string().max(1024).optional(),
  avatarFileId: z.string().max(64).nullable().optional(),
});
export type UpdateInfoRequest = z.infer<typeof updateInfoRequest>;

/** getUserInfo and updateInfo answer. */
export const userResponse = z.object({ code: z.literal(900), user: userSchema });
export type UserResponse = z.infer<typeof userResponse>;

/** POST /api/auth/sessions answer. */
export const sessionsResponse = z.object({
  code: z.literal(900),
  data: z.object({ sessions: z.array(sessionInfoSchema) }),
});
export type SessionsResponse = z.infer<typeof sessionsResponse>;

/** POST /api/auth/revokeSessions answer. */
export const revokeSessionsResponse = z.object({
  code: z.literal(900),
  data: z.object({ revoked: z.number().int() }),
});
export type RevokeSessionsResponse = z.infer<typeof revokeSessionsResponse>;

/**
 * POST /api/auth/endSession: ends one of the caller's own sessions, named by the `id` the sessions
 * list shows (never its token). 904 `id` when no live session of the caller has it, another user's
 * included. Ending the caller's own session signs it out like logout.
 *
 * @example
 * endSessionRequest.parse({ token, id: session.id })
 */
export const endSessionRequest = z.object({ token, id: z.string().min(1).max(64) });
export type EndSessionRequest = z.infer<typeof endSessionRequest>;
export const endSessionResponse = z.object({
  code: z.literal(900),
  data: z.object({ ended: z.literal(true), current: z.boolean() }),
});
export type EndSessionResponse = z.infer<typeof endSessionResponse>;
