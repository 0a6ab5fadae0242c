import {
  Code,
  type ConflictReasonValue,
  type CouponReasonValue,
  type ErrorResponse,
  type InputReasonValue,
  type PaymentReasonValue,
} from '@till/protocol';

/**
 * An expected failure, returned (not thrown) by services. Its body is the protocol's error body
 * (`errorResponse` in packages/protocol: one definition for the server, the SDK and the web app),
 * so a failure cannot be sent in a shape the protocol does not describe. Routes never pick codes
 * themselves: they answer what {@link fail} built.
 */
export class Failure {
  constructor(readonly body: ErrorResponse) {}

  /** The response body the protocol gives this failure. */
  toResponse(): ErrorResponse {
    return this.body;
  }
}

/**
 * Builders for every failure, so call sites read as sentences. Reasons come from the protocol's closed
 * lists (`InputReason`, `CouponReason`, `PaymentReason`, `ConflictReason`): a reason the SDK and the
 * web app do not know does not compile; a new one is added there first.
 */
export const fail = {
  invalidToken: () => new Failure({ code: Code.InvalidToken }),
  wrongCredentials: () => new Failure({ code: Code.WrongCredentials }),
  forbidden: (required: number) => new Failure({ code: Code.Forbidden, required }),
  notFound: (parameter: string) => new Failure({ code: Code.NotFound, parameter }),
  rateLimited: (retryAfter: number) => new Failure({ code: Code.TooManyRequests, retryAfter }),
  invalidInput: (parameter: string, reason: InputReasonValue) =>
    new Failure({ code: Code.InvalidInput, parameter, reason }),
  couponRefused: (reason: CouponReasonValue) => new Failure({ code: Code.CouponRefused, reason }),
  notEnoughCredits: (balance: number, required: number) =>
    new Failure({ code: Code.NotEnoughCredits, balance, required }),
  paymentRejected: (reason: PaymentReasonValue) => new Failure({ code: Code.PaymentRejected, reason }),
  badLinkToken: () => new Failure({ code: Code.BadLinkToken }),
  /** 913: not a fault, the login's second step; the body carries the challenge. */
  secondFactorRequired: (challenge: string, expire: number) =>
    new Failure({ code: Code.SecondFactorRequired, challenge, expire }),
  stepUpRequired: (within: number) => new Failure({ code: Code.StepUpRequired, within }),
  /** 915: a provider's address has an account not linked to it; the body carries the single-use link. */
  linkRequired: (link: string, email: string, provider: string, expire: number) =>
    new Failure({ code: Code.LinkRequired, link, email, provider, expire }),
  conflict: (status: string, reason?: ConflictReasonValue) =>
    new Failure(reason ? { code: Code.Conflict, status, reason } : { code: Code.Conflict, status }),
};

/**
 * Thrown inside a transaction to roll it back with an expected failure; `runInTransaction` turns it
 * back into a value.
 */
export class AbortTransaction extends Error {
  constructor(readonly failure: Failure) {
    super(`failure ${failure.body.code}`);
    this.name = 'AbortTransaction';
  }
}

/** A service outcome: the value, or an expected failure. */
export type Outcome<T> = T | Failure;
