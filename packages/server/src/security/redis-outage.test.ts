import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../config.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { portForProcess } from '@till/test-support/ports';
import { uniqueEmail } from '@till/test-support/users';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

/** A redis-server of this test's own, on loopback, keeping nothing on disk. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
  // Refused connections while the server starts are expected; they are retried below.
  probe.on('error', () => undefined);
  for (let i = 0; i < 100; i++) {
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
  child.kill('SIGKILL');
  throw new Error('redis-server did not start');
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe.skipIf(!hasRedis)('rate limits when Redis goes away (needs redis-server on the PATH)', () => {
  let redis: ChildProcess | undefined;
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    await stop(redis);
  });

  it('falls back to per-instance counters at once, with one warning, and goes back to Redis when it returns', async () => {
    const port = await portForProcess();
    redis = await startRedis(port);
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    t = await startTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${port}` },
      config: { rateLimits: { ...defaultRateLimits, loginPerIp: 3 } },
      logger: { level: 'info', stream },
    });
    const app = t;
    const login = async () => {
      const started = performance.now();
      const body = await app.call('/api/login', { email: uniqueEmail(), password: 'whatever it is' });
      return { code: body.code, ms: performance.now() - started };
    };
    expect((await login()).code).toBe(902);
    const warnings = () => lines.filter((l) => l.includes('Redis is unreachable'));

    await stop(redis);
    await new Promise((r) => setTimeout(r, 200));
    const during = [await login(), await login(), await login(), await login()];
    // Measured, not benchmarked: a call that waited for Redis's timeouts would take 10 s or more.
    for (const r of during) expect(r.ms).toBeLessThan(1000);
    // The memory counters allow this instance the budget of 3 (less any call that fell back to them
    // before, when Redis was slow to answer a busy machine), then refuse: the limit still holds.
    expect(during[0]!.code).toBe(902);
    expect(during.every((r) => r.code === 902 || r.code === 906)).toBe(true);
    expect(during[3]!.code).toBe(906);
    expect(warnings()).toHaveLength(1);
    expect(JSON.parse(warnings()[0]!)).toMatchObject({ level: 40 });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toMatchObject({ code: 900, status: 'degraded', database: 'ok', redis: 'down' });

    redis = await startRedis(port);
    const deadline = Date.now() + 10_000;
    while (!lines.some((l) => l.includes('Redis is reachable again')) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(lines.some((l) => l.includes('Redis is reachable again'))).toBe(true);
    // The counters are Redis's again: the restarted (empty) Redis holds the new spend.
    expect((await login()).code).toBe(902);
    const client = new Redis({ port, host: '127.0.0.1' });
    client.on('error', () => undefined);
    try {
      expect(await client.keys('till:login-ip*')).toHaveLength(1);
    } finally {
      client.disconnect();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ redis: 'ok' });
    // Closing the client on purpose at shutdown is no outage.
    await t.close();
    t = undefined;
    expect(warnings()).toHaveLength(1);
  });
});
