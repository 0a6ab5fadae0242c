import { describe, expect, it } from 'vitest';
import { Code } from './codes.js';
import { errorResponse } from './responses.js';

// The codes of `Code` the server never answers as a failure: success, the client's own 905, and
// the store messages that stay inside the client. Every other code must come with its body, so a
// new failure code cannot be added without its shape.
const notServerFailures = new Set<number>([
  Code.Ok,
  Code.NetworkError,
  Code.StoreOrdered,
  Code.StoreFinished,
  Code.StoreApproved,
  Code.StoreOrderError,
]);

describe('errorResponse', () => {
  const schemaCodes: number[] = errorResponse.options.map((schema) => schema.shape.code.value);

  it.each(Object.entries(Code).filter(([, code]) => !notServerFailures.has(code)))(
    'has exactly one body for %s',
    (_name, code) => {
      expect(schemaCodes.filter((c) => c === code)).toHaveLength(1);
    },
  );

  it('has a body only for failure codes of the protocol', () => {
    const failureCodes: number[] = Object.values(Code).filter((code) => !notServerFailures.has(code));
    expect(schemaCodes.filter((code) => !failureCodes.includes(code))).toEqual([]);
  });
});
