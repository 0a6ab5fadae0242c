import { Code } from '@till/protocol';

/**
 * Every expected outcome that is not a success, in one registry: each kind has its protocol code
 * and the extra fields the protocol gives it. Services return these as values; routes never pick
 * codes themselves.
 */
export type FailureBody =
  | { kind: 'invalid_token' }
  | { kind: 'wrong_credentials' }
  | { kind: 'forbidden'; required: number }
  | { kind: 'not_found'; parameter: string }
  | { kind: 'rate_limited'; retryAfter: number }
  | { kind: 'invalid_input'; parameter: string; reason: string }
  | { kind: 'coupon_refused'; reason: string }
  | { kind: 'not_enough_credits'; balance: number; required: number }
  | { kind: 'payment_rejected'; reason: string }
  | { kind: 'bad_link_token' }
  | { kind: 'conflict'; status: string; reason?: string };

const codes: Record<FailureBody['kind'], number> = {
  invalid_token: Code.InvalidToken,
  wrong_credentials: Code.WrongCredentials,
  forbidden: Code.Forbidden,
  not_found: Code.NotFound,
  rate_limited: Code.TooManyRequests,
  invalid_input: Code.InvalidInput,
  coupon_refused: Code.CouponRefused,
  not_enough_credits: Code.NotEnoughCredits,
  payment_rejected: Code.PaymentRejected,
  bad_link_token: Code.BadLinkToken,
  conflict: Code.Conflict,
};

/** An expected failure, returned (not thrown) by services. */
export class Failure {
  constructor(readonly body: FailureBody) {}

  /** The response body the protocol gives this failure. */
  toResponse(): Record<string, unknown> {
    const { kind, ...extra } = this.body;
    return { code: codes[kind], ...extra };
  }
}

/** Builders for every failure, so call sites read as sentences. */
export const fail = {
  invalidToken: () => new Failure({ kind: 'invalid_token' }),
  wrongCredentials: () => new Failure({ kind: 'wrong_credentials' }),
  forbidden: (required: number) => new Failure({ kind: 'forbidden', required }),
  notFound: (parameter: string) => new Failure({ kind: 'not_found', parameter }),
  rateLimited: (retryAfter: number) => new Failure({ kind: 'rate_limited', retryAfter }),
  invalidInput: (parameter: string, reason: string) => new Failure({ kind: 'invalid_input', parameter, reason }),
  couponRefused: (reason: string) => new Failure({ kind: 'coupon_refused', reason }),
  notEnoughCredits: (balance: number, required: number) =>
    new Failure({ kind: 'not_enough_credits', balance, required }),
  paymentRejected: (reason: string) => new Failure({ kind: 'payment_rejected', reason }),
  badLinkToken: () => new Failure({ kind: 'bad_link_token' }),
  conflict: (status: string, reason?: string) =>
    new Failure(reason ? { kind: 'conflict', status, reason } : { kind: 'conflict', status }),
};

/**
 * Thrown inside a transaction to roll it back with an expected failure; {@link runInTransaction}
 * turns it back into a value.
 */
export class AbortTransaction extends Error {
  constructor(readonly failure: Failure) {
    super(failure.body.kind);
    this.name = 'AbortTransaction';
  }
}

/** A service outcome: the value, or an expected failure. */
export type Outcome<T> = T | Failure;

/** Type guard for {@link Failure}. */
export function isFailure(value: unknown): value is Failure {
  return value instanceof Failure;
}
