import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { registerUser } from '@till/test-support/users';

interface FieldSchema {
  type?: string;
  enum?: unknown[];
}

interface Operation {
  method: string;
  path: string;
  fields: Record<string, FieldSchema>;
}

/** Every call of the OpenAPI document, with the fields its request body names and their types. */
function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const body = (
        op as { requestBody?: { content: Record<string, { schema?: { properties?: Record<string, FieldSchema> } }> } }
      ).requestBody;
      const schema = body ? Object.values(body.content)[0]?.schema : undefined;
      return { method: method.toUpperCase(), path, fields: schema?.properties ?? {} };
    }),
  );
}

/** Values a hostile client sends: wrong types, edges of every range, NUL, odd text, deep nesting. */
const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '\u0000', 'a\u0000b', '%', '%E0%A4%A', '../../etc/passwd', '[TOKEN]', ' ', '\u2028'),
  fc.string({ minLength: 300, maxLength: 3000 }),
  fc.integer(),
  fc.constantFrom(0, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_VALUE, 1e-300, 0.5),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.string(), { maxLength: 5 }),
);

/**
 * A value for one field: mostly of the field's own type, so that the input passes the schema and
 * reaches the service and the database, with hostile content (NUL, edges of every range, long text);
 * sometimes of any type at all.
 */
function fieldValue(field: FieldSchema) {
  const typed =
    field.enum && field.enum.length
      ? fc.constantFrom(...field.enum)
      : field.type === 'string'
        ? fc.oneof(
            fc.constantFrom('credits-100', 'pro-unlock', 'WELCOME10', 'a@b.co', 'x', '1', 'P1M', 'USD'),
            fc.constantFrom('credits-100\u0000', 'a\u0000@b.co', 'WEL\u0000COME10', '\u0000'),
            fc.string({ maxLength: 30 }),
            fc.string({ minLength: 250, maxLength: 600 }),
          )
        : field.type === 'integer' || field.type === 'number'
          ? fc.oneof(fc.integer({ min: -3, max: 120 }), fc.constantFrom(2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53))
          : field.type === 'boolean'
            ? fc.boolean()
            : hostileValue;
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: hostileValue });
}

/** The calls to try, read from the OpenAPI document a server serves. */
async function servedOperations(): Promise<Operation[]> {
  const t = await startTestApp({ dialect: 'sqlite' });
  try {
    return operationsOf(
      (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
        paths: Record<string, Record<string, unknown>>;
      }>(),
    );
  } finally {
    await t.close();
  }
}

const operations = await servedOperations();

/**
 * Hostile input for every call the OpenAPI document lists, on SQLite and PostgreSQL: bodies made of
 * the call's own field names with hostile values (with a good session token or a bad one), and
 * arbitrary JSON. Whatever arrives, the server answers with no 5xx, and every answer carries a
 * numeric code: a protocol code (900-912) for a call, or the transport's own (4xx) for a body it
 * could not read. Each answer is also held against the call's declared schema by the test app.
 * Each call is its own test, so that a test's time limit covers 40 requests, not every call's.
 */
describe.each(dialects)('hostile input to every call on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    token = (await registerUser(t)).token;
  });
  afterAll(() => t.close());

  it('lists the calls to try', () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.some((o) => o.path === '/api/store/doCheckout')).toBe(true);
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    'answers every hostile body to %s with a code and never a server error',
    async (_name, op) => {
      const failures: string[] = [];
      const names = Object.keys(op.fields);
      const body = fc.oneof(
        { weight: 5, arbitrary: fc.record(Object.fromEntries(names.map((f) => [f, fieldValue(op.fields[f] ?? {})]))) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      );
      const withToken = fc.oneof({ weight: 4, arbitrary: fc.constant(token) }, fc.constantFrom('not-a-token', ''));
      const pathValue = fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('%00', '..', 'x'.repeat(600)));
      await fc
        .assert(
          fc.asyncProperty(body, withToken, pathValue, async (payload, tok, segment) => {
            const path = op.path.replace(/\{[A-Za-z]+\}/g, () => encodeURIComponent(segment));
            const withTokenPayload =
              payload && typeof payload === 'object' && !Array.isArray(payload) && 'token' in op.fields
                ? { token: tok, ...payload }
                : payload;
            const res = await t.app.inject({
              method: op.method as 'GET' | 'POST',
              url: path,
              ...(op.method === 'GET'
                ? {}
                : { payload: JSON.stringify(withTokenPayload), headers: { 'content-type': 'application/json' } }),
            });
            let code: unknown;
            try {
              code = (res.json() as { code?: unknown }).code;
            } catch {
              code = res.headers['content-type']?.toString().startsWith('application/json') ? undefined : 'not json';
            }
            const ok = res.statusCode < 500 && (code === 'not json' || typeof code === 'number');
            if (!ok)
              failures.push(
                `${op.method} ${path} ${JSON.stringify(withTokenPayload).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`,
              );
            return ok;
          }),
          { numRuns: 40, seed: 20261123 },
        )
        .catch(() => undefined);
      expect(failures).toEqual([]);
    },
  );
});
