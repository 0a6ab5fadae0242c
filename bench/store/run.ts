// payWithCredits and doCheckout throughput beside a bare Fastify JSON route, all measured in this
// run on this machine, on SQLite. Each store call is a real write transaction: payWithCredits moves
// credits, writes a ledger entry, a paid order, its items and its grants; doCheckout writes a pending
// order with a coupon use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { buildApp, loadConfig } from '../../packages/server/src/index.js';
import { alternate, measure } from '../lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 10;

const dir = mkdtempSync(join(tmpdir(), 'till-bench-store-'));
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${join(dir, 'till.db')}` });
const { app, ctx } = await buildApp(config, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const bare = Fastify({ logger: false });
bare.post('/bare', async () => ({ code: 900, data: { order: { iden: 'x', status: 'paid' }, balance: 1 } }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`;

async function call(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (json.code !== 900) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
}

try {
  const reg = await call('/api/register', {
    email: 'bench-store@example.test',
    password: 'a long, uncommon passphrase',
    name: 'Bench',
  });
  const token = reg.token as string;
  const userId = (reg.user as { id: string }).id;
  // The buyer doubles as the administrator who funds them: one ledger entry, as the product does it.
  await ctx.db.kysely.updateTable('users').set({ level: 9, email_confirmed: 1 }).where('id', '=', userId).execute();
  await call('/api/admin/products/save', {
    token,
    product: { alias: 'bench-gem', title: 'Gem', type: 0, creditPrice: 1, grants: {} },
  });
  await call('/api/admin/credits/adjust', { token, userId, amount: 1_000_000_000, reason: 'bench funds' });

  const payBody = { token, products: '["bench-gem"]', dataObj: '{"source":"bench"}' };
  const checkoutBody = { token, products: 'credits-100;monthly', couponCode: 'WELCOME10' };
  const best = await alternate(ROUNDS, {
    bare: () => measure({ url: bareUrl, body: payBody, connections: CONNECTIONS, seconds: SECONDS }),
    payWithCredits: () =>
      measure({ url: `${base}/api/auth/payWithCredits`, body: payBody, connections: CONNECTIONS, seconds: SECONDS }),
    doCheckout: () =>
      measure({ url: `${base}/api/store/doCheckout`, body: checkoutBody, connections: CONNECTIONS, seconds: SECONDS }),
  });

  // Every request must have been a success, not a fast refusal: count what was really written.
  const paid = await ctx.db.kysely
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('provider', '=', 'credits')
    .executeTakeFirstOrThrow();
  const pending = await ctx.db.kysely
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();

  console.log(`${CONNECTIONS} connections, best of ${ROUNDS} alternating rounds of ${SECONDS} s, SQLite (WAL)`);
  for (const [name, value] of [
    ['payWithCredits', best.payWithCredits],
    ['doCheckout', best.doCheckout],
  ] as const) {
    console.log(
      `${name.padEnd(16)} ${value.toFixed(0).padStart(7)}/s   bare route ${best.bare.toFixed(0).padStart(7)}/s   ratio ${(value / best.bare).toFixed(2)}`,
    );
  }
  console.log(`written: ${Number(paid.n)} paid credit orders, ${Number(pending.n)} pending checkout orders`);
} finally {
  await app.close();
  await bare.close();
  rmSync(dir, { recursive: true, force: true });
}
