import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { COMMAND_TEST_TIMEOUT, SERVER_MAIN } from '@till/test-support/cli';

const dir = mkdtempSync(join(tmpdir(), 'till-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

/**
 * Starts the server process on a port the system picks (`PORT=0`: a port chosen here could be taken
 * by another process's connection before the server listens) and waits until it answers its health
 * check at the address it logged.
 */
async function serve(env: Record<string, string>) {
  const p = run({ PORT: '0', ...env });
  let port: string | undefined;
  let health: unknown;
  // Until it answers, however long a busy machine takes to load it; a start that fails ends the wait.
  for (let i = 0; i < 600 && !health && p.child.exitCode === null; i++) {
    await sleep(100);
    port ??= /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(p.output())?.[1];
    if (!port) continue;
    health = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((r) => r.json())
      .catch(() => undefined);
  }
  if (!port || !health) throw new Error(`the server did not start:\n${p.output()}`);
  return { ...p, port, base: `http://127.0.0.1:${port}`, health };
}

/** A request whose body the test writes when it likes, on the given agent's connection. */
function openRequest(port: string, path: string, headers: Record<string, string>, agent?: Agent) {
  let req!: ClientRequest;
  const response = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers, agent }, (res: IncomingMessage) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  return { req, response };
}

/** Writes `chunks` pieces of `size` bytes, `every` ms apart, while the request stays writable. */
async function trickle(req: ClientRequest, chunks: number, size: number, every: number) {
  for (let i = 0; i < chunks && !req.destroyed; i++) {
    req.write(Buffer.alloc(size, 'a'));
    await sleep(every);
  }
}

const partials = (folder: string) =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.partial'))
    : [];

async function register(base: string): Promise<string> {
  const res = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `u${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.test`,
      password: 'a long, uncommon passphrase',
      name: 'Slow Sender',
      lang: 'en',
    }),
  });
  const body = (await res.json()) as { code: number; token: string };
  if (body.code !== 900) throw new Error(`register: ${JSON.stringify(body)}`);
  return body.token;
}

