/** The `error` member of a Stripe API error response. */
export interface StripeErrorBody {
  type: 'invalid_request_error' | 'idempotency_error' | 'card_error' | 'api_error' | 'rate_limit_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
}

/** An API call that answers Stripe's error shape with `status`; thrown by handlers, caught by the server. */
export class ApiFailure extends Error {
  readonly error: StripeErrorBody;
  constructor(
    readonly status: number,
    error: StripeErrorBody,
  ) {
    super(error.message);
    this.error = error.code ? { ...error, doc_url: `https://stripe.com/docs/error-codes/${error.code}` } : error;
  }
}

const invalid = (status: number, message: string, param?: string, code?: string) =>
  new ApiFailure(status, { type: 'invalid_request_error', message, ...(param && { param }), ...(code && { code }) });

export const failures = {
  missing: (param: string) => invalid(400, `Missing required param: ${param}.`, param, 'parameter_missing'),
  unknown: (param: string) => invalid(400, `Received unknown parameter: ${param}`, param, 'parameter_unknown'),
  invalid: (param: string, message: string, code?: string) => invalid(400, message, param, code),
  /** A request that is well formed but not allowed in the object's state (no `param`). */
  state: (message: string, code?: string) => invalid(400, message, undefined, code),
  notFound: (kind: string, id: string, param = 'id') =>
    invalid(404, `No such ${kind}: '${id}'`, param, 'resource_missing'),
  unrecognizedUrl: (method: string, path: string) =>
    invalid(
      404,
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    ),
  noKey: () =>
    invalid(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    ),
  badKey: (key: string) => invalid(401, `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`),
  idempotency: (key: string) =>
    new ApiFailure(400, {
      type: 'idempotency_error',
      message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    }),
};
