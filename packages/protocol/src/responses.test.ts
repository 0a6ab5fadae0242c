import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Code, InputReason } from './codes.js';
import { errorResponse, toInputError } from './responses.js';

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

describe('failure reasons', () => {
  it('are closed lists: a body with a reason not on its list is not a protocol body', () => {
    expect(errorResponse.safeParse({ code: 907, parameter: 'email', reason: 'taken' }).success).toBe(true);
    expect(errorResponse.safeParse({ code: 907, parameter: 'email', reason: 'gone' }).success).toBe(false);
    expect(errorResponse.safeParse({ code: 908, reason: 'expired' }).success).toBe(true);
    expect(errorResponse.safeParse({ code: 908, reason: 'too_long' }).success).toBe(false);
    expect(errorResponse.safeParse({ code: 910, reason: 'declined' }).success).toBe(true);
    expect(errorResponse.safeParse({ code: 910, reason: 'unverifiable' }).success).toBe(false);
    expect(errorResponse.safeParse({ code: 912, status: 'paid', reason: 'credits_spent' }).success).toBe(true);
    expect(errorResponse.safeParse({ code: 912, status: 'paid' }).success).toBe(true);
    expect(errorResponse.safeParse({ code: 912, status: 'paid', reason: 'expired' }).success).toBe(false);
  });

  it('include every reason a refused request schema is answered with', () => {
    const schema = z.object({ name: z.string().min(1).max(3), pin: z.string().min(4), kind: z.enum(['a', 'b']) });
    const inputs = [{}, { name: '' }, { name: 'abcd' }, { name: 'a', pin: '1' }, { name: 'a', pin: '1234', kind: 'c' }];
    const reasons = inputs.map((input) => toInputError(schema.safeParse(input).error!).reason);
    expect(reasons).toEqual(['required', 'required', 'too_long', 'too_short', 'invalid']);
    expect(reasons.every((reason) => Object.values<string>(InputReason).includes(reason))).toBe(true);
  });
});
