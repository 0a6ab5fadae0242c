import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toInputError, tokenRequest, type InputReasonValue } from '@till/protocol';
import type { z } from 'zod';
import { MAX_INT } from '../db/rows.js';
import { Failure, fail, type Outcome } from '../errors.js';
import type { AnswerCheck } from './answer-check.js';

/** Who is calling, once their token has been checked. */
export interface Caller {
  userId: string;
  sessionId: string;
  level: number;
  email: string;
}

/** Checks a session token; answers the caller, or 901 (at once when the session is already known). */
export type Authenticate = (token: string) => Outcome<Caller> | Promise<Outcome<Caller>>;

/** Whether the caller's session proved its password again recently: undefined when so, else 914. */
export type RecentProof = (caller: Caller) => Promise<Failure | undefined>;

/** What a handler gets besides its parsed input. */
export interface CallContext {
  request: FastifyRequest;
  reply: FastifyReply;
  ip: string;
  userAgent: string | null;
}

/** What a handler gets on a call that needs a token. */
export interface AuthedContext extends CallContext {
  caller: Caller;
}

/** A protocol call: its path, schemas for the OpenAPI document, and its handler. */
interface CallSpecBase<S extends z.ZodType> {
  method?: 'POST' | 'GET';
  /** Path with a leading slash, Fastify style (`/api/resetPassword/:token`). */
  path: string;
  summary: string;
  tag: string;
  request?: S;
  /** Schema of the success body (`code: 900` and the rest), for the OpenAPI document. */
  response?: z.ZodType;
  /** Params of the path, merged into the input before parsing. */
  params?: boolean;
}

export interface PublicCallSpec<S extends z.ZodType> extends CallSpecBase<S> {
  auth?: undefined;
  handler: (input: z.output<S>, ctx: CallContext) => Promise<Outcome<object>>;
}

export interface AuthedCallSpec<S extends z.ZodType> extends CallSpecBase<S> {
  /** Minimum level; the token comes from the payload's `token` field. */
  auth: number;
  /**
   * A change of credentials or an administrator's sensitive action: the session must have proven the
   * password (and second factor) again recently, else 914 (see {@link RecentProof}).
   */
  stepUp?: boolean;
  handler: (input: z.output<S>, ctx: AuthedContext) => Promise<Outcome<object>>;
}

/** Any call spec, public or authenticated. */
export type CallSpec = PublicCallSpec<z.ZodType> | AuthedCallSpec<z.ZodType>;

/** A call described for the OpenAPI document; multipart calls add themselves with {@link CallRegistry.describe}. */
export interface DescribedCall {
  method: string;
  path: string;
  summary: string;
  tag: string;
  request?: z.ZodType;
  response?: z.ZodType;
  contentType?: string;
}

/**
 * A handler's answer already written as JSON text (an object without `code`): the call answers it
 * with `code: 900` put first, and nothing is serialized again. For an answer that is the same text
 * many times over (a kept session's user).
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Longer strings are never tokens; they are refused before any hashing or lookup. */
const MAX_TOKEN = 512;

/**
 * The first value in a call's input that no database column could hold: a string with a NUL
 * character (PostgreSQL refuses them in text) or a number beyond a 32-bit integer. Checked for every
 * call before its schema, so that no field, declared or not, can reach a query and fail there.
 */
