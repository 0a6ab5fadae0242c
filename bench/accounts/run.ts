// Login and getUserInfo throughput beside a bare Fastify JSON route and the raw argon2id hash rate,
// all measured in this run on this machine.
import '../built.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';
import { ARGON2_OPTIONS } from '../../packages/server/dist/security/passwords.js';
import { alternate, measure, paired, rawHashRate, report, reportQuiet } from '../lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAIRED_ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? 5);
const CONNECTIONS = 10;

const dir = mkdtempSync(join(tmpdir(), 'till-bench-'));
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${join(dir, 'till.db')}` });
config.rateLimits = {
  ...config.rateLimits,
  loginPerIp: 1e9,
  loginFailuresPerAccountAndIp: 1e9,
  loginFailuresPerAccount: 1e9,
};
const { app } = await buildApp(config, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const bare = Fastify({ logger: false });
bare.post('/bare', async () => ({ code: 900, user: { id: 'x', name: 'bare' } }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`;

try {
  const email = 'bench@example.test';
  const password = 'a long, uncommon passphrase';
  const reg = (await (
    await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, name: 'Bench' }),
    })
  ).json()) as { token: string };

  const userInfoBody = { token: reg.token };
  // Three runs, each its own rounds: the goal holds only if every run meets it. Each round measures
  // the two back to back, so that the machine's drift moves both (see `paired`).
  const userInfoRuns: { value: number; baseline: number; ratio: number }[] = [];
  for (let run = 0; run < 3; run++) {
    userInfoRuns.push(
      await paired(
        PAIRED_ROUNDS,
        { value: 'getUserInfo', baseline: 'bare route' },
        () =>
          measure({
            url: `${base}/api/auth/getUserInfo`,
            body: userInfoBody,
            connections: CONNECTIONS,
            seconds: SECONDS,
          }),
        () => measure({ url: bareUrl, body: userInfoBody, connections: CONNECTIONS, seconds: SECONDS }),
      ),
    );
  }
  const { hashRate, login } = await alternate(ROUNDS, {
    hashRate: () => rawHashRate(CONNECTIONS, SECONDS),
    login: () =>
      measure({ url: `${base}/api/login`, body: { email, password }, connections: CONNECTIONS, seconds: SECONDS }),
  });

  console.log(`SQLite, ${CONNECTIONS} connections, rounds of ${SECONDS} s`);
  console.log(
    `getUserInfo: median of ${PAIRED_ROUNDS} rounds, each measuring it and the bare route back to back; ` +
      `login: best of ${ROUNDS} alternating rounds against argon2id m=${ARGON2_OPTIONS.memoryCost} ` +
      `t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}`,
  );
  const ok = [
    ...userInfoRuns.map((r, i) => report(`getUserInfo, run ${i + 1}`, r.value, r.baseline, 'bare route', 0.7, r.ratio)),
    report('login', login, hashRate, 'raw argon2id', 0.8),
  ];
  reportQuiet();
  if (ok.includes(false)) process.exitCode = 1;
} finally {
  await app.close();
  await bare.close();
  rmSync(dir, { recursive: true, force: true });
}
