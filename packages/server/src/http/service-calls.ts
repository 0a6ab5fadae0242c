import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { fail, Failure, type Outcome } from '../errors.js';
import type { AuthedCallSpec, CallRegistry, CallSpec, PublicCallSpec } from './calls.js';

/** A service that reads the request body itself (multipart with files). */
export interface StreamServiceSpec {
  /** Service path with a leading slash (`/api/files/upload`). */
  path: string;
  summary: string;
  tag: string;
  /** The multipart fields, for the OpenAPI document. */
  request?: z.ZodType;
  response?: z.ZodType;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<Outcome<object>>;
}

// A JSON service called as multipart (the SDK does so when it reports progress) gets its fields
// read into an object; these bound what such a body may hold.
const FIELD_LIMITS = { fields: 50, fieldSize: 64 * 1024, files: 0, parts: 50 };
// Busboy's messages for a body it cannot parse ("Malformed part header", "Unexpected end of form",
// "Multipart: Boundary not found").
const MULTIPART_PARSE_ERROR = /multipart|part header|boundary|unexpected end/i;

/**
 * The generic service call of the protocol, `POST /{servicePath}`: one catch-all route that looks
 * the path up in a registry. Explicitly registered routes win, since Fastify matches static paths
 * before the wildcard. JSON services follow the {@link CallRegistry} conventions (token, level,
 * input, `{code: 900, ...value}`) and also accept their fields as multipart; stream services read
 * the body themselves. An unknown path answers 904 with `parameter: 'servicePath'`.
 */
export class ServiceCalls {
  private readonly json = new Map<string, CallSpec>();
  private readonly streams = new Map<string, StreamServiceSpec>();

  constructor(private readonly calls: CallRegistry) {}

  /** Adds a JSON service (same spec as `calls.define`, minus the route). */
  define<S extends z.ZodType>(spec: PublicCallSpec<S> | AuthedCallSpec<S>): void {
    const s = spec as CallSpec;
    this.json.set(keyOf(s.path), s);
    this.calls.describe({
      method: 'POST',
      path: s.path,
      summary: s.summary,
      tag: s.tag,
      ...(s.request ? { request: s.request } : {}),
      ...(s.response ? { response: s.response } : {}),
    });
  }

  /** Adds a service that reads the multipart body as a stream. */
  defineStream(spec: StreamServiceSpec): void {
    this.streams.set(keyOf(spec.path), spec);
    this.calls.describe({
      method: 'POST',
      path: spec.path,
      summary: spec.summary,
      tag: spec.tag,
      contentType: 'multipart/form-data',
      ...(spec.request ? { request: spec.request } : {}),
      ...(spec.response ? { response: spec.response } : {}),
    });
  }

  /**
   * Registers the catch-all route. Multipart parsing is registered inside its own scope, so the
   * explicitly registered JSON calls keep refusing multipart bodies (415) as before.
   */
  async register(app: FastifyInstance): Promise<void> {
    await app.register(async (scope) => {
      await scope.register(multipart);
      scope.post('/*', async (request, reply) => {
        const body = await this.answer(request, reply);
        return reply.sent ? reply : body;
      });
    });
  }

  private async answer(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Record<string, unknown> | FastifyReply | string> {
    const path = keyOf((request.params as { '*': string })['*']);
    const stream = this.streams.get(path);
    if (stream) {
      const outcome = await stream.handler(request, reply);
      const body = outcome instanceof Failure ? outcome.toResponse() : { code: 900, ...outcome };
      this.calls.checkAnswer(stream.path, stream.response, body);
      return body;
    }
    const spec = this.json.get(path);
    // An unknown service's multipart body is left unread; Node discards it after the answer.
    if (!spec) return fail.notFound('servicePath').toResponse() as Record<string, unknown>;
    if (!request.isMultipart()) return this.calls.answer(spec, request, reply);
    const fields = await readFields(request);
    return fields instanceof Failure ? fields.toResponse() : this.calls.answer(spec, request, reply, fields);
  }
}

function keyOf(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/** The fields of a multipart body, for a JSON service; a file part is refused. */
async function readFields(request: FastifyRequest): Promise<Outcome<Record<string, unknown>>> {
  const fields: Record<string, unknown> = {};
  try {
    for await (const part of request.parts({ limits: FIELD_LIMITS })) {
      if (part.type === 'file') {
        part.file.resume();
        return fail.invalidInput(part.fieldname, 'invalid');
      }
      if (part.valueTruncated) return fail.invalidInput(part.fieldname, 'too_long');
      fields[part.fieldname] = part.value;
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') return fail.invalidInput('file', 'invalid');
    if (code?.startsWith('FST_')) return fail.invalidInput('fields', 'invalid');
    // Busboy's parse errors carry no code: a malformed or truncated body is the client's fault.
    if (error instanceof Error && MULTIPART_PARSE_ERROR.test(error.message))
      return fail.invalidInput('fields', 'invalid');
    throw error;
  }
  return fields;
}
