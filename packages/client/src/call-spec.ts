import type { AxiosProgressEvent } from 'axios';
import type { UploadFiles } from './form-data.js';

/**
 * Whether a call carries the session token.
 *
 * @example
 * await till.serviceCall('api/store/products', {}, { token: 'optional' });
 */
export type TokenUse =
  /** Needs a token: waits in the queue while logged out. */
  | 'required'
  /** Sends the token when logged in, goes without it otherwise. */
  | 'optional'
  /** Never sends a token. */
  | 'none';

/**
 * One call as the clients describe it.
 *
 * @example
 * await till.api.request<{ code: 900 }>({ path: 'api/auth/logout', token: 'required' });
 */
export interface CallSpec {
  method?: 'GET' | 'POST';
  /** Path without a leading slash (`api/login`), or a full URL. */
  path: string;
  fields?: Record<string, unknown>;
  token: TokenUse;
  files?: UploadFiles;
  onUploadProgress?: (event: AxiosProgressEvent) => void;
}
