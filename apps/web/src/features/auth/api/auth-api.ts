import type { GenResetLinkRequest, LoginRequest, RegisterRequest } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import type { Till } from '@/lib/till';

export async function signIn(till: Till, input: LoginRequest) {
  return unwrap(await till.api.login(input));
}

export async function register(till: Till, input: RegisterRequest) {
  return unwrap(await till.api.register(input));
}

export async function requestResetLink(till: Till, input: GenResetLinkRequest) {
  return unwrap(await till.api.genResetLink(input));
}

export async function resetPassword(till: Till, resetToken: string, password: string, lang: string) {
  return unwrap(await till.api.resetPassword(resetToken, { password, lang }));
}

export async function confirmEmail(till: Till, confirmToken: string) {
  return unwrap(await till.api.confirmUser(confirmToken));
}

/** Mails the confirmation link again (912 when the address is confirmed already). */
export async function resendConfirmation(till: Till) {
  unwrap(await till.serviceCall('api/auth/resendConfirmation', {}));
}

/** A login's second step: the challenge from 913 with a code or a recovery code. */
export async function signInSecondFactor(
  till: Till,
  input: { challenge: string; code?: string; recoveryCode?: string },
) {
  return unwrap(await till.api.loginSecondFactor(input));
}
