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

/**
 * The translation keys for a failure, most specific first: a 907's field and reason
 * (`reasons.907.file.too_large`), then the reason alone (`reasons.908.expired`), then the code's own
 * (`reasons.909.any`, `errors.907`), then `errors.unknown`. The lookup takes the first key it has, so a reason without a
 * message of its own still reads as its code does. The texts say what happened and what to do.
 *
 * @example
 * t(messageKeys(error), messageValues(error))
 */
export function messageKeys(error: unknown): string[] {
  const code = codeOf(error);
  const keys: string[] = [];
  if (error instanceof ApiError) {
    const { parameter, reason } = error.body;
    // Field paths such as `items.0.id` are named by their first part.
    const field = typeof parameter === 'string' ? parameter.split('.')[0] : undefined;
    if (field && reason) keys.push(`reasons.${code}.${field}.${reason}`);
    if (reason) keys.push(`reasons.${code}.${reason}`);
    if (code === 912 && typeof error.body.status === 'string') keys.push(`reasons.912.${error.body.status}`);
  }
  // Codes whose message holds whatever the reason: the values they carry say it all.
  keys.push(`reasons.${code}.any`, `errors.${code}`, 'errors.unknown');
  return keys;
}

/** The values a failure's message may name: credits, a wait, and the upload limits when given. */
export function messageValues(error: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const body = error instanceof ApiError ? error.body : undefined;
  return {
    balance: body?.balance ?? 0,
    required: body?.required ?? 0,
    retryAfter: body?.retryAfter ?? 1,
    ...extra,
  };
}
