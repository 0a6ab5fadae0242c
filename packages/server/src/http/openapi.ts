import { z } from 'zod';
import type { DescribedCall } from './calls.js';

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): unknown {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

const protocolBody = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'integer', description: '900 on success; see the protocol codes' } },
  additionalProperties: true,
};

/** Builds the OpenAPI 3 document from the calls' protocol schemas. */
export function buildOpenApi(calls: DescribedCall[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of calls) {
    const path = call.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const params = [...call.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const op: Record<string, unknown> = {
      summary: call.summary,
      tags: [call.tag],
      ...(params.length ? { parameters: params } : {}),
      responses: {
        '200': {
          description: 'Every protocol outcome, errors included, is HTTP 200 with a `code`.',
          content: {
            'application/json': {
              schema: call.response ? { oneOf: [schemaOf(call.response, 'output'), protocolBody] } : protocolBody,
            },
          },
        },
      },
    };
    if (call.request && call.method !== 'GET') {
      op.requestBody = {
        required: true,
        content: { [call.contentType ?? 'application/json']: { schema: schemaOf(call.request, 'input') } },
      };
    }
    paths[path] = { ...paths[path], [call.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Till API',
      version: '1.0.0',
      description: 'Accounts, files and store. Every response is JSON with a numeric `code`.',
    },
    servers: [{ url: serverUrl }],
    paths,
  };
}
