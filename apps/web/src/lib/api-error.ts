import { Code } from '@till/protocol';

/** A protocol answer that is not 900, carried as an error so that queries and mutations can fail. */
export interface FailureBody {
  code: number;
  parameter?: string;
  reason?: string;
  required?: number;
  balance?: number;
  retryAfter?: number;
  status?: string;
  message?: string;
}

export class ApiError extends Error {
  readonly code: number;
  readonly body: FailureBody;
  constructor(body: FailureBody) {
    super(`code ${body.code}${body.reason ? ` (${body.reason})` : ''}`);
    this.name = 'ApiError';
    this.code = body.code;
    this.body = body;
  }
}

/** Answers the success body, or throws the failure as an {@link ApiError}. */
export function unwrap<T extends { code: number }>(res: T): Extract<T, { code: 900 }> {
  if (res.code !== Code.Ok) throw new ApiError(res as FailureBody);
  return res as Extract<T, { code: 900 }>;
}

/** The protocol code of any thrown value: SDK failures keep theirs, anything else is a 905. */
export function codeOf(error: unknown): number {
  if (error instanceof ApiError) return error.code;
  return Code.NetworkError;
}

export function isApiError(error: unknown, code?: number): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
