import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Config } from './config.js';
import type { AppContext, BuildOptions } from './context.js';
import { connect } from './db/connect.js';
import { JobRunner, type Job } from './db/jobs.js';
import { startLiveness } from './db/liveness.js';
import { migrateToLatest } from './db/migrate.js';
import { AccountDeletion } from './flows/account-deletion.js';
import { Flows } from './flows/index.js';
import { CallRegistry } from './http/calls.js';
import type { ModuleHost, TillModule } from './http/module.js';
import { buildOpenApi } from './http/openapi.js';
import { redactUrl } from './http/redact.js';
import { registerMetrics, noMetrics } from './http/metrics.js';
import { registerAppLinks } from './http/app-links.js';
import { API_HEADERS, registerSecurityHeaders } from './http/security-headers.js';
import { ServiceCalls } from './http/service-calls.js';
import { Drain, HEALTH_PATH, READY_PATH } from './http/shutdown.js';
import { registerDevOutbox } from './mail/dev-outbox-routes.js';
import { createMailer } from './mail/mailer.js';
import { AccountsModule, accountLimiters } from './modules/accounts/index.js';
import { FilesModule, openStorage } from './modules/files/index.js';
import { PaymentsModule, refsOfOrders, type PaymentPorts } from './modules/payments/index.js';
import { StoreModule } from './modules/store/index.js';
import { redisOptions, redisUp, watchRedis } from './security/redis.js';
import type { SecurityEvents } from './security/security-events.js';
import { openBackupStore } from './ops/backup-store.js';
import { Backups } from './ops/backups.js';
import { readWebBuild, registerWebApp, shellScriptSources } from './web.js';

