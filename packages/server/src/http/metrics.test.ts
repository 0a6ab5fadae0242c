import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultProvider } from '../modules/payments/providers/sandbox/provider.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

const TOKEN = 'metrics-token-0123456789abcdef0123456789';

describe.each(dialects)('Prometheus metrics on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  const scrape = async (token?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('answers only a scraper holding the token', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('metrics-token-0123456789abcdef0123456789-wrong')).statusCode).toBe(401);
    const res = await scrape(TOKEN);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
  });

  it('counts requests by route pattern, provider events and job turns', async () => {
    const u = await registerUser(t);
    const made = await ok<{ order: { iden: string; total: { amount: number; currency: string } } }>(
      t,
      '/api/store/doCheckout',
      { token: u.token, products: 'credits-100' },
    );
    const note = new DefaultProvider(t.ctx.config).signNotification({
      eventId: `e-${made.order.iden}`,
      orderId: made.order.iden,
      outcome: 'paid',
      amount: made.order.total.amount,
      currency: made.order.total.currency,
    });
    for (let i = 0; i < 2; i++) await ok(t, '/api/payments/notify/default', { ...note });
    await t.jobs.runner.turn(t.jobs.list[0]!);
    const text = (await scrape(TOKEN)).body;
    expect(text).toMatch(
      /till_http_request_duration_seconds_count\{method="POST",route="\/api\/store\/doCheckout",status="200"\} 1/,
    );
    expect(text).toContain('till_payment_events_total{provider="default",kind="paid",outcome="applied"} 1');
    expect(text).toContain('till_payment_events_total{provider="default",kind="paid",outcome="unchanged"} 1');
    expect(text).toMatch(/till_job_runs_total\{job="[a-z.]+"\} 1/);
    expect(text).not.toContain(made.order.iden);
    if (dialect === 'postgres') expect(text).toMatch(/till_db_pool_connections\{state="total"\} \d+/);
  });
});

describe.each(dialects)('metrics switched off on %s', (dialect) => {
  it('answers /metrics with 404 without a token configured, also where the web app is served', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'till-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Till shell</title>');
    const t = await startTestApp({ dialect, config: { webDist: dist } });
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 404, error: 'not_found' });
      expect(res.body).not.toContain('till_http_request_duration_seconds');
      // The shell is there for the app's own routes.
      expect((await t.app.inject({ method: 'GET', url: '/orders' })).body).toContain('Till shell');
    } finally {
      await t.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
