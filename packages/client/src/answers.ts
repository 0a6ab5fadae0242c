import type { ErrorResponse } from '@till/protocol';
import type { FailureReason, TillError } from './errors/till-error.js';

/**
 * What the SDK answers when a call got no protocol answer: code 905, made by the client, never
 * sent by the server. `reason` says why and `error` keeps the cause for logs.
 *
 * @example
 * const res = await till.api.login({ email, password });
 * if (res.code === 905) console.warn(res.reason, res.error);
 */
export interface ClientFailure {
  code: 905;
  reason: FailureReason;
  error: TillError;
}

/**
 * Every outcome of a call: the success body `T`, any protocol error body, or a {@link ClientFailure}.
 * Narrow on `code`.
 *
 * @example
 * const res: Answer<UserResponse> = await till.api.getUserInfo();
 * if (res.code === 900) show(res.user);
 * else if (res.code === 907) showFieldError(res.parameter, res.reason);
 */
export type Answer<T> = T | ErrorResponse | ClientFailure;

/**
 * The answer of a call whose success body is `{code: 900, data}`.
 *
 * @example
 * const res: DataAnswer<{ files: FileInfo[] }> = await till.serviceCall('api/files/list', {});
 * if (res.code === 900) render(res.data.files);
 */
export type DataAnswer<D> = Answer<{ code: 900; data: D }>;

/**
 * Makes a {@link ClientFailure} from one of the SDK's errors.
 *
 * @example
 * return clientFailure(new DroppedError('queue_full'));
 */
export function clientFailure(error: TillError): ClientFailure {
  return { code: 905, reason: error.reason, error };
}