/**
 * Builds the whole server: opens the database and applies migrations, wires every module and
 * registers every route. Tests call it with port 0; `main.ts` calls it and listens.
 */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<{ app: FastifyInstance; ctx: AppContext; jobs: { runner: JobRunner; list: Job[] }; drain: Drain }> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            serializers: {
              req: (req: { method: string; url: string; id: string }) => ({
                method: req.method,
                // Link tokens and signatures ride in some URLs; they must never reach a log line.
                url: redactUrl(req.url),
                id: req.id,
              }),
            },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    genReqId: () => randomUUID(),
    // A URL Fastify cannot decode (`/api/%E0%A4%A`) is answered before any hook runs: it gets the
    // same body and headers as every other transport failure here, not Fastify's own.
    frameworkErrors: (_error, request, reply) => {
      void (reply as FastifyReply)
        .headers(API_HEADERS)
        .header('cache-control', 'no-store')
        .status(400)
        .send({ code: 400, error: 'bad_request', requestId: request.id });
    },
    bodyLimit: 1024 * 1024,
    // A number of proxies is the hops to believe, counted from the server.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
  });

  const db =
    options.db ??
    (await connect(config.databaseUrl, {
      groupCommit: config.sqliteGroupCommit,
      onCheckpointFailure: (error) =>
        app.log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'background checkpoints failed: the writer checkpoints the database itself again',
        ),
    }));
  await migrateToLatest(db.kysely, db.dialect);
  const mailer = options.mailer ?? createMailer(config.smtpUrl, config.mailFrom);
  // The Redis client is loaded only when counters are shared: it is a sizeable module to keep idle.
  const redis = config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, redisOptions) : undefined;
  const unwatchRedis = redis ? watchRedis(redis, app.log) : undefined;
  const now = options.now ?? Date.now;

  const ctx: AppContext = { config, db, mailer, redis, now };

  // The modules, each built from what it needs. None imports another, and none names another's
  // tables (table-ownership.test.ts): the accounts module gets its avatars from the files module and
  // its users' balances from the store, the files module asks the accounts module about owners,
  // payments reach orders through the flows, and the flows compose the store and payments.
  const log = app.log;
  const liveness = await startLiveness(db, log);
  // Files and accounts need each other: the ports close over the module built after.
  const files = await FilesModule.open({
    db: db.kysely,
    config,
    log,
    now,
    liveness,
    owners: {
      holdLive: (userId, trx) => accounts.fileOwners.holdLive(userId, trx),
      hasAvatar: (key) => accounts.fileOwners.hasAvatar(key),
      avatarOf: (userId) => accounts.fileOwners.avatarOf(userId),
    },
  });
  // Passkey changes and deletions are written to the accounts module's security log, in the
  // transaction of their change (tests may record them instead).
  const events: SecurityEvents = options.securityEvents ?? {
    record: (event, trx) => accounts.securityEvents.write(event, trx),
  };
  const accounts = new AccountsModule({
    db: db.kysely,
    read: (query, parameters) => db.read(query, parameters),
    ...(db.version ? { version: db.version } : {}),
    config,
    mailer,
    log,
    now,
    limiters: accountLimiters(config.rateLimits, redis),
    avatars: files.avatars,
    // Balances are the store's: the accounts module shows them and opens one with each account.
    balances: {
      of: (userId) => store.balances.of(userId),
      ofMany: (userIds) => store.balances.ofMany(userIds),
      open: (trx, userId) => store.balances.open(trx, userId),
    },
    events,
    passwords: options.passwords,
  });
  const store: StoreModule = new StoreModule({
    db: db.kysely,
    dialect: db.dialect,
    read: (query, parameters) => db.read(query, parameters),
    ...(db.version ? { version: db.version } : {}),
    ...(db.countApart ? { countApart: db.countApart } : {}),
    config,
    log,
    now,
    securityEvents: accounts.securityEvents,
    accounts: accounts.buyers,
    paymentRefs: refsOfOrders,
  });
  // Payments call back into the flows, which are built from payments: the ports close over them.
  const ports: PaymentPorts = {
    findOrder: (iden, lang) => flows.findOrder(iden, lang),
    buyerOf: (iden) => flows.buyerOf(iden),
    periodsOf: (iden) => flows.periodsOf(iden),
    applyEvent: (provider, event) => flows.applyEvent(provider, event),
    cancelOrder: (iden) => flows.cancelOrder(iden),
  };
  const catalog = {
    typeOfStoreId: (storeId: string, platform: string) => store.catalog.typeOfStoreId(storeId, platform),
  };
  const payments = new PaymentsModule({ db: db.kysely, config, log, now, catalog }, ports);
  // Counted only when a scraper may read them: prom-client stays unloaded otherwise.
  const metrics = config.metricsToken ? await registerMetrics(app, db, config.metricsToken) : noMetrics;
  // Without a token there is nothing to scrape: the path is not found, rather than the web app's page
  // answering 200 to a scraper that was set up wrong.
  if (!config.metricsToken) app.get('/metrics', (_request, reply) => reply.callNotFound());
  const flows: Flows = new Flows({
    db: db.kysely,
    config,
    log,
    now,
    store,
    payments,
    metrics,
    mailer,
    buyers: {
      recipient: (userId) => accounts.recipientOf(userId),
      flag: (trx, userId, reason, at) => accounts.flag(trx, userId, reason, at),
    },
  });
  const deletion = new AccountDeletion({ db: db.kysely, accounts, files, events, log, now });
  // Backups read the uploads through a storage of their own, closed with them.
  const backupStorage = await openStorage(config.storageUrl);
  const backups = new Backups({
    db: db.kysely,
    databaseFile: db.file,
    storage: backupStorage,
    store: await openBackupStore(config.backup.url),
    config,
    log,
    now,
    holder: liveness.id,
    ...(db.checkpoints ? { checkpoints: db.checkpoints } : {}),
    ...(options.backupThreadNice !== undefined ? { threadNice: options.backupThreadNice } : {}),
  });
  app.addHook('onClose', () => backupStorage.close());
  const modules: TillModule[] = [accounts, store, payments, flows, files, deletion, backups];

  const calls = new CallRegistry(
    app,
    (token) => accounts.authenticate(token),
    options.answerCheck,
    (caller) => accounts.recentProof(caller),
  );
  const host: ModuleHost = { app, calls, services: new ServiceCalls(calls) };

  // The web app's shell, read once: its inline scripts are allowed by hash, and it is what is served.
  const web = readWebBuild(config);
  registerSecurityHeaders(app, config.corsOrigins, payments.frameOrigins(), web ? shellScriptSources(web.shell) : []);
  const drain = new Drain();
  drain.register(app);
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
  // Whether the database answers a query; a failure is logged, and the probe answers 'down'.
  const database = async (): Promise<'ok' | 'down'> => {
    try {
      await db.kysely.selectFrom('users').select('id').limit(1).execute();
      return 'ok';
    } catch (err) {
      app.log.warn({ err }, 'health check: the database does not answer');
      return 'down';
    }
  };
  // Liveness: up while the database answers, also while draining. Redis only degrades it: without
  // Redis the rate limits count per instance, which is no reason to restart the server.
  app.get(HEALTH_PATH, async (_request, reply) => {
    const db = await database();
    const shared = redis ? { redis: redisUp(redis) ? 'ok' : 'down' } : {};
    if (db === 'down') return reply.status(503).send({ code: 503, status: 'down', database: db, ...shared });
    return { code: 900, status: shared.redis === 'down' ? 'degraded' : 'ok', database: db, ...shared };
  });
  // Readiness: whether to send this copy traffic. Off as soon as a shutdown begins.
  app.get(READY_PATH, async (_request, reply) => {
    if (drain.active) return reply.status(503).send({ code: 503, status: 'shutting_down' });
    if ((await database()) === 'down') return reply.status(503).send({ code: 503, status: 'down', database: 'down' });
    return { code: 900, status: 'ready' };
  });

  for (const module of modules) await module.register(host);
  const jobs = new JobRunner(db.kysely, app.log, now, (job, done) => metrics.jobRan(job, done));
  const scheduled = modules.flatMap((m) => m.jobs?.() ?? []);
  if (options.jobs !== false) app.addHook('onReady', async () => jobs.start(scheduled));
  app.addHook('onClose', () => jobs.stop());
  // Generic service calls (POST /{servicePath}) go last: the catch-all must not shadow a module's route.
  await host.services.register(app);

  if (mailer.outbox && !config.production) registerDevOutbox(app, mailer.outbox);
  registerAppLinks(app, config.appLinks);
  if (web) await registerWebApp(app, web, { catalog: (lang) => store.catalog.listActive(lang) });

  app.addHook('onClose', async () => {
    mailer.close();
    unwatchRedis?.();
    redis?.disconnect();
    await liveness.close();
    if (!options.db) await db.close();
  });

  return { app, ctx, jobs: { runner: jobs, list: scheduled }, drain };
}
