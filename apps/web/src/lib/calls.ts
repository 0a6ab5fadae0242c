import type { Till } from './till';
import { unwrap } from './api-error';

type ServiceOptions = Parameters<Till['serviceCall']>[2];

/**
 * A generic service call (`{code, data}` answer) through the SDK, for the calls it has no named
 * method for. The SDK adds the session token and, for calls that need one, holds the call until
 * there is one.
 */
export async function serviceData<D>(
  till: Till,
  path: string,
  fields: Record<string, unknown> = {},
  options?: ServiceOptions,
): Promise<D> {
  const res = unwrap(await till.serviceCall<D>(path, fields, options));
  return res.data;
}