export function unstorable(
  value: unknown,
  path = '',
  depth = 0,
): { parameter: string; reason: InputReasonValue } | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? { parameter: path, reason: 'invalid' } : undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) && Math.abs(value) <= MAX_INT ? undefined : { parameter: path, reason: 'too_long' };
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > 8) return { parameter: path, reason: 'invalid' };
  // Keys, not entries: a pair array per field was a measurable share of the lightest calls.
  for (const key of Object.keys(value)) {
    const found = unstorable((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Registers protocol calls on the app and remembers them for the OpenAPI document. Every call
 * answers HTTP 200 with a `code`: the handler's value becomes `{code: 900, ...value}` and a
 * {@link Failure} becomes its protocol body.
 */
export class CallRegistry {
  readonly described: DescribedCall[] = [];

  constructor(
    private readonly app: FastifyInstance,
    /** Checks a session token (901 or the caller): the one check every module's calls use. */
    readonly authenticate: Authenticate,
    /** Checks every answer against its declared schema (tests). */
    private readonly answerCheck?: AnswerCheck,
    /** Checks the recent proof that `stepUp` calls need; without it they are refused. */
    private readonly recentProof?: RecentProof,
  ) {}

  /** Holds an answer up against the schema its call declares, when answers are checked. */
  checkAnswer(path: string, declared: z.ZodType | undefined, body: Record<string, unknown>): void {
    this.answerCheck?.check(path, declared, body);
  }

  /** Adds a call to the document without registering a route (for routes registered by hand). */
  describe(call: DescribedCall): void {
    this.described.push(call);
  }

  define<S extends z.ZodType>(spec: PublicCallSpec<S> | AuthedCallSpec<S>): void {
    const s = spec as CallSpec;
    this.describe({
      method: s.method ?? 'POST',
      path: s.path,
      summary: s.summary,
      tag: s.tag,
      ...(s.request ? { request: s.request } : {}),
      ...(s.response ? { response: s.response } : {}),
    });
    this.app.route({
      method: s.method ?? 'POST',
      url: s.path,
      handler: (request, reply) => this.answer(s, request, reply),
    });
  }

  /**
   * Runs a call (token, level, input, handler) and answers its protocol body, or the reply itself
   * when the handler has sent it: the route hands either straight to Fastify. The generic service
   * route uses it too, passing the fields it read from a multipart body as `fields`.
   */
  async answer(
    spec: CallSpec,
    request: FastifyRequest,
    reply: FastifyReply,
    fields?: Record<string, unknown>,
  ): Promise<Record<string, unknown> | FastifyReply | string> {
    // One async step, and the handler's context built once: an async wrapper around this and a copy
    // of the context per call were a measurable share of the lightest calls.
    const body =
      fields ?? ((request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>);
    const raw = spec.params ? { ...body, ...(request.params as Record<string, unknown>) } : body;
    let caller: Caller | undefined;
    if (spec.auth !== undefined) {
      // The token is checked before the rest of the input, so that an expired session reads as 901
      // (log in again) rather than as a form error.
      const token = raw.token;
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN) {
        return this.respond(spec, reply, fail.invalidToken());
      }
      const checked = this.authenticate(token);
      const who = checked instanceof Promise ? await checked : checked;
      if (who instanceof Failure) return this.respond(spec, reply, who);
      if (who.level < spec.auth) return this.respond(spec, reply, fail.forbidden(spec.auth));
      caller = who;
    }
    const input = inputOf(spec, raw, caller !== undefined);
    if (input instanceof Failure) return this.respond(spec, reply, input);
    if (caller && (spec as AuthedCallSpec<z.ZodType>).stepUp) {
      const missing = this.recentProof ? await this.recentProof(caller) : fail.stepUpRequired(0);
      if (missing) return this.respond(spec, reply, missing);
    }
    const ip = request.ip;
    const userAgent = request.headers['user-agent']?.slice(0, 300) ?? null;
    const outcome = caller
      ? await (spec as AuthedCallSpec<z.ZodType>).handler(input.value, { request, reply, ip, userAgent, caller })
      : await (spec as PublicCallSpec<z.ZodType>).handler(input.value, { request, reply, ip, userAgent });
    return this.respond(spec, reply, outcome);
  }

  /** The protocol body of an outcome, or the reply itself when the handler has sent it (a redirect, a file). */
  private respond(
    spec: CallSpec,
    reply: FastifyReply,
    outcome: Outcome<object>,
  ): Record<string, unknown> | FastifyReply | string {
    if (reply.sent) return reply;
    if (outcome instanceof JsonText) {
      const text = `{"code":900,${outcome.text.slice(1)}`;
      if (this.answerCheck) this.checkAnswer(spec.path, spec.response, JSON.parse(text) as Record<string, unknown>);
      void reply.type('application/json; charset=utf-8');
      return text;
    }
    const body = outcome instanceof Failure ? outcome.toResponse() : { code: 900, ...outcome };
    this.checkAnswer(spec.path, spec.response, body);
    return body;
  }
}

/** A call's parsed input (boxed, since an input may be anything), or why it was refused. */
function inputOf(spec: CallSpec, raw: Record<string, unknown>, authed: boolean): Outcome<{ value: unknown }> {
  const hostile = unstorable(raw);
  if (hostile) return fail.invalidInput(hostile.parameter, hostile.reason);
  // The token was checked before and nothing else is read: parsing again would only cost time on
  // the calls made most (getUserInfo, sessions, lists).
  if (authed && spec.request === tokenRequest) return { value: { token: raw.token } };
  if (!spec.request) return { value: raw };
  const parsed = spec.request.safeParse(raw);
  if (parsed.success) return { value: parsed.data };
  const { parameter, reason } = toInputError(parsed.error);
  return fail.invalidInput(parameter, reason);
}

/** Store and payment answers carry their payload in `data`. */
export function asData<T extends object>(outcome: Outcome<T>): Outcome<{ data: T }> {
  return outcome instanceof Failure ? outcome : { data: outcome };
}
