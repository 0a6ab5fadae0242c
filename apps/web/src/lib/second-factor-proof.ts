/**
 * What a person typed as their second factor, as the protocol takes it: six digits are a code from
 * the authenticator app, anything else a recovery code; nothing typed adds nothing.
 *
 * @example
 * secondFactorProof('123456') // { code: '123456' }
 */
export function secondFactorProof(typed: string): { code?: string; recoveryCode?: string } {
  if (!typed) return {};
  return /^\d{6}$/.test(typed) ? { code: typed } : { recoveryCode: typed.trim() };
}
