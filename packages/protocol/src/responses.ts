import { z } from 'zod';
import { Code, type InputReasonValue } from './codes.js';
import { conflictReasonSchema, couponReasonSchema, inputReasonSchema, paymentReasonSchema } from './reasons.js';

/** A bare success. */
export const okResponse = z.object({ code: z.literal(Code.Ok) });
/** 901. */
export const invalidTokenResponse = z.object({ code: z.literal(Code.InvalidToken) });
/** 902. */
export const wrongCredentialsResponse = z.object({ code: z.literal(Code.WrongCredentials) });
/** 903 with the level the call needs. */
export const forbiddenResponse = z.object({ code: z.literal(Code.Forbidden), required: z.number().int() });
/** 904 naming what was not found. */
export const notFoundResponse = z.object({ code: z.literal(Code.NotFound), parameter: z.string() });
/** 906 with seconds to wait. */
export const tooManyResponse = z.object({ code: z.literal(Code.TooManyRequests), retryAfter: z.number().int() });
/** 907 with the offending field and a machine word (`InputReason`). */
export const invalidInputResponse = z.object({
  code: z.literal(Code.InvalidInput),
  parameter: z.string(),
  reason: inputReasonSchema,
});
/** 908 (`CouponReason`). */
export const couponRefusedResponse = z.object({ code: z.literal(Code.CouponRefused), reason: couponReasonSchema });
/** 909. */
export const notEnoughCreditsResponse = z.object({
  code: z.literal(Code.NotEnoughCredits),
  balance: z.number().int(),
  required: z.number().int(),
});
/** 910 (`PaymentReason`). */
export const paymentRejectedResponse = z.object({ code: z.literal(Code.PaymentRejected), reason: paymentReasonSchema });
/** 911. */
export const badLinkTokenResponse = z.object({ code: z.literal(Code.BadLinkToken) });
/** 912 with the order's current status. */
export const conflictResponse = z.object({
  code: z.literal(Code.Conflict),
  status: z.string(),
  /** Why, when the status alone does not say (e.g. `credits_spent` on a refund): `ConflictReason`. */
  reason: conflictReasonSchema.optional(),
});

/**
 * 913: a login that needs a second factor. Not a fault, but not a session either: it stands with the
 * error bodies so that every answer that is not a session has one type.
 */
export const secondFactorChallengeResponse = z.object({
  code: z.literal(Code.SecondFactorRequired),
  challenge: z.string(),
  expire: z.number().int(),
});

/** 914: prove the password (and second factor) again with `api/auth/stepUp`, then call again. */
export const stepUpRequiredResponse = z.object({
  code: z.literal(Code.StepUpRequired),
  /** How recent the proof must be, in seconds. */
  within: z.number().int(),
});

/** 915: prove the account that has the provider's address to link the provider to it. */
export const linkRequiredResponse = z.object({
  code: z.literal(Code.LinkRequired),
  link: z.string(),
  email: z.string(),
  provider: z.string(),
  expire: z.number().int(),
});

/** Any error body the server sends. @example if (errorResponse.safeParse(body).success) ... */
export const errorResponse = z.discriminatedUnion('code', [
  invalidTokenResponse,
  wrongCredentialsResponse,
  forbiddenResponse,
  notFoundResponse,
  tooManyResponse,
  invalidInputResponse,
  couponRefusedResponse,
  notEnoughCreditsResponse,
  paymentRejectedResponse,
  badLinkTokenResponse,
  conflictResponse,
  secondFactorChallengeResponse,
  stepUpRequiredResponse,
  linkRequiredResponse,
]);
export type ErrorResponse = z.infer<typeof errorResponse>;

/**
 * A code the server answers with an error body (every code of {@link errorResponse}).
 *
 * @example
 * const retryable: ErrorCode[] = [Code.TooManyRequests];
 */
export type ErrorCode = ErrorResponse['code'];

type KeysOfUnion<U> = U extends unknown ? keyof U : never;
type FieldOfUnion<U, K extends PropertyKey> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;

/**
 * One object type for a union of bodies: `code` as in the union, and every other field any member
 * carries, optional. Code that reports a failure without caring which one it is (a message, a
 * thrown error) can then read `reason` or `balance` without narrowing on `code` first.
 *
 * @example
 * type Failure = AnyOf<ErrorResponse | { code: 905; reason: string }>;
 * const reason = (body: Failure) => body.reason ?? 'unknown';
 */
export type AnyOf<U extends { code: number }> = { code: U['code'] } & {
  [K in Exclude<KeysOfUnion<U>, 'code'>]?: FieldOfUnion<U, K>;
};

/**
 * Any error body the server sends, read without narrowing on `code` first.
 *
 * @example
 * const balance = (body: AnyErrorResponse) => body.balance ?? 0;
 */
export type AnyErrorResponse = AnyOf<ErrorResponse>;

/**
 * Turns a zod failure into the protocol's 907 fields: the first issue's path and a machine word.
 *
 * @example
 * const r = registerRequest.safeParse(body);
 * if (!r.success) return { code: 907, ...toInputError(r.error) };
 */
export function toInputError(error: z.ZodError): { parameter: string; reason: InputReasonValue } {
  const issue = error.issues[0];
  if (!issue) return { parameter: '', reason: 'invalid' };
  const parameter = issue.path.map(String).join('.');
  let reason: InputReasonValue = 'invalid';
  if (issue.code === 'invalid_type' && issue.input === undefined) reason = 'required';
  else if (issue.code === 'too_small')
    reason = issue.origin === 'string' && issue.minimum === 1 ? 'required' : 'too_short';
  else if (issue.code === 'too_big') reason = 'too_long';
  return { parameter, reason };
}

/** A success body `{code: 900, data}` around a data schema, for the OpenAPI document. */
export function dataResponse<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(900), data });
}
