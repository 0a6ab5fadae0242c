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
 * The names a failure's parameter path goes by, most specific first: its last part, then its first
 * (`coupon.usageLimit` -> `usageLimit`, `coupon`; `items.0.id` -> `id`, `items`).
 */
export function parameterNames(parameter: unknown): string[] {
  if (typeof parameter !== 'string' || !parameter) return [];
  const parts = parameter.split('.');
  const last = parts[parts.length - 1] ?? '';
  const first = parts[0] ?? '';
  return [...new Set([last, first].filter(Boolean))];
}

/**
 * The translation keys for a failure, most specific first. With a scope (`'admin'`), the scope's own
 * come first: `admin.reasons.907.usageLimit.too_short` (the parameter's last part, then its first),
 * `admin.reasons.907.taken`, `admin.reasons.912.any`. Then the general ones: a 907's field and reason
 * (`reasons.907.file.too_large`, field = the parameter's first part), the reason alone
 * (`reasons.908.expired`), the code's own (`reasons.909.any`, `errors.907`), then `errors.unknown`.
 * The lookup takes the first key it has, so a reason without a message of its own still reads as its
 * code does. The texts say what happened and what to do.
 *
 * @example
 * t(messageKeys(error, 'admin'), messageValues(error, {}, name))
 */
export function messageKeys(error: unknown, scope?: string): string[] {
  const code = codeOf(error);
  const keys: string[] = [];
  const body = error instanceof ApiError ? error.body : undefined;
  const reason = body?.reason;
  if (scope) {
    if (reason) {
      for (const name of parameterNames(body?.parameter)) keys.push(`${scope}.reasons.${code}.${name}.${reason}`);
      keys.push(`${scope}.reasons.${code}.${reason}`);
    }
    keys.push(`${scope}.reasons.${code}.any`);
  }
  if (body) {
    // Field paths such as `items.0.id` are named by their first part.
    const field = typeof body.parameter === 'string' ? body.parameter.split('.')[0] : undefined;
    if (field && reason) keys.push(`reasons.${code}.${field}.${reason}`);
    if (reason) keys.push(`reasons.${code}.${reason}`);
    if (code === 912 && typeof body.status === 'string') keys.push(`reasons.912.${body.status}`);
  }
  // Codes whose message holds whatever the reason: the values they carry say it all.
  keys.push(`reasons.${code}.any`, `errors.${code}`, 'errors.unknown');
  return keys;
}

/** Turns a field's or a status's machine name into words (a scope's `fields`/`status` texts). */
export type NameText = (kind: 'fields' | 'status', raw: string) => string;

/**
 * The values a failure's message may name: credits, a wait, the reason, and the field, parameter and
 * status it concerns (`field`/`parameter` = the parameter's last part, `input` when none), in words
 * by `name` when given.
 */
export function messageValues(
  error: unknown,
  extra: Record<string, unknown> = {},
  name: NameText = (_kind, raw) => raw,
): Record<string, unknown> {
  const body = error instanceof ApiError ? error.body : undefined;
  const field = parameterNames(body?.parameter)[0] ?? 'input';
  const status = typeof body?.status === 'string' ? body.status : '';
  return {
    balance: body?.balance ?? 0,
    required: body?.required ?? 0,
    retryAfter: body?.retryAfter ?? 1,
    reason: body?.reason ?? '',
    field: name('fields', field),
    parameter: name('fields', field),
    status: status ? name('status', status) : '',
    ...extra,
  };
}
