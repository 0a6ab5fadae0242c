import { Code, type AnyOf, type ErrorResponse } from '@till/protocol';
import type { Answer, ClientFailure } from '@till/client';

/**
 * A protocol answer that is not 900: a server's error body or the SDK's own 905. Flattened so that
 * a screen can read `reason` or `balance` without narrowing on `code` first.
 */
export type FailureBody = AnyOf<ErrorResponse | ClientFailure>;

/** A failure carried as an error so that queries and mutations can fail. */
export class ApiError extends Error {
  readonly code: FailureBody['code'];
  readonly body: FailureBody;
  constructor(body: FailureBody) {
    super(`code ${body.code}${body.reason ? ` (${body.reason})` : ''}`);
    this.name = 'ApiError';
    this.code = body.code;
    this.body = body;
  }
}

/** Answers the success body, or throws the failure as an {@link ApiError}. */
export function unwrap<T extends { code: typeof Code.Ok }>(res: Answer<T>): T {
  if (res.code !== Code.Ok) throw new ApiError(res as ErrorResponse | ClientFailure);
  return res as T;
}

/** The protocol code of any thrown value: SDK failures keep theirs, anything else is a 905. */
export function codeOf(error: unknown): number {
  if (error instanceof ApiError) return error.code;
  return Code.NetworkError;
}

export function isApiError(error: unknown, code?: number): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
