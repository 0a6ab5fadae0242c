import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/connect.js';

/** What the server counts; each method is a no-op when metrics are off. */
export interface Metrics {
  /** A provider event that reached the event flow: applied, or refused, or seen before. */
  paymentEvent(provider: string, kind: string, outcome: 'applied' | 'unchanged' | 'refused'): void;
  /** A turn of a housekeeping job, with how much it did. */
  jobRan(job: string, done: number): void;
}

/** Metrics switched off (no `METRICS_TOKEN`): nothing is counted and nothing is loaded. */
export const noMetrics: Metrics = { paymentEvent: () => undefined, jobRan: () => undefined };

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Prometheus metrics at `GET /metrics`, for a scraper holding the token (`Authorization: Bearer`):
 * request counts and latency by route and status, the database pool, provider events applied and
 * housekeeping jobs run, plus the process's own (memory, CPU, event loop). Each app has a registry
 * of its own, so that several apps in one process (tests) count apart. prom-client is loaded only
 * when metrics are on.
 */
export async function registerMetrics(app: FastifyInstance, db: Db, token: string): Promise<Metrics> {
  const prom = await import('prom-client');
  const registry: Registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const requests: Histogram<'method' | 'route' | 'status'> = new prom.Histogram({
    name: 'till_http_request_duration_seconds',
    help: 'Requests by route and status, with their duration.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const payments: Counter<'provider' | 'kind' | 'outcome'> = new prom.Counter({
    name: 'till_payment_events_total',
    help: 'Provider events that reached the event flow, by provider, kind and outcome.',
    labelNames: ['provider', 'kind', 'outcome'],
    registers: [registry],
  });
  const jobs: Counter<'job'> = new prom.Counter({
    name: 'till_job_runs_total',
    help: 'Turns of housekeeping jobs run by this instance.',
    labelNames: ['job'],
    registers: [registry],
  });
  const jobWork: Counter<'job'> = new prom.Counter({
    name: 'till_job_items_total',
    help: 'What housekeeping jobs removed or closed.',
    labelNames: ['job'],
    registers: [registry],
  });
  const stats = db.poolStats;
  if (stats) {
    const pool: Gauge<'state'> = new prom.Gauge({
      name: 'till_db_pool_connections',
      help: 'Database pool connections by state.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const s = stats();
        pool.set({ state: 'total' }, s.total);
        pool.set({ state: 'idle' }, s.idle);
        pool.set({ state: 'waiting' }, s.waiting);
      },
    });
  }

  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, never the raw URL: ids and tokens stay out of the labels.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') {
      requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    }
    done();
  });
  app.get('/metrics', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!sameToken(given, token)) return reply.status(401).send({ code: 401, error: 'unauthorized' });
    return reply.type(registry.contentType).send(await registry.metrics());
  });

  return {
    paymentEvent: (provider, kind, outcome) => payments.inc({ provider, kind, outcome }),
    jobRan: (job, done) => {
      jobs.inc({ job });
      jobWork.inc({ job }, done);
    },
  };
}
