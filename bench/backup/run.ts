// Credit purchases while the server takes backups, beside the same purchases without: the p99 of
// payWithCredits in both, measured in the same run on the same database, on SQLite. The database is
// grown first (BENCH_BACKUP_ROWS ledger entries, 200,000 by default) so that a backup takes long
// enough to overlap the whole measurement: during it, backups are started one after another.
import '../built.js';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';
import { newId } from '../../packages/server/dist/modules/store/ids.js';
import { inRounds, reportQuiet, roundMedian, roundRatios } from '../lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const ROWS = Number(process.env.BENCH_BACKUP_ROWS ?? 200_000);
const CONNECTIONS = 10;
const GOAL = 2;

const dir = mkdtempSync(join(tmpdir(), 'till-bench-backup-'));
const dbFile = join(dir, 'till.db');
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: `sqlite:${dbFile}`,
  STORAGE_URL: `file:${join(dir, 'uploads')}`,
  BACKUP_URL: `file:${join(dir, 'backups')}`,
  BACKUP_KEEP: '1',
});
const { app, ctx } = await buildApp(config, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const db = ctx.db.kysely;

async function call(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

// A buyer with credits for the whole run, and an administrator who starts the backups.
const registered = async (email: string) => {
  const r = await call('/api/register', { email, password: 'a long, uncommon passphrase', name: 'Bench', lang: 'en' });
  return { token: r.token as string, id: (r.user as { id: string }).id };
};
const buyer = await registered('buyer@bench.test');
const admin = await registered('admin@bench.test');
await db.updateTable('users').set({ level: 9, email_confirmed: 1 }).where('id', '=', admin.id).execute();
const FUNDS = 1_000_000_000;
const now = Date.now();
await db.transaction().execute(async (trx) => {
  await trx.updateTable('credit_balances').set({ credits: FUNDS }).where('user_id', '=', buyer.id).execute();
  await trx
    .insertInto('credit_ledger')
    .values({
      id: newId(now),
      user_id: buyer.id,
      amount: FUNDS,
      reason: 'adjustment',
      reference: 'bench funds',
      balance_after: FUNDS,
      created_at: now,
    })
    .execute();
  await trx
    .insertInto('products')
    .values({
      id: 'bench-gem',
      alias: 'bench-gem',
      title: 'Gem',
      description: '',
      type: 0,
      price_amount: null,
      price_currency: null,
      credit_price: 1,
      grant_credits: null,
      grant_period: null,
      image_url: null,
      store_ids: '{}',
      active: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
});

// The grown database: users with a ledger of credits given and spent, the history a shop piles up.
const started = Date.now();
const PER_USER = 20;
for (let done = 0; done < ROWS; done += 2000) {
  await db.transaction().execute(async (trx) => {
    const users = Array.from({ length: 2000 / PER_USER }, (_, i) => ({
      id: `bench-user-${done + i * PER_USER}`,
      email: `u${done + i * PER_USER}@bench.test`,
      name: 'A buyer with a history',
      lang: 'en',
      level: 1,
      email_confirmed: 1,
      password_hash: 'x'.repeat(97),
      pending_email: null,
      avatar_file_id: null,
      avatar_key: null,
      created_at: now,
      updated_at: now,
      flagged_at: null,
      flag_reason: null,
      deleted_at: null,
    }));
    await trx.insertInto('users').values(users).execute();
    await trx
      .insertInto('credit_balances')
      .values(users.map((u) => ({ user_id: u.id, credits: 0 })))
      .execute();
    const entries = users.flatMap((u) =>
      Array.from({ length: PER_USER }, (_, k) => ({
        id: newId(now),
        user_id: u.id,
        amount: k % 2 === 0 ? 100 : -100,
        reason: k % 2 === 0 ? 'purchase' : 'spend',
        reference: `order-${u.id}-${k}`,
        balance_after: k % 2 === 0 ? 100 : 0,
        created_at: now,
      })),
    );
    for (let i = 0; i < entries.length; i += 500)
      await trx
        .insertInto('credit_ledger')
        .values(entries.slice(i, i + 500))
        .execute();
  });
}
const grownMs = Date.now() - started;

const purchase = { token: buyer.token, products: JSON.stringify(['bench-gem']) };

/** The p99 latency (ms) of payWithCredits over SECONDS, 10 connections. */
async function p99(): Promise<number> {
  const result = await autocannon({
    url: `${base}/api/auth/payWithCredits`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(purchase),
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.latency.p99;
}

const backups: { ms: number; size: number }[] = [];
/** The p99 while backups are taken one after another for the whole measurement. */
async function p99DuringBackups(): Promise<number> {
  let measuring = true;
  const loop = (async () => {
    while (measuring) {
      const t0 = Date.now();
      const r = await call('/api/admin/backups/start', { token: admin.token });
      const backup = (r.data as { backup?: { size: number } } | undefined)?.backup;
      if (!backup) throw new Error(`the backup failed: ${JSON.stringify(r)}`);
      backups.push({ ms: Date.now() - t0, size: backup.size });
    }
  })();
  // The first backup has begun copying before the measurement starts.
  await new Promise((r) => setTimeout(r, 50));
  const value = await p99();
  measuring = false;
  await loop;
  return value;
}

const dbBytes = statSync(dbFile).size + (statSync(`${dbFile}-wal`, { throwIfNoEntry: false })?.size ?? 0);
const taken = await inRounds(ROUNDS, { without: p99, during: p99DuringBackups });
const { ratio, low, high } = roundRatios(taken, 'during', 'without');
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const backupMs = backups.map((b) => b.ms).sort((a, b) => a - b);

console.log(
  `database: ${ROWS} ledger entries of ${ROWS / PER_USER} users, ${mb(dbBytes)} (grown in ${(grownMs / 1000).toFixed(0)} s)`,
);
console.log(
  `backups: ${backups.length} taken, ${backupMs[0]}-${backupMs.at(-1)} ms each, archive ${mb(backups.at(-1)?.size ?? 0)}`,
);
console.log(
  `payWithCredits p99  without ${roundMedian(taken, 'without').toFixed(1)} ms   during backups ${roundMedian(taken, 'during').toFixed(1)} ms   ` +
    `ratio ${ratio.toFixed(2)} (${low.toFixed(2)}-${high.toFixed(2)} over ${ROUNDS} rounds; goal < ${GOAL.toFixed(2)}) ${ratio < GOAL ? 'met' : 'MISSED'}`,
);
reportQuiet();
// The checkpoint worker is unref'd and may still be copying a large WAL when the database closes:
// a timer keeps the process up until the close has waited for it.
const keepAlive = setInterval(() => undefined, 1000);
await app.close();
clearInterval(keepAlive);
rmSync(dir, { recursive: true, force: true });
process.exit(ratio < GOAL ? 0 : 1);
