import type { AxiosProgressEvent } from 'axios';
import type { DataAnswer } from './answers.js';
import type { UploadFiles } from './form-data.js';
import type { TokenUse, Transport } from './transport.js';

/**
 * Options of a service call.
 *
 * @example
 * const options: ServiceCallOptions = { files: [picked], onUploadProgress: (e) => setProgress(e.progress ?? 0) };
 */
export interface ServiceCallOptions {
  /** Files to upload; the call goes as multipart form data. */
  files?: UploadFiles;
  /** Upload progress; the call goes as multipart form data so that progress can be measured. */
  onUploadProgress?: (event: AxiosProgressEvent) => void;
  /** Run this call only after every earlier sync call has finished, in call order. */
  sync?: boolean;
  /** Whether the service needs the session token; default `required` (the call waits for a login). */
  token?: TokenUse;
}

/**
 * A generic service call: `POST /{path}` with the given fields plus `token`, answering
 * `{code: 900, data}` or an error body or 905.
 *
 * @example
 * const res = await till.serviceCall<{ files: FileInfo[]; total: number }>('api/files/list', { page: 1 });
 * if (res.code === 900) render(res.data.files);
 */
export type ServiceCall = <D = unknown>(
  path: string,
  fields?: Record<string, unknown>,
  options?: ServiceCallOptions,
) => Promise<DataAnswer<D>>;

/**
 * Makes the {@link ServiceCall} function of a client. Sync calls share one chain per function, so
 * that (say) a series of uploads reaches the server one at a time and in the order they were made,
 * whatever their sizes.
 *
 * @example
 * const serviceCall = createServiceCall(transport);
 * await serviceCall('api/files/upload', { avatar: dataUri }, { sync: true });
 */
export function createServiceCall(transport: Transport): ServiceCall {
  let chain: Promise<unknown> = Promise.resolve();
  return <D = unknown>(path: string, fields: Record<string, unknown> = {}, options: ServiceCallOptions = {}) => {
    const run = () =>
      transport.call<{ code: 900; data: D }>({
        path: path.replace(/^\/+/, ''),
        fields,
        token: options.token ?? 'required',
        ...(options.files ? { files: options.files } : {}),
        ...(options.onUploadProgress ? { onUploadProgress: options.onUploadProgress } : {}),
      });
    if (!options.sync) return run();
    const result = chain.then(run);
    // Calls answer values and never reject, so the chain never breaks on a failed call.
    chain = result;
    return result;
  };
}
