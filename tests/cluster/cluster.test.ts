import { randomBytes } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../packages/server/src/config.js';
import { openStorage } from '../../packages/server/src/modules/files/storage/open-storage.js';
import type { ObjectStorage } from '../../packages/server/src/modules/files/storage/storage.js';
import { DefaultProvider } from '@till/server/testing';
import { createTestDb, testRedisUrl, type TestDb } from '@till/test-support/db';
import { portForProcess } from '@till/test-support/ports';
import { startS3, type TestS3 } from '@till/test-support/s3';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { killAll, startServer, started, type ServerProcess } from './processes.js';

// Two copies of the built server on one PostgreSQL schema, one Redis and one S3 bucket: what a
// deployment with several instances is. Every race below sends its requests alternately to both.
const enabled = Boolean(process.env.TEST_DATABASE_URL && testRedisUrl);

type Answer = Record<string, unknown> & { code: number; status: number };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PASSWORD = 'a long, uncommon passphrase';
const run = randomBytes(4).toString('hex');
let mailCount = 0;
const email = (what: string) => `${what}${(mailCount += 1)}.${run}@example.test`;

/** Counts answers by code. */
function codes(answers: { code: number }[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.code] = (out[a.code] ?? 0) + 1;
  return out;
}

async function post(proc: ServerProcess, path: string, body: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${proc.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { ...((await res.json()) as { code: number }), status: res.status };
}

/** The data of a call that must succeed. */
async function ok<T = Record<string, unknown>>(
  proc: ServerProcess,
  path: string,
  body: Record<string, unknown>,
): Promise<T> {
  const res = await post(proc, path, body);
  if (res.code !== 900) throw new Error(`${path} on ${proc.name} answered ${JSON.stringify(res)}`);
  return (res.data ?? res) as T;
}

/** A multipart upload written by the test at its own pace, so that it can be in flight when a server dies. */
function openUpload(proc: ServerProcess, token: string) {
  const boundary = `----till${randomBytes(8).toString('hex')}`;
  let req!: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = httpRequest(
      {
        host: '127.0.0.1',
        port: proc.port,
        path: '/api/files/upload',
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => {
          try {
            resolve({ ...(JSON.parse(body) as { code: number }), status: res.statusCode ?? 0 });
          } catch {
            reject(new Error(`not JSON (${res.statusCode}): ${body}`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  req.write(`--${boundary}\r\ncontent-disposition: form-data; name="token"\r\n\r\n${token}\r\n`);
  return {
    answer,
    req,
    /** Starts a file part and writes `bytes` of a PDF (enough to pass the type check). */
    startFile(name: string, bytes: number) {
      req.write(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: application/pdf\r\n\r\n`,
      );
      req.write(pdf(bytes));
    },
    endFile() {
      req.write('\r\n');
    },
    more(bytes: number) {
      if (!req.destroyed && !req.writableEnded) req.write(randomBytes(bytes));
    },
    finish() {
      req.end(`--${boundary}--\r\n`);
    },
  };
}

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'), randomBytes(bytes)]);

/** A whole upload of `files` small PDFs: the files' ids. */
async function upload(proc: ServerProcess, token: string, files = 1): Promise<string[]> {
  const u = openUpload(proc, token);
  for (let i = 0; i < files; i++) {
    u.startFile(`doc-${i}.pdf`, 20_000);
    u.endFile();
  }
  u.finish();
  const res = await u.answer;
  if (res.code !== 900) throw new Error(`upload on ${proc.name} answered ${JSON.stringify(res)}`);
  return (res.data as { files: { id: string }[] }).files.map((f) => f.id);
}

describe.runIf(enabled)('two server processes on one PostgreSQL, Redis and S3', () => {
  let db: TestDb;
  let s3: TestS3;
  let smtp: TestSmtp;
  let storage: ObjectStorage;
  let env: Record<string, string>;
  let a: ServerProcess;
  let b: ServerProcess;
  let adminToken: string;
  const signingSecret = randomBytes(32).toString('base64url');
  const both = () => [a, b];
  /** The housekeeping jobs that ran so far, on any server started. */
  /** Every job turn either server ran, with its log line's time. */
  const runs = () =>
    started
      .flatMap((proc) => proc.output().split('\n'))
      .flatMap((line) => {
        if (!/"msg":"job ran"/.test(line)) return [];
        const job = /"job":"([^"]+)"/.exec(line)?.[1];
        const time = Number(/"time":(\d+)/.exec(line)?.[1]);
        return job ? [{ job, time }] : [];
      });
  const turns = () => runs().map((r) => r.job);
  /** Waits, at most 60 s (a busy machine starts its servers slowly), until `job` has run on some server. */
  const ranOnce = async (job: string) => {
    for (let i = 0; i < 1200 && !turns().includes(job); i++) await sleep(50);
  };
  /** The i-th request's server: alternately one and the other. */
  const pick = (i: number) => (i % 2 ? b : a);

  async function register(
    proc: ServerProcess,
    what = 'buyer',
  ): Promise<{ token: string; userId: string; email: string }> {
    const address = what.includes('@') ? what : email(what);
    const res = await ok<{ token: string; user: { id: string } }>(proc, '/api/register', {
      email: address,
      password: PASSWORD,
      name: 'Buyer',
      lang: 'en',
    });
    return { token: res.token, userId: res.user.id, email: address };
  }

  async function credit(userId: string, amount: number): Promise<void> {
    await ok(a, '/api/admin/credits/adjust', { token: adminToken, userId, amount, reason: 'cluster test funds' });
  }

  async function product(creditPrice: number): Promise<string> {
    const res = await ok<{ product: { id: string } }>(b, '/api/admin/products/save', {
      token: adminToken,
      product: { alias: `item-${randomBytes(4).toString('hex')}`, title: 'Item', type: 0, creditPrice, grants: {} },
    });
    return res.product.id;
  }

  beforeAll(async () => {
    const [database, bucket, mail, portA, portB] = await Promise.all([
      createTestDb('postgres'),
      startS3(),
      startSmtp(),
      portForProcess(),
      portForProcess(),
    ]);
    db = database;
    s3 = bucket;
    smtp = mail;
    storage = await openStorage(s3.storageUrl);
    const adminEmail = email('admin');
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl ?? '',
      STORAGE_URL: s3.storageUrl,
      AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? '',
      AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? '',
      SMTP_URL: smtp.url,
      SIGNING_SECRET: signingSecret,
      PUBLIC_URL: `http://127.0.0.1:${portA}`,
      ADMIN_EMAILS: adminEmail,
      SHUTDOWN_GRACE_MS: '2000',
      // Every client here is 127.0.0.1: the per-address budgets would stop the test, not an attacker.
      RATE_LOGIN_PER_IP: '100000',
      RATE_REGISTER_PER_IP: '100000',
      RATE_MAIL_PER_IP: '100000',
      RATE_MAIL_PER_ADDRESS: '100000',
      RATE_LOGIN_FAILURES_PER_ACCOUNT_IP: '10',
      RATE_LOGIN_FAILURES_PER_ACCOUNT: '100',
    };
    // Both start at once on the empty schema: migrations and the demo data must still happen once.
    [a, b] = await Promise.all([startServer('A', portA, env), startServer('B', portB, env)]);
    const admin = await register(a, adminEmail);
    const mailed = await smtp.next(admin.email, /confirm/i, 20_000);
    const confirmed = await fetch(`${b.base}/api/confirmUser/${linkToken(mailed, 'confirm')}`);
    const answer = (await confirmed.json()) as { code: number };
    // A set-up that fails shows what the servers logged, as a failed step does (see afterEach).
    if (answer.code !== 900) dumpLogs();
    expect(answer).toMatchObject({ code: 900 });
    adminToken = admin.token;
    const info = await ok<{ user: { level: number } }>(b, '/api/auth/getUserInfo', { token: adminToken });
    expect(info.user.level).toBe(9);
  }, 300_000);

  // A failed step shows what the servers logged (the last lines of each).
  function dumpLogs(): void {
    for (const proc of started) {
      console.error(`--- ${proc.name} (pid ${proc.child.pid}) ---\n${proc.output().split('\n').slice(-40).join('\n')}`);
    }
  }
  afterEach((context) => {
    if (context.task.result?.state === 'fail') dumpLogs();
  });

  afterAll(async () => {
    killAll();
    await Promise.all([a?.exited, b?.exited]);
    await storage?.close();
    await Promise.all([db?.drop(), s3?.close(), smtp?.close()]);
  });

  it('a coupon usable once, redeemed by 20 buyers on both servers at once, succeeds exactly once', async () => {
    const buyers = await Promise.all(Array.from({ length: 20 }, (_, i) => register(pick(i))));
    const answers = await Promise.all(
      buyers.map((buyer, i) => post(pick(i), '/api/store/redeemCoupon', { token: buyer.token, couponCode: 'ONCE' })),
    );
    expect(codes(answers)).toEqual({ 900: 1, 908: 19 });
    for (const refused of answers.filter((x) => x.code === 908)) expect(refused).toMatchObject({ reason: 'used_up' });
    const coupon = await db.kysely
      .selectFrom('coupons')
      .select('used')
      .where('code', '=', 'ONCE')
      .executeTakeFirstOrThrow();
    expect(coupon.used).toBe(1);
  });

  it('10 payWithCredits on both servers on a balance that pays for one: one purchase, nine refusals', async () => {
    const id = await product(7);
    const buyer = await register(b);
    await credit(buyer.userId, 7);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(pick(i), '/api/auth/payWithCredits', { token: buyer.token, products: JSON.stringify([id]) }),
      ),
    );
    expect(codes(answers)).toEqual({ 900: 1, 909: 9 });
    const user = await ok<{ user: { credits: number } }>(a, '/api/auth/getUserInfo', { token: buyer.token });
    expect(user.user.credits).toBe(0);
    const paid = await ok<{ total: number }>(b, '/api/store/orders', { token: buyer.token, status: 'paid' });
    expect(paid.total).toBe(1);
  });

  it('one provider notification delivered 10 times to both servers pays and grants once', async () => {
    const buyer = await register(a);
    const checkout = await ok<{ order: { iden: string; total: { amount: number; currency: string } } }>(
      a,
      '/api/store/doCheckout',
      { token: buyer.token, products: 'credits-100' },
    );
    const config = loadConfig({ NODE_ENV: 'test', SIGNING_SECRET: signingSecret, PUBLIC_URL: a.base });
    const note = new DefaultProvider(config).signNotification({
      eventId: `evt-${run}`,
      orderId: checkout.order.iden,
      outcome: 'paid',
      amount: checkout.order.total.amount,
      currency: checkout.order.total.currency,
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(pick(i), '/api/payments/notify/default', note)),
    );
    expect(codes(answers)).toEqual({ 900: 10 });
    expect(answers.filter((x) => (x.data as { applied: boolean }).applied)).toHaveLength(1);
    const history = await ok<{ balance: number; entries: unknown[] }>(b, '/api/store/credits', { token: buyer.token });
    expect(history.balance).toBe(100);
    expect(history.entries).toHaveLength(1);
  });

  it('30 wrong passwords at once on both servers: the failure limit (10) holds across them', async () => {
    const owner = await register(b, 'owner');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(pick(i), '/api/login', { email: owner.email, password: `wrong guess ${i}` }),
      ),
    );
    expect(codes(answers)).toEqual({ 902: 10, 906: 20 });
    // The right password from the same address is refused too until the window passes.
    for (const proc of both()) {
      expect(await post(proc, '/api/login', { email: owner.email, password: PASSWORD })).toMatchObject({ code: 906 });
    }
  });

  it('a server killed mid-load: the other keeps serving, the restarted one cleans up, and the books hold', async () => {
    // The first scheduled turn of the housekeeping jobs (5 s after the servers' start) is waited
    // out: B's removal of abandoned writes would otherwise take A's leftovers whenever its turn fell
    // between the kill and the restart, before A's start could. The turn holds its lease for 10 minutes.
    await ranOnce('files.abandoned');
    expect(turns()).toContain('files.abandoned');
    const id = await product(3);
    const buyers = await Promise.all(Array.from({ length: 6 }, (_, i) => register(pick(i))));
    await Promise.all(buyers.map((buyer) => credit(buyer.userId, 30)));
    const steady = await register(b, 'steady');
    await credit(steady.userId, 30_000);

    // B's steady load for the whole act: every answer must be right, whatever happens to A.
    let stop = false;
    let served = 0;
    const seen: string[] = [];
    const steadyLoad = (async () => {
      while (!stop) {
        try {
          const [paid, info] = await Promise.all([
            post(b, '/api/auth/payWithCredits', { token: steady.token, products: JSON.stringify([id]) }),
            post(b, '/api/auth/getUserInfo', { token: steady.token }),
          ]);
          if (paid.code !== 900 || info.code !== 900) seen.push(`${paid.code}/${info.code}`);
          else served += 1;
        } catch (error) {
          seen.push(String(error));
        }
        await sleep(20);
      }
    })();
    // A slow upload on B, in flight across A's death and restart: A's start must leave it alone.
    const slowOnB = openUpload(b, steady.token);
    const uploadsOnA: ReturnType<typeof openUpload>[] = [];
    const trickle = setInterval(() => {
      for (const u of uploadsOnA) u.more(1_000);
      slowOnB.more(1_000);
    }, 50);
    try {
      slowOnB.startFile('slow-on-b.pdf', 70_000);
      const objectsBefore = (await storage.list('f/')).length;
      // Load on A: uploads that have stored one file and are still sending a second, and purchases.
      for (const buyer of buyers.slice(0, 3)) {
        const u = openUpload(a, buyer.token);
        u.startFile('stored.pdf', 20_000);
        u.endFile();
        u.startFile('cut.pdf', 70_000);
        uploadsOnA.push(u);
      }
      // Wait until A has stored the first file of each upload: the bytes are in S3, the rows are not.
      const expected = objectsBefore + uploadsOnA.length;
      for (let i = 0; i < 1200 && (await storage.list('f/')).length < expected; i++) await sleep(50);
      expect(await storage.list('f/')).toHaveLength(expected);
      const purchasesOnA = buyers.flatMap((buyer) =>
        [
          post(a, '/api/auth/payWithCredits', { token: buyer.token, products: JSON.stringify([id]) }),
          post(a, '/api/store/doCheckout', { token: buyer.token, products: 'credits-100' }),
          post(a, '/api/store/doCheckout', { token: buyer.token, products: 'monthly', couponCode: 'WELCOME10' }),
        ].map((p) => p.catch(() => undefined)),
      );
      await sleep(30);
      a.child.kill('SIGKILL');
      expect(await a.exited).toBe('SIGKILL');
      await Promise.all(purchasesOnA);
      for (const u of uploadsOnA) await expect(u.answer).rejects.toThrow();
      const servedAtKill = served;

      // B alone: it serves every call, uploads included.
      expect(await upload(b, steady.token)).toHaveLength(1);
      const whileDown = await ok<{ user: { id: string } }>(b, '/api/auth/getUserInfo', { token: buyers[0]!.token });
      expect(whileDown.user.id).toBe(buyers[0]!.userId);

      // A again, on the same database and bucket.
      a = await startServer('A', a.port, env);
      expect(served).toBeGreaterThan(servedAtKill);
      // At its start it removed the writes the uploads cut on it had begun (the stored first files,
      // and the second ones if their writes had begun), and nothing of B's slow one.
      const cleaned = /"removed":(\d+),[^\n]*"msg":"removed uploads left unfinished by a stopped instance"/.exec(
        a.output(),
      );
      expect(Number(cleaned?.[1])).toBeGreaterThanOrEqual(uploadsOnA.length);
      expect(Number(cleaned?.[1])).toBeLessThanOrEqual(2 * uploadsOnA.length);
      expect(await upload(a, buyers[0]!.token, 2)).toHaveLength(2);
      const after = await ok<{ user: { id: string } }>(a, '/api/auth/getUserInfo', { token: buyers[1]!.token });
      expect(after.user.id).toBe(buyers[1]!.userId);

      // B's slow upload finishes after A's restart, whole.
      slowOnB.endFile();
      slowOnB.finish();
      const slow = await slowOnB.answer;
      expect(slow.code, JSON.stringify(slow)).toBe(900);
      // The steady load still gets answers once everything above is done.
      const servedAtEnd = served;
      await vi.waitFor(() => expect(served).toBeGreaterThan(servedAtEnd), { timeout: 30_000 });
    } finally {
      stop = true;
      clearInterval(trickle);
      await steadyLoad;
      for (const u of [slowOnB, ...uploadsOnA]) u.req.destroy();
    }
    expect(seen).toEqual([]);

    await audit();
    // A's restart may take its whole limit on a busy machine (`startServer`).
  }, 300_000);

  it('each housekeeping job runs once across both servers: the lease in the database decides which', async () => {
    // Every instance tries each job 5 s after its start; the first two started together.
    await ranOnce('accounts.expired');
    await ranOnce('files.abandoned');
    // A second run of either, on the other server, would show by now.
    await sleep(1000);
    const ran = runs();
    expect(ran.map((r) => r.job)).toContain('accounts.expired');
    expect(ran.map((r) => r.job)).toContain('files.abandoned');
    // A job runs again once its lease (its period, a minute for the shortest) has run out, which a
    // long run of this file on a slow machine reaches: two turns of one job less than half a minute
    // apart are the same turn run by both servers.
    const twice = ran.filter((r, i) =>
      ran.some((o, k) => k !== i && o.job === r.job && Math.abs(o.time - r.time) < 30_000),
    );
    expect(ran.every((r) => Number.isFinite(r.time))).toBe(true);
    expect(twice).toEqual([]);
  });

  /** The books, read with SQL: what every instance together must never break. */
  async function audit(): Promise<void> {
    const q = db.kysely;
    // Every balance equals the sum of its ledger, and none is below zero.
    const users = await q
      .selectFrom('users')
      .innerJoin('credit_balances', 'credit_balances.user_id', 'users.id')
      .select(['users.id', 'credit_balances.credits'])
      .execute();
    const sums = await q
      .selectFrom('credit_ledger')
      .select(['user_id', (eb) => eb.fn.sum<string>('amount').as('total')])
      .groupBy('user_id')
      .execute();
    const ledger = new Map(sums.map((s) => [s.user_id, Number(s.total)]));
    for (const u of users) {
      expect(u.credits).toBeGreaterThanOrEqual(0);
      expect(ledger.get(u.id) ?? 0, `ledger of ${u.id}`).toBe(u.credits);
    }
    // No order paid without its grants and its payment; none unpaid with them.
    const orders = await q.selectFrom('orders').select(['id', 'status', 'credits_spent']).execute();
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      const items = await q.selectFrom('order_items').selectAll().where('order_id', '=', order.id).execute();
      const entries = await q
        .selectFrom('credit_ledger')
        .select(['amount', 'reason'])
        .where('reference', '=', order.id)
        .execute();
      const granted = entries.filter((e) => e.reason === 'purchase').reduce((s, e) => s + e.amount, 0);
      const spent = entries.filter((e) => e.reason === 'spend').reduce((s, e) => s - e.amount, 0);
      const owed = items.reduce((s, i) => s + (i.grant_credits ?? 0) * i.quantity, 0);
      const periods = await q
        .selectFrom('entitlements')
        .select('id')
        .where('order_id', '=', order.id)
        .where('kind', '=', 'subscription')
        .execute();
      const paid = order.status === 'paid';
      expect(granted, `credits granted by ${order.status} order ${order.id}`).toBe(paid ? owed : 0);
      expect(spent, `credits spent on ${order.status} order ${order.id}`).toBe(paid ? order.credits_spent : 0);
      expect(periods.length, `subscriptions of ${order.status} order ${order.id}`).toBe(
        paid ? items.filter((i) => i.grant_period).length : 0,
      );
    }
    // No coupon over its limit, and its count is its uses.
    const coupons = await q.selectFrom('coupons').select(['code', 'used', 'usage_limit']).execute();
    for (const c of coupons) {
      if (c.usage_limit !== null) expect(c.used, c.code).toBeLessThanOrEqual(c.usage_limit);
      const uses = await q
        .selectFrom('coupon_uses')
        .select((eb) => eb.fn.sum<string>('uses').as('n'))
        .where('coupon_code', '=', c.code)
        .executeTakeFirst();
      expect(Number(uses?.n ?? 0), c.code).toBe(c.used);
    }
    // No provider event applied twice: one record per event, one grant per order.
    const events = await q
      .selectFrom('payment_events')
      .select(['provider', 'event_id', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy(['provider', 'event_id'])
      .execute();
    for (const e of events) expect(Number(e.n)).toBe(1);
    // No partial upload left: every stored object has its row and every row its object, and the
    // quota counts exactly the files there are.
    expect(await q.selectFrom('storage_writes').select('key').execute()).toEqual([]);
    const files = await q.selectFrom('files').select(['storage_key', 'user_id', 'size']).execute();
    const objects = await storage.list('f/');
    expect(objects).toEqual(files.map((f) => f.storage_key).sort());
    const usage = await q.selectFrom('file_usage').select(['user_id', 'used_bytes']).execute();
    for (const u of usage) {
      const total = files.filter((f) => f.user_id === u.user_id).reduce((s, f) => s + f.size, 0);
      expect(u.used_bytes, `quota of ${u.user_id}`).toBe(total);
    }
  }
});
