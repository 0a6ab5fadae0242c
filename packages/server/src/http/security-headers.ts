import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers Helmet sets with these options, worked out once. */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, res, () => undefined);
  return Object.fromEntries(headers);
}

/**
 * The short set for JSON answers (see {@link registerSecurityHeaders}); exported for the answers
 * Fastify sends before any hook runs (a malformed URL).
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-site',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * Security headers on every response. Pages (HTML) get Helmet's full set with our CSP; JSON answers
 * get the short set OWASP gives for REST APIs (no sniffing, no framing, nothing loadable, HTTPS only),
 * because browser features like CSP sources mean nothing for JSON. Both sets are computed once at
 * start: building them per request (as @fastify/helmet does) was a measurable share of the time of
 * the most frequent call.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  connectSrc: string[],
  frameSrc: string[] = [],
  scriptSrc: string[] = [],
): void {
  const page = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // The web app's own files, and the inline scripts of its built shell by their hashes.
        scriptSrc: ["'self'", ...scriptSrc],
        connectSrc: ["'self'", ...connectSrc],
        formAction: ["'self'"],
        // Only the payment pages a route shows in a frame (the payment wall's widget).
        frameSrc: ["'self'", ...frameSrc],
        frameAncestors: ["'none'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
      },
    },
    // Avatars and file links stand in <img> tags of the web app, which may be served from a sibling host.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  // JSON is the hot path: its set goes on in one call before the handler runs; a route may still
  // replace any of them. Pages swap in the full set unless the route chose its own policy.
  const api = API_HEADERS;
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(api);
    // API answers hold accounts, sessions and orders: no browser or shared cache may keep them
    // (ASVS 8.2.1). A route that serves a file may still choose its own policy.
    if (request.url.startsWith('/api/')) void reply.header('cache-control', 'no-store');
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    // A 304 has no content type, and browsers merge its headers into the cached page: the JSON
    // policy (`default-src 'none'`) would then block every script of a revalidated page.
    if (reply.statusCode === 304) {
      for (const name in api) if (reply.getHeader(name) === api[name]) reply.removeHeader(name);
      done(null, payload);
      return;
    }
    const type = reply.getHeader('content-type');
    // Scripts get the page set too: a service worker runs under its own script's policy, and the
    // JSON one (`default-src 'none'`) would stop it from importing Workbox and caching the shell.
    if (typeof type === 'string' && (type.startsWith('text/html') || type.includes('javascript'))) {
      const ownPolicy = reply.getHeader('content-security-policy') !== api['content-security-policy'];
      for (const name in page) {
        if (name === 'content-security-policy' && ownPolicy) continue;
        void reply.header(name, page[name]);
      }
    }
    done(null, payload);
  });
}
