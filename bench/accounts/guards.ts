// What the login's failure budgets hold against, with the default budgets and the production
// password hash, over real HTTP to a server started here (figures of the accounts' guards, not a
// speed goal):
// - wrong current passwords sent by one session to updateInfo for a minute: how many were checked;
// - the owner's sign-in on a known device while strangers from 10 addresses (behind a trusted proxy
//   on loopback) spend the account's budget, and a stranger's with the right password;
// - 35 logins from one socket, each with its own forged X-Forwarded-For, with TRUST_PROXY unset.
import '../built.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';

const SECONDS = Number(process.env.BENCH_GUARD_SECONDS ?? 60);
type Answer = { code: number; token?: string; deviceToken?: string; retryAfter?: number };

async function serve(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'till-guards-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: `sqlite:${join(dir, 'till.db')}`,
    ...env,
  });
  const { app } = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const call = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
    (await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as Answer;
  const close = async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { call, close };
}

const count = (answers: Answer[], code: number) => answers.filter((a) => a.code === code).length;
const password = 'a long, uncommon passphrase';

// 1. One session, wrong current passwords for a minute, four at a time.
{
  const s = await serve({});
  const reg = await s.call('/api/register', { email: 'owner@example.test', password, name: 'Owner' });
  await s.call('/api/register', { email: 'other@example.test', password, name: 'Other' });
  // Another user's sign-in, timed before and during the wrong guesses.
  const signIns = async (n: number) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await s.call('/api/login', { email: 'other@example.test', password });
      ms.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 200));
    }
    return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
  };
  const quietMedian = await signIns(20);
  const answers: Answer[] = [];
  const end = Date.now() + SECONDS * 1000;
  const worker = async () => {
    for (let i = 0; Date.now() < end; i++)
      answers.push(
        await s.call('/api/auth/updateInfo', {
          token: reg.token,
          password: 'a new passphrase here',
          currentPassword: `wrong ${i}`,
        }),
      );
  };
  const [busyMedian] = await Promise.all([signIns(20), worker(), worker(), worker(), worker()]);
  console.log(
    `updateInfo, one session, ${SECONDS} s of wrong current passwords: ${answers.length} sent, ${count(answers, 902)} checked (902), ${count(answers, 906)} refused unchecked (906); another user's sign-in median ${quietMedian.toFixed(0)} ms before, ${busyMedian.toFixed(0)} ms during`,
  );
  await s.close();
}

// 2. Strangers from 10 addresses spend the account's budget; the owner's known device still gets in.
{
  const s = await serve({ TRUST_PROXY: '127.0.0.1' });
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const email = 'owner@example.test';
  await s.call('/api/register', { email, password, name: 'Owner' });
  const home = await s.call('/api/login', { email, password }, from('198.51.100.20'));
  const guesses = await Promise.all(
    Array.from({ length: 10 }, (_, a) =>
      Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          s.call('/api/login', { email, password: `guess ${n}` }, from(`203.0.113.${a + 1}`)),
        ),
      ),
    ),
  ).then((x) => x.flat());
  const stranger = await s.call('/api/login', { email, password }, from('203.0.113.99'));
  const started = performance.now();
  const owner = await s.call('/api/login', { email, password, deviceToken: home.deviceToken }, from('192.0.2.50'));
  const ownerMs = performance.now() - started;
  console.log(
    `10 addresses x 12 wrong guesses: ${count(guesses, 902)} checked, ${count(guesses, 906)} refused; then the right password from a new address: ${stranger.code} (retry after ${stranger.retryAfter} s); the owner's known device: ${owner.code} in ${ownerMs.toFixed(0)} ms`,
  );
  await s.close();
}

// 3. Forged X-Forwarded-For with the default settings.
{
  const s = await serve({});
  const email = 'owner@example.test';
  await s.call('/api/register', { email, password, name: 'Owner' });
  const answers: Answer[] = [];
  for (let i = 0; i < 35; i++)
    answers.push(await s.call('/api/login', { email, password: `guess ${i}` }, { 'x-forwarded-for': `198.18.${i}.1` }));
  console.log(
    `35 logins from one socket with forged X-Forwarded-For, TRUST_PROXY unset: ${count(answers, 902)} checked, ${count(answers, 906)} refused`,
  );
  await s.close();
}
