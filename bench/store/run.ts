// payWithCredits, doCheckout and Stripe webhook events beside a bare Fastify JSON route, all measured
// in this run on this machine, on SQLite. Each store call is a real write transaction: payWithCredits
// moves credits, writes a ledger entry, a paid order, its items and its grants; doCheckout writes a
// pending order with a coupon use; each webhook event is a distinct, signed `checkout.session.completed`
// for its own pending card order, verified and applied (the event's key, the order paid, its grants).
// Two ceilings are measured in the same run: the bare route (HTTP and JSON alone) and the raw rate of
// the same SQL statements each call runs, on a connection of its own with better-sqlite3's own
// prepared statements and transactions (the database's own pace, no server around it).
import '../built.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import Stripe from 'stripe';
import { buildApp, loadConfig } from '../../packages/server/dist/index.js';
import { newId } from '../../packages/server/dist/modules/store/ids.js';
import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';
import { MAX_INT } from '../../packages/server/dist/db/rows.js';
import { alternate, inRounds, measure, reportQuiet, roundMedian, roundRatios } from '../lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PAIRED_ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? 5);
const CONNECTIONS = 10;

const dir = mkdtempSync(join(tmpdir(), 'till-bench-store-'));
const WEBHOOK_SECRET = 'whsec_benchbenchbenchbench';
// The card route is on so that its webhook verifies and applies events; no session is ever made, so
// the API address is never called.
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: `sqlite:${join(dir, 'till.db')}`,
  STRIPE_SECRET_KEY: 'sk_test_bench',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: 'http://127.0.0.1:9',
});
const { app, ctx } = await buildApp(config, { logger: false });
const dbFile = join(dir, 'till.db');
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const bare = Fastify({ logger: false });
bare.post('/bare', async () => ({ code: 900, data: { order: { iden: 'x', status: 'paid' }, balance: 1 } }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`;

/** Pending card orders of one 1.99 USD line granting 100 credits, written straight to the database. */
async function pendingCardOrders(userId: string, count: number): Promise<string[]> {
  const now = Date.now();
  const idens = Array.from({ length: count }, () => newId(now));
  for (let i = 0; i < idens.length; i += 400) {
    const slice = idens.slice(i, i + 400);
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('orders')
        .values(
          slice.map((id) => ({
            id,
            user_id: userId,
            status: 'pending' as const,
            currency: 'USD',
            subtotal: 199,
            discount: 0,
            total: 199,
            credits_spent: 0,
            coupon_code: null,
            provider: 'card',
            data: null,
            note: null,
            created_at: now,
            updated_at: now,
            paid_at: null,
            closed_at: null,
            refund_requested_at: null,
            shortfall_credits: 0,
            subscription_ended_at: null,
          })),
        )
        .execute();
      await trx
        .insertInto('order_items')
        .values(
          slice.map((id) => ({
            order_id: id,
            line: 0,
            product_id: 'credits-100',
            alias: 'credits-100',
            title: '100 credits',
            type: 0,
            price_amount: 199,
            price_currency: 'USD',
            credit_price: null,
            quantity: 1,
            grant_credits: 100,
            grant_period: null,
          })),
        )
        .execute();
    });
  }
  return idens;
}

/** A signed `checkout.session.completed` for one order, as Stripe sends it. */
function completedEvent(iden: string): { body: string; signature: string } {
  const body = JSON.stringify({
    id: `evt_${iden}`,
    object: 'event',
    type: 'checkout.session.completed',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: `cs_test_${iden}`,
        object: 'checkout.session',
        client_reference_id: iden,
        metadata: { iden },
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        amount_total: 199,
        currency: 'usd',
        payment_intent: `pi_${iden}`,
        subscription: null,
      },
    },
  });
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) };
}

/** Webhook events per second, each a new event for a new order (a replayed event would change nothing). */
async function webhookRate(idens: string[], used: { next: number }): Promise<number> {
  const result = await autocannon({
    url: `${base}/api/payments/webhook/stripe`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const iden = idens[used.next++];
          if (!iden) throw new Error('the benchmark ran out of pending orders: make more');
          const event = completedEvent(iden);
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
            body: event.body,
          };
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`webhook: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/**
 * The statements payWithCredits runs for one credit product (in one transaction the guarded balance
 * update, the ledger entry, the paid order and its item), or doCheckout for one priced product and one
 * subscription with a coupon (in one transaction the pending order, its two items in one statement, and
 * the coupon's use for the buyer and in all), run back to back on a connection of their own for
 * `seconds`: transactions per second. Product and coupon lookups are not among them: the server keeps products, and coupons
 * without a usage limit, between the commits that edit them (SQLite), and looks for a coupon's stale
 * holds once every few seconds.
 */
function rawRate(kind: 'payWithCredits' | 'doCheckout', userId: string, seconds: number): number {
  const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;
  const db = new Driver(dbFile);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const balance = db.prepare(
    'update "credit_balances" set "credits" = credits + ? where "user_id" = ? and CAST(credits AS BIGINT) + ? >= ? and CAST(credits AS BIGINT) + ? <= ? returning "credits"',
  );
  const ledger = db.prepare(
    'insert into "credit_ledger" ("id", "user_id", "amount", "reason", "reference", "balance_after", "created_at") values (?, ?, ?, ?, ?, ?, ?)',
  );
  const order = db.prepare(
    'insert into "orders" ("id", "user_id", "status", "currency", "subtotal", "discount", "total", "credits_spent", "coupon_code", "provider", "data", "note", "created_at", "updated_at", "paid_at", "closed_at", "refund_requested_at", "shortfall_credits", "subscription_ended_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const item = db.prepare(
    'insert into "order_items" ("order_id", "line", "product_id", "alias", "title", "type", "price_amount", "price_currency", "credit_price", "quantity", "grant_credits", "grant_period") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // An order's items go in one statement, as the server writes them.
  const twoItems = db.prepare(
    'insert into "order_items" ("order_id", "line", "product_id", "alias", "title", "type", "price_amount", "price_currency", "credit_price", "quantity", "grant_credits", "grant_period") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const mine = db.prepare(
    'insert into "coupon_uses" ("coupon_code", "user_id", "uses", "updated_at") values (?, ?, ?, ?) on conflict ("coupon_code", "user_id") do update set "uses" = coupon_uses.uses + 1, "updated_at" = ?',
  );
  const all = db.prepare(
    'update "coupons" set "used" = used + 1, "updated_at" = ? where "code" = ? and ("usage_limit" is null or "used" < "usage_limit")',
  );
  const pay = db.transaction((now: number, id: string) => {
    const { credits } = balance.get(-1, userId, -1, 0, -1, MAX_INT) as { credits: number };
    ledger.run(newId(now), userId, -1, 'spend', id, credits, now);
    order.run(id, userId, 'paid', 'USD', 0, 0, 0, 1, null, 'credits', null, null, now, now, now, null, null, 0, null);
    item.run(id, 0, 'bench-gem', 'bench-gem', 'Gem', 0, null, null, 1, 1, null, null);
  });
  const checkout = db.transaction((now: number, id: string) => {
    order.run(
      id,
      userId,
      'pending',
      'USD',
      498,
      50,
      448,
      0,
      'WELCOME10',
      'default',
      null,
      null,
      now,
      now,
      null,
      null,
      null,
      0,
      null,
    );
    // better-sqlite3 binds an array's values in turn: the first item's, then the second's.
    twoItems.run([
      ...[id, 0, 'credits-100', 'credits-100', '100 credits', 0, 199, 'USD', null, 1, 100, null],
      ...[id, 1, 'monthly', 'monthly', 'Monthly subscription', 2, 299, 'USD', 300, 1, null, 'P1M'],
    ]);
    mine.run('WELCOME10', userId, 1, now, now);
    all.run(now, 'WELCOME10');
  });
  let done = 0;
  const end = Date.now() + seconds * 1000;
  const start = Date.now();
  while (Date.now() < end) {
    for (let i = 0; i < 50; i++) {
      const now = Date.now();
      const id = newId(now);
      if (kind === 'payWithCredits') {
        pay(now, id);
      } else {
        checkout(now, id);
      }
    }
    done += 50;
  }
  const rate = done / ((Date.now() - start) / 1000);
  db.close();
  return rate;
}

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
  const webhookOrders = await pendingCardOrders(userId, Number(process.env.BENCH_WEBHOOK_ORDERS ?? 60_000));
  const webhookUsed = { next: 0 };
  const sample = completedEvent('sample');
  const checkoutBody = { token, products: 'credits-100;monthly', couponCode: 'WELCOME10' };
  // Webhook events have no goal: the best of alternating rounds, beside the bare route with a body of an
  // event's size. Taken first, so that events still in flight when a round ends are applied by the count below.
  const events = await alternate(ROUNDS, {
    bareEvent: () =>
      measure({ url: bareUrl, body: JSON.parse(sample.body), connections: CONNECTIONS, seconds: SECONDS }),
    webhook: () => webhookRate(webhookOrders, webhookUsed),
  });
  // The goals' figures are taken in rounds, each measuring the calls beside their ceilings, with the
  // ratios the median of the rounds' own: this machine's speed drifts for tens of seconds at a time
  // (see `paired` in bench/lib.ts). In this order each call sits next to both of its ceilings.
  const taken = await inRounds(PAIRED_ROUNDS, {
    rawPay: () => Promise.resolve(rawRate('payWithCredits', userId, SECONDS)),
    payWithCredits: () =>
      measure({ url: `${base}/api/auth/payWithCredits`, body: payBody, connections: CONNECTIONS, seconds: SECONDS }),
    bare: () => measure({ url: bareUrl, body: payBody, connections: CONNECTIONS, seconds: SECONDS }),
    doCheckout: () =>
      measure({ url: `${base}/api/store/doCheckout`, body: checkoutBody, connections: CONNECTIONS, seconds: SECONDS }),
    rawCheckout: () => Promise.resolve(rawRate('doCheckout', userId, SECONDS)),
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
    .where('provider', '=', 'default')
    .executeTakeFirstOrThrow();
  const cardPaid = await ctx.db.kysely
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('provider', '=', 'card')
    .where('status', '=', 'paid')
    .executeTakeFirstOrThrow();

  console.log(
    `${CONNECTIONS} connections, SQLite (WAL); rates are medians of ${PAIRED_ROUNDS} rounds of ${SECONDS} s, ratios the ` +
      `median of the rounds' own (lowest-highest); webhook events: best of ${ROUNDS} alternating rounds`,
  );
  const goals: boolean[] = [];
  for (const [name, key, rawKey] of [
    ['payWithCredits', 'payWithCredits', 'rawPay'],
    ['doCheckout', 'doCheckout', 'rawCheckout'],
  ] as const) {
    const ofBare = roundRatios(taken, key, 'bare');
    const ofRaw = roundRatios(taken, key, rawKey);
    goals.push(ofBare.ratio >= 0.25, ofRaw.ratio >= 0.5);
    const spread = (r: { low: number; high: number }) => `(${r.low.toFixed(2)}-${r.high.toFixed(2)})`;
    console.log(
      `${name.padEnd(16)} ${roundMedian(taken, key).toFixed(0).padStart(7)}/s   bare route ${roundMedian(taken, 'bare').toFixed(0).padStart(7)}/s   ` +
        `ratio ${ofBare.ratio.toFixed(2)} ${spread(ofBare)} (goal >= 0.25) ${ofBare.ratio >= 0.25 ? 'met' : 'MISSED'}   ` +
        `same statements raw ${roundMedian(taken, rawKey).toFixed(0).padStart(7)}/s   ratio ${ofRaw.ratio.toFixed(2)} ${spread(ofRaw)} ` +
        `(goal >= 0.50) ${ofRaw.ratio >= 0.5 ? 'met' : 'MISSED'}`,
    );
  }
  console.log(
    `${'stripe webhook'.padEnd(16)} ${events.webhook.toFixed(0).padStart(7)}/s   bare route ${events.bareEvent.toFixed(0).padStart(7)}/s   ` +
      `ratio ${(events.webhook / events.bareEvent).toFixed(2)}`,
  );
  console.log(
    `written: ${Number(paid.n)} paid credit orders, ${Number(pending.n)} pending checkout orders, ` +
      `${Number(cardPaid.n)} card orders paid by ${webhookUsed.next} webhook events`,
  );
  if (Number(cardPaid.n) !== webhookUsed.next) throw new Error('a webhook event was answered but not applied');
  reportQuiet();
  if (goals.includes(false)) process.exitCode = 1;
} finally {
  await app.close();
  await bare.close();
  rmSync(dir, { recursive: true, force: true });
}
