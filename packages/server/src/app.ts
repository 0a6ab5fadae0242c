import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { registerAccountRoutes } from './modules/accounts/routes.js';
import { AccountsService } from './modules/accounts/service.js';
import type { Config } from './config.js';
import { connect, type Db } from './db/connect.js';
import { registerFiles } from './modules/files/routes.js';
import { migrateToLatest } from './db/migrate.js';
import { CallRegistry } from './http/calls.js';
import { ServiceRegistry } from './http/service-calls.js';
import { buildOpenApi } from './http/openapi.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerDevOutbox } from './mail/dev-outbox-routes.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { Limiter } from './security/rate-limit.js';
import { registerStoreRoutes } from './modules/store/services.js';
import { registerWebApp } from './web.js';

/** Everything the modules share, built once per app. */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  redis: Redis | undefined;
  calls: CallRegistry;
  accounts: AccountsService;
  now: () => number;
}

export interface BuildOptions {
  /** Use this database instead of opening `config.databaseUrl` (it is not closed with the app). */
  db?: Db;
  /** Use this mailer instead of the configured one. */
  mailer?: Mailer;
  /** The clock, for tests of expiry. */
  now?: () => number;
  /** Pino logger options, or false to log nothing. */
  logger?: boolean | Record<string, unknown>;
}

// Link tokens ride in some paths; they must never reach a log line.
const SECRET_PATH = /^(\/api\/(?:resetPassword|confirmUser)\/)[^/?#]+/;

/**
 * Builds the whole server: opens the database and applies migrations, wires every module and
 * registers every route. Tests call it with port 0; `main.ts` calls it and listens.
 */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            serializers: {
              req: (req: { method: string; url: string; id: string }) => ({
                method: req.method,
                url: req.url.replace(SECRET_PATH, '$1[redacted]'),
                id: req.id,
              }),
            },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: config.production,
  });

  const db = options.db ?? (await connect(config.databaseUrl));
  await migrateToLatest(db.kysely, db.dialect);
  const mailer = options.mailer ?? createMailer(config.smtpUrl, config.mailFrom);
  // The Redis client is loaded only when counters are shared: it is a sizeable module to keep idle.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2 })
    : undefined;
  const now = options.now ?? Date.now;

  const limits = config.rateLimits;
  const accounts = new AccountsService({
    db: db.kysely,
    read: (query, parameters) => db.read(query, parameters),
    config,
    mailer,
    log: app.log,
    now,
    limiters: {
      loginPerIp: new Limiter('login-ip', { points: limits.loginPerIp, duration: 60 }, redis),
      loginFailures: new Limiter('login-fail', { points: limits.loginFailuresPerAccount, duration: 900 }, redis),
      registerPerIp: new Limiter('register-ip', { points: limits.registerPerIp, duration: 3600 }, redis),
      mailPerIp: new Limiter('mail-ip', { points: limits.mailPerIp, duration: 3600 }, redis),
      mailPerAddress: new Limiter('mail-to', { points: limits.mailPerAddress, duration: 3600 }, redis),
    },
  });
  const calls = new CallRegistry(app, (token) => accounts.authenticate(token));
  const ctx: AppContext = { config, db, mailer, redis, calls, accounts, now };

  registerSecurityHeaders(app, config.corsOrigins);
  // Without other origins to allow, every call is same-origin and CORS has nothing to do.
  if (config.corsOrigins.length) {
    await app.register(cors, {
      origin: config.corsOrigins,
      credentials: true,
      allowedHeaders: ['Content-Type', 'X-XSRF-TOKEN', 'Accept'],
    });
  }

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error, reqId: request.id }, 'request failed');
    // Transport failures only: no stack, no SQL, no internals. The client turns these into 905.
    void reply.status(status).send({
      code: status,
      error:
        status === 500 ? 'internal_error' : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'too_large' : 'bad_request',
      requestId: request.id,
    });
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ code: 404, error: 'not_found', requestId: request.id });
  });

  // Every call is declared before the app is ready, so the document is built once, when first asked for.
  let openApiDocument: Record<string, unknown> | undefined;
  const openApi = () => (openApiDocument ??= buildOpenApi(calls.described, config.publicUrl));
  await app.register(swagger, {
    mode: 'static',
    specification: { document: { openapi: '3.0.3', info: { title: 'Till API', version: '1.0.0' }, paths: {} } },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    transformSpecification: () => openApi(),
    staticCSP: true,
  });
  app.get('/api/openapi.json', () => openApi());
  app.get('/api/health', async () => {
    await db.kysely.selectFrom('users').select('id').limit(1).execute();
    return { code: 900, status: 'ok' };
  });

  registerAccountRoutes(calls, accounts);
  const store = await registerStoreRoutes(app, ctx);
  // Generic service calls (POST /{servicePath}); the files module is the first to add its services.
  const services = new ServiceRegistry(calls);
  await registerFiles(app, ctx, services);
  await services.register(app);

  if (mailer.outbox && !config.production) registerDevOutbox(app, mailer.outbox);
  await registerWebApp(app, config, { catalog: () => store.catalog.listActive() });

  app.addHook('onClose', async () => {
    mailer.close();
    redis?.disconnect();
    if (!options.db) await db.close();
  });

  return { app, ctx };
}