const BOUNDARY = 'till-test-boundary';
/** The head of a multipart upload: the token field, then the start of one text file. */
const uploadHead = (token: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n`;
const uploadTail = `\r\n--${BOUNDARY}--\r\n`;
const multipartHeaders = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

// Each test starts the built server as a process of its own, as it is deployed.
describe('the server process', { timeout: COMMAND_TEST_TIMEOUT }, () => {
  it('starts on its config, serves, and shuts down cleanly on SIGTERM', async () => {
    const p = await serve({ DATABASE_URL: `sqlite:${join(dir, 'till.db')}` });
    expect(p.health).toEqual({ code: 900, status: 'ok', database: 'ok' });
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('shutting down');
  });

  it('refuses to start on a bad value, naming the variable', async () => {
    const p = run({ PORT: 'eighty' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toMatch(/Till cannot start: PORT:/);
  });
});

describe('graceful shutdown', { timeout: COMMAND_TEST_TIMEOUT }, () => {
  // Long enough for the work the tests let finish, however slow the machine: what a test proves is
  // that the server left before the grace ran out, or that it waited for the grace and then cut.
  const grace = 8000;
  const env = (name: string, graceMs = grace) => ({
    DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
    STORAGE_URL: `file:${join(dir, name)}`,
    SHUTDOWN_GRACE_MS: String(graceMs),
  });
  /** Until an upload has got past the sniffed head and is being written to a partial file. */
  const partialsReach = (folder: string, count: number) =>
    vi.waitFor(() => expect(partials(folder)).toHaveLength(count), { timeout: 30_000, interval: 20 });

  it('lets a slow request on a keep-alive connection finish, answers new ones 503 and exits 0', async () => {
    const p = await serve(env('keepalive', 30_000));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // One quick call first, so that the slow one rides a connection that is already kept alive.
    const first = openRequest(p.port, '/api/health', {}, agent);
    first.req.end();
    expect((await first.response).status).toBe(200);
    const slow = openRequest(
      p.port,
      '/api/login',
      { 'content-type': 'application/json', 'content-length': '80' },
      agent,
    );
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' }).padEnd(80, ' ');
    slow.req.write(body.slice(0, 20));
    // Signalled once the server has taken the slow request in (its access log names it).
    await vi.waitFor(() => expect(p.output()).toContain('"url":"/api/login"'), { timeout: 20_000, interval: 20 });
    const signalled = Date.now();
    p.child.kill('SIGTERM');

    // During the grace: not ready (once the signal is taken in), still alive, and new work is turned
    // away with a protocol body.
    const ready = await vi.waitFor(
      async () => {
        const res = await fetch(`${p.base}/api/ready`);
        expect(res.status).toBe(503);
        return res;
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(await ready.json()).toMatchObject({ code: 503, status: 'shutting_down' });
    const health = await fetch(`${p.base}/api/health`);
    expect(health.status).toBe(200);
    const fresh = await fetch(`${p.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fresh.status).toBe(503);
    expect(await fresh.json()).toMatchObject({ code: 503, error: 'unavailable', requestId: expect.any(String) });
    expect(fresh.headers.get('x-content-type-options')).toBe('nosniff');

    slow.req.end(body.slice(20));
    const answer = await slow.response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ code: 902 });
    // In flight when the drain began: answered, and its keep-alive connection is not offered again.
    expect(answer.connection).toBe('close');
    expect(await p.exited).toBe(0);
    // Left once its last request was answered, long before its 30 s grace.
    expect(Date.now() - signalled).toBeLessThan(30_000);
    agent.destroy();
  });

  it('lets a slow upload finish within the grace, and cuts one that outlasts it without leaving a partial file', async () => {
    const p = await serve(env('uploads'));
    const folder = join(dir, 'uploads');
    const token = await register(p.base);
    const finishing = openRequest(p.port, '/api/files/upload', multipartHeaders);
    const endless = openRequest(p.port, '/api/files/upload', multipartHeaders);
    // Past the 64 KiB the server sniffs before it starts writing, so that both are being stored.
    finishing.req.write(uploadHead(token) + 'a'.repeat(70 * 1024));
    endless.req.write(uploadHead(token) + 'a'.repeat(70 * 1024));
    const cut = endless.response.catch((error: Error) => error);
    const sending = trickle(endless.req, 10_000, 1024, 50);
    await partialsReach(folder, 2);
    await trickle(finishing.req, 5, 1024, 100);

    const signalled = Date.now();
    p.child.kill('SIGTERM');
    await trickle(finishing.req, 10, 1024, 100);
    finishing.req.end(uploadTail);
    const done = await finishing.response;
    expect(JSON.parse(done.body)).toMatchObject({
      code: 900,
      data: { files: [{ name: 'slow.txt', size: 85 * 1024 }] },
    });

    expect(await p.exited).toBe(0);
    // It waited for the grace, then cut the upload that was still coming (whose sender would have
    // gone on for over eight minutes) instead of waiting for it.
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(grace - 200);
    expect(await cut).toBeInstanceOf(Error);
    endless.req.destroy();
    await sending;
    expect(partials(folder)).toEqual([]);
    expect(p.output()).toContain('shutting down');
  });

  it('removes the partial file of an upload cut by a crash at the next start', async () => {
    const names = env('crash');
    const folder = join(dir, 'crash');
    const p = await serve(names);
    const token = await register(p.base);
    const upload = openRequest(p.port, '/api/files/upload', multipartHeaders);
    const cut = upload.response.catch((error: Error) => error);
    upload.req.write(uploadHead(token) + 'a'.repeat(70 * 1024));
    const sending = trickle(upload.req, 10_000, 1024, 50);
    await partialsReach(folder, 1);
    p.child.kill('SIGKILL');
    await p.exited;
    upload.req.destroy();
    await sending;
    await cut;
    expect(partials(folder)).toHaveLength(1);

    const again = await serve(names);
    expect(partials(folder)).toEqual([]);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });
});
