import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../config.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import {
  FakeGoogle,
  googlePlayTestConfig,
  PACKAGE,
  playTransaction,
  rsa,
  SECRET,
  AUDIENCE,
} from '@till/test-support/fake-google-play';
import { anAdmin, expectLedgerMatchesBalances, ok, saveProduct, spendCredits } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

describe.each(dialects)('Google Play platform on %s', (dialect) => {
  let t: TestApp;
  let google: FakeGoogle;
  let seq = 0;

  beforeAll(async () => {
    google = new FakeGoogle();
    await google.start();
    const googleplay = googlePlayTestConfig(google);
    t = await startTestApp({
      dialect,
      listen: true,
      config: { payments: { card: undefined, paywall: undefined, googleplay } },
    });
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });
  beforeEach(() => {
    seq += 1;
  });

  const validate = (token: string, transactionData: string) =>
    t.call('/api/store/validatePurchase', { token, transactionData });
  const balance = async (token: string) =>
    (await ok<{ balance: number }>(t, '/api/store/credits', { token, page: 1, pageSize: 5 })).balance;
  const orderOf = async (userId: string) =>
    t.ctx.db.kysely.selectFrom('orders').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  const buy = (token: string, productId: string, extra: Record<string, unknown> = {}) => {
    google.products.set(token, {
      productId,
      purchaseTimeMillis: String(Date.now()),
      purchaseState: 0,
      consumptionState: 0,
      orderId: `GPA.3300-0000-0000-${String(seq).padStart(5, '0')}`,
      purchaseType: 0,
      acknowledgementState: 0,
      quantity: 1,
      regionCode: 'US',
      ...extra,
    });
    return google.products.get(token)?.orderId as string;
  };
  const subscribe = (token: string, expiry: number) => {
    google.subscriptions.set(token, {
      regionCode: 'US',
      startTime: new Date().toISOString(),
      subscriptionState: 'SUBSCRIPTION_STATE_ACTIVE',
      acknowledgementState: 'ACKNOWLEDGEMENT_STATE_PENDING',
      testPurchase: {},
      lineItems: [
        {
          productId: 'till.monthly',
          expiryTime: new Date(expiry).toISOString(),
          autoRenewingPlan: { autoRenewEnabled: true },
          latestSuccessfulOrderId: `GPA.3311-0000-0000-${String(seq).padStart(5, '0')}`,
        },
      ],
    });
  };
  /** Pub/Sub's push of a developer notification. */
  const push = (
    notification: Record<string, unknown>,
    auth: { bearer?: string; secret?: string } = {},
    messageId?: string,
  ) =>
    fetch(`${t.url}/api/payments/webhook/google${auth.secret ? `?token=${encodeURIComponent(auth.secret)}` : ''}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        connection: 'close',
        ...(auth.bearer ? { authorization: `Bearer ${auth.bearer}` } : {}),
      },
      body: JSON.stringify({
        message: {
          data: Buffer.from(
            JSON.stringify({
              version: '1.0',
              packageName: PACKAGE,
              eventTimeMillis: String(Date.now()),
              ...notification,
            }),
          ).toString('base64'),
          messageId: messageId ?? `${Date.now()}${seq}${Math.floor(Math.random() * 1e6)}`,
          publishTime: new Date().toISOString(),
        },
        subscription: 'projects/till-test/subscriptions/play-push',
      }),
    });

  it('grants a purchased consumable, then acknowledges and consumes it once', async () => {
    const b = await registerUser(t);
    const orderId = buy(`tok-credits-${seq}`, 'till.credits100');
    const data = playTransaction(`tok-credits-${seq}`, 'till.credits100', { orderId });
    const ackBefore = google.count('products.acknowledge');
    const consumeBefore = google.count('products.consume');
    expect(await validate(b.token, data)).toEqual({ code: 900, data: { result: 1, products: 'credits-100' } });
    expect(await balance(b.token)).toBe(100);
    const order = await orderOf(b.userId);
    expect(order).toMatchObject({ provider: 'googleplay', status: 'paid' });
    expect(JSON.parse(order.data ?? '{}')).toMatchObject({ transactionId: orderId });
    expect(google.count('products.acknowledge')).toBe(ackBefore + 1);
    expect(google.count('products.consume')).toBe(consumeBefore + 1);
    // The same purchase again: the same answer, no second order, nothing told to Google again.
    expect(await validate(b.token, data)).toEqual({ code: 900, data: { result: 1, products: 'credits-100' } });
    expect(await balance(b.token)).toBe(100);
    expect(google.count('products.acknowledge')).toBe(ackBefore + 1);
    expect(google.count('products.consume')).toBe(consumeBefore + 1);
    expect(google.count('token')).toBeGreaterThanOrEqual(1);
  });

  it("marks a license tester's purchases (purchaseType 0, testPurchase) as sandbox orders, and a sale as none", async () => {
    const tester = await registerUser(t);
    buy(`tok-test-${seq}`, 'till.credits100', { purchaseType: 0 });
    subscribe(`tok-test-sub-${seq}`, Date.now() + 30 * 86_400_000);
    expect((await validate(tester.token, playTransaction(`tok-test-${seq}`, 'till.credits100'))).data).toEqual({
      result: 1,
      products: 'credits-100',
    });
    expect((await validate(tester.token, playTransaction(`tok-test-sub-${seq}`, 'till.monthly'))).data).toEqual({
      result: 1,
      products: 'monthly',
    });
    const buyer = await registerUser(t);
    // A real purchase carries no purchaseType.
    buy(`tok-sale-${seq}`, 'till.credits100', { purchaseType: undefined, orderId: `GPA.3300-0000-0001-${seq}` });
    expect((await validate(buyer.token, playTransaction(`tok-sale-${seq}`, 'till.credits100'))).data).toEqual({
      result: 1,
      products: 'credits-100',
    });
    const { token } = await anAdmin(t);
    const sandboxOf = async (userId: string) =>
      (
        await ok<{ orders: { payment: { sandbox: boolean } }[] }>(t, '/api/admin/orders/list', {
          token,
          userId,
          page: 1,
          pageSize: 10,
        })
      ).orders.map((o) => o.payment.sandbox);
    expect(await sandboxOf(tester.userId)).toEqual([true, true]);
    expect(await sandboxOf(buyer.userId)).toEqual([false]);
  });

  it('acknowledges a non-consumable without consuming it, and nothing already acknowledged', async () => {
    const b = await registerUser(t);
    buy(`tok-pro-${seq}`, 'till.pro_unlock');
    const consumed = google.count('products.consume');
    const acked = google.count('products.acknowledge');
    expect(await validate(b.token, playTransaction(`tok-pro-${seq}`, 'till.pro_unlock'))).toEqual({
      code: 900,
      data: { result: 1, products: 'pro-unlock' },
    });
    expect(google.count('products.acknowledge')).toBe(acked + 1);
    expect(google.count('products.consume')).toBe(consumed);
  });

  it('takes a purchase without an order id, whose plugin transaction id is the long purchase token', async () => {
    const b = await registerUser(t);
    // Play's tokens have no documented length; the plugin uses the token as the transaction id when
    // Google gave no order id (a promotional code's purchase).
    const token = `tok-promo-${seq}-${'x'.repeat(300)}`;
    buy(token, 'till.credits100', { orderId: undefined });
    expect(await validate(b.token, playTransaction(token, 'till.credits100'))).toEqual({
      code: 900,
      data: { result: 1, products: 'credits-100' },
    });
    expect(JSON.parse((await orderOf(b.userId)).data ?? '{}')).toMatchObject({ transactionId: `token:${token}` });
  });

  it('refuses pending, cancelled, unknown and foreign purchases (result 0)', async () => {
    const b = await registerUser(t);
    buy(`tok-pending-${seq}`, 'till.credits100', { purchaseState: 2 });
    expect(await validate(b.token, playTransaction(`tok-pending-${seq}`, 'till.credits100'))).toEqual({
      code: 900,
      data: { result: 0, reason: 'pending' },
    });
    buy(`tok-cancelled-${seq}`, 'till.credits100', { purchaseState: 1 });
    expect(await validate(b.token, playTransaction(`tok-cancelled-${seq}`, 'till.credits100'))).toEqual({
      code: 900,
      data: { result: 0, reason: 'cancelled' },
    });
    expect(await validate(b.token, playTransaction('tok-never-sold', 'till.credits100'))).toEqual({
      code: 900,
      data: { result: 0, reason: 'unknown_purchase' },
    });
    buy(`tok-other-${seq}`, 'till.credits100');
    expect(
      await validate(b.token, playTransaction(`tok-other-${seq}`, 'till.credits100', { packageName: 'com.other.app' })),
    ).toEqual({ code: 900, data: { result: 0, reason: 'wrong_package' } });
    expect(await balance(b.token)).toBe(0);
    expect(await validate(b.token, JSON.stringify({ platform: 'android-playstore', products: [] }))).toEqual({
      code: 907,
      parameter: 'transactionData',
      reason: 'invalid',
    });
  });

  it('ends all the time a subscription paid for, renewals the app also reported included, when Google revokes it', async () => {
    const b = await registerUser(t);
    const token = `tok-revoked-${seq}`;
    const first = Date.now() + 30 * 24 * 3600 * 1000;
    subscribe(token, first);
    expect((await validate(b.token, playTransaction(token, 'till.monthly'))).data).toEqual({
      result: 1,
      products: 'monthly',
    });
    const subscription = (type: number) => ({
      subscriptionNotification: {
        version: '1.0',
        notificationType: type,
        purchaseToken: token,
        subscriptionId: 'till.monthly',
      },
    });
    // Renewed, and the renewal reported by the app too: the same purchase token, the same order.
    subscribe(token, first + 31 * 24 * 3600 * 1000);
    expect((await push(subscription(2), { bearer: google.oidc() })).status).toBe(200);
    expect((await validate(b.token, playTransaction(token, 'till.monthly'))).data).toEqual({
      result: 1,
      products: 'monthly',
    });
    const active = async () =>
      (
        await ok<{ entitlements: { productId: string; active: boolean }[] }>(t, '/api/store/entitlements', {
          token: b.token,
        })
      ).entitlements.filter((e) => e.productId === 'monthly' && e.active);
    expect(await active()).toHaveLength(1);

    google.subscriptions.set(token, {
      ...google.subscriptions.get(token),
      subscriptionState: 'SUBSCRIPTION_STATE_EXPIRED',
    });
    const revoked = await push(subscription(12), { bearer: google.oidc() });
    expect(await revoked.json()).toEqual({ received: true, applied: true });
    expect(await active()).toEqual([]);
  });

  it('records a subscription until the expiry Google reports, and a renewal moves its end, once for 10 pushes at once', async () => {
    const b = await registerUser(t);
    const token = `tok-sub-${seq}`;
    const first = Date.now() + 30 * 24 * 3600 * 1000;
    subscribe(token, first);
    const acked = google.count('subscriptions.acknowledge');
    expect(await validate(b.token, playTransaction(token, 'till.monthly'))).toEqual({
      code: 900,
      data: { result: 1, products: 'monthly' },
    });
    expect(google.count('subscriptions.acknowledge')).toBe(acked + 1);
    const order = await orderOf(b.userId);
    const rows = () =>
      t.ctx.db.kysely
        .selectFrom('entitlements')
        .selectAll()
        .where('order_id', '=', order.id)
        .orderBy('expires_at', 'desc')
        .execute();
    expect(Number((await rows())[0]?.expires_at)).toBe(new Date(first).getTime());

    // Google renews it: the push names the token only; the new end is what the API says.
    const renewed = first + 31 * 24 * 3600 * 1000;
    subscribe(token, renewed);
    const message = `renewal-${seq}-${dialect}`;
    const notification = {
      subscriptionNotification: {
        version: '1.0',
        notificationType: 2,
        purchaseToken: token,
        subscriptionId: 'till.monthly',
      },
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => push(notification, { bearer: google.oidc() }, message)),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const after = await rows();
    expect(after).toHaveLength(2);
    expect(Number(after[0]?.expires_at)).toBe(new Date(renewed).getTime());
    const events = await t.ctx.db.kysely
      .selectFrom('payment_events')
      .select('event_id')
      .where('provider', '=', 'googleplay')
      .where('event_id', 'like', `%${message}`)
      .execute();
    expect(events).toHaveLength(1);

    // Cancelled: auto-renewal off, the paid time stays. Expired: the subscription's end is noted.
    expect(
      (
        await push(
          { subscriptionNotification: { ...notification.subscriptionNotification, notificationType: 3 } },
          { bearer: google.oidc() },
        )
      ).status,
    ).toBe(200);
    expect((await orderOf(b.userId)).subscription_ended_at).toBeNull();
    const sub = google.subscriptions.get(token);
    if (sub) sub.subscriptionState = 'SUBSCRIPTION_STATE_EXPIRED';
    expect(
      (
        await push(
          { subscriptionNotification: { ...notification.subscriptionNotification, notificationType: 13 } },
          { secret: SECRET },
        )
      ).status,
    ).toBe(200);
    expect((await orderOf(b.userId)).subscription_ended_at).not.toBeNull();
    expect((await orderOf(b.userId)).status).toBe('paid');
  });

  it("grants a renewal once when the app first reports the subscription after it and Google's push of it comes too, also at the same moment", async () => {
    const productId = await saveProduct(t, {
      alias: `monthly-credits-${seq}`,
      title: 'Monthly with credits',
      type: 2,
      price: { amount: 499, currency: 'USD' },
      grants: { credits: 50, period: 'P1M' },
      storeIds: { googleplay: `till.monthly_credits_${seq}` },
    });
    const month = 30 * 24 * 3600 * 1000;
    /** Google's subscription after its `renewals`-th renewal: the order id of each renewal ends in `..N`. */
    const renewed = (token: string, renewals: number) => {
      const order = `GPA.3322-${token}`;
      google.subscriptions.set(token, {
        regionCode: 'US',
        startTime: new Date().toISOString(),
        subscriptionState: 'SUBSCRIPTION_STATE_ACTIVE',
        acknowledgementState: 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED',
        lineItems: [
          {
            productId: `till.monthly_credits_${seq}`,
            expiryTime: new Date(Date.now() + (renewals + 1) * month).toISOString(),
            autoRenewingPlan: { autoRenewEnabled: true },
            latestSuccessfulOrderId: renewals ? `${order}..${renewals - 1}` : order,
          },
        ],
      });
    };
    const renewedPush = (token: string) =>
      push(
        {
          subscriptionNotification: {
            version: '1.0',
            notificationType: 2,
            purchaseToken: token,
            subscriptionId: `till.monthly_credits_${seq}`,
          },
        },
        { bearer: google.oidc() },
      );

    // Reported for the first time after its first renewal, and the renewal's push comes after.
    const b = await registerUser(t);
    const token = `tok-late-${seq}`;
    renewed(token, 1);
    expect((await validate(b.token, playTransaction(token, `till.monthly_credits_${seq}`))).data).toEqual({
      result: 1,
      products: productId,
    });
    expect(await (await renewedPush(token)).json()).toEqual({ received: true, applied: false });
    expect(await balance(b.token)).toBe(50);
    // The next renewal is granted.
    renewed(token, 2);
    expect(await (await renewedPush(token)).json()).toEqual({ received: true, applied: true });
    expect(await balance(b.token)).toBe(100);

    // The report and the push at the same moment: the push applies only once the order exists.
    const racers = await Promise.all(Array.from({ length: 6 }, () => registerUser(t)));
    await Promise.all(
      racers.flatMap((r, i) => {
        const raced = `tok-race-${seq}-${i}`;
        renewed(raced, 1);
        return [
          validate(r.token, playTransaction(raced, `till.monthly_credits_${seq}`)),
          renewedPush(raced).then(() => renewedPush(raced)),
        ];
      }),
    );
    for (const r of racers) expect(await balance(r.token)).toBe(50);
    await expectLedgerMatchesBalances(t);
  });

  it('reverses a voided purchase: credits taken back without a negative balance, the shortfall recorded and the buyer flagged', async () => {
    const b = await registerUser(t);
    const token = `tok-voided-${seq}`;
    const orderId = buy(token, 'till.credits100');
    expect(await validate(b.token, playTransaction(token, 'till.credits100', { orderId }))).toMatchObject({
      data: { result: 1 },
    });
    await spendCredits(t, b.token, 60);
    expect(await balance(b.token)).toBe(40);

    const notification = {
      voidedPurchaseNotification: { purchaseToken: token, orderId, productType: 2, refundType: 1 },
    };
    // A push that Google's API does not back (nothing voided yet) changes nothing.
    expect((await push(notification, { bearer: google.oidc() })).status).toBe(200);
    expect((await orderOf(b.userId)).status).toBe('paid');

    google.voided.push({
      kind: 'androidpublisher#voidedPurchase',
      purchaseToken: token,
      orderId,
      purchaseTimeMillis: String(Date.now() - 60_000),
      voidedTimeMillis: String(Date.now()),
      voidedSource: 0,
      voidedReason: 1,
      refundType: 1,
    });
    expect((await push(notification, { bearer: google.oidc() })).status).toBe(200);
    expect((await orderOf(b.userId)).status).toBe('refunded');
    expect(await balance(b.token)).toBe(0);
    const { token: admin } = await anAdmin(t);
    const { orders } = await ok<{ orders: { iden: string; payment: { shortfallCredits: number } }[] }>(
      t,
      '/api/admin/orders/list',
      { token: admin, provider: 'googleplay', page: 1, pageSize: 100 },
    );
    const iden = (await orderOf(b.userId)).id;
    expect(orders.find((o) => o.iden === iden)?.payment.shortfallCredits).toBe(60);
    const { users } = await ok<{ users: { flaggedAt: string | null }[] }>(t, '/api/admin/users/list', {
      token: admin,
      query: b.email,
      page: 1,
      pageSize: 5,
    });
    expect(users[0]?.flaggedAt).not.toBeNull();
    await expectLedgerMatchesBalances(t);
  });

  it('refuses forged pushes and applies nothing from them', async () => {
    const b = await registerUser(t);
    const token = `tok-forged-${seq}`;
    const orderId = buy(token, 'till.credits100');
    await validate(b.token, playTransaction(token, 'till.credits100', { orderId }));
    google.voided.push({ purchaseToken: token, orderId, voidedTimeMillis: String(Date.now()), voidedReason: 1 });
    const notification = {
      voidedPurchaseNotification: { purchaseToken: token, orderId, productType: 2, refundType: 1 },
    };
    const forger = rsa().privateKey;
    expect((await push(notification)).status).toBe(401);
    expect((await push(notification, { bearer: google.oidc({}, forger) })).status).toBe(403);
    expect((await push(notification, { bearer: google.oidc({ aud: 'https://elsewhere.example/' }) })).status).toBe(403);
    expect((await push(notification, { bearer: google.oidc({ email: 'someone@example.com' }) })).status).toBe(403);
    expect((await push(notification, { bearer: google.oidc({ iss: 'https://evil.example' }) })).status).toBe(403);
    expect(
      (
        await push(notification, {
          bearer: google.oidc({ exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }),
        })
      ).status,
    ).toBe(403);
    expect((await push(notification, { bearer: 'not.a.jwt' })).status).toBe(403);
    expect((await push(notification, { secret: `${SECRET}x` })).status).toBe(403);
    expect((await orderOf(b.userId)).status).toBe('paid');
    expect(await balance(b.token)).toBe(100);
    // The same push, authenticated, is applied.
    expect((await push(notification, { secret: SECRET })).status).toBe(200);
    expect((await orderOf(b.userId)).status).toBe('refunded');
  });

  it('takes test notifications and pushes for purchases it never recorded without applying anything', async () => {
    expect((await push({ testNotification: { version: '1.0' } }, { bearer: google.oidc() })).status).toBe(200);
    const stray = { voidedPurchaseNotification: { purchaseToken: 'tok-unrecorded', refundType: 1 } };
    google.voided.push({ purchaseToken: 'tok-unrecorded', voidedTimeMillis: String(Date.now()) });
    const res = await push(stray, { bearer: google.oidc() });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, refused: 904 });
  });
});

describe('Google Play configuration', () => {
  const key = JSON.stringify({
    type: 'service_account',
    client_email: 'till-play@till-test.iam.gserviceaccount.com',
    private_key: rsa().privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  const load = (env: Record<string, string>) => () => loadConfig({ NODE_ENV: 'test', ...env });

  it('is off without its variables, and on with the package, the key and a way to authenticate pushes', () => {
    expect(loadConfig({}).payments.googleplay).toBeUndefined();
    const on = loadConfig({
      GOOGLE_PLAY_PACKAGE_NAME: PACKAGE,
      GOOGLE_SERVICE_ACCOUNT: key,
      GOOGLE_PUSH_SECRET: SECRET,
    });
    expect(on.payments.googleplay).toMatchObject({
      packageName: PACKAGE,
      serviceAccount: { clientEmail: 'till-play@till-test.iam.gserviceaccount.com' },
      pushSecret: SECRET,
      pushOidc: undefined,
    });
  });

  it('stops the start naming the missing variable when only some are set', () => {
    expect(load({ GOOGLE_PLAY_PACKAGE_NAME: PACKAGE })).toThrow(/^GOOGLE_SERVICE_ACCOUNT/);
    expect(load({ GOOGLE_PLAY_PACKAGE_NAME: PACKAGE, GOOGLE_SERVICE_ACCOUNT: key })).toThrow(/^GOOGLE_PUSH_AUDIENCE/);
    expect(
      load({ GOOGLE_PLAY_PACKAGE_NAME: PACKAGE, GOOGLE_SERVICE_ACCOUNT: key, GOOGLE_PUSH_AUDIENCE: AUDIENCE }),
    ).toThrow(/^GOOGLE_PUSH_SERVICE_ACCOUNT/);
    expect(load({ GOOGLE_SERVICE_ACCOUNT: key })).toThrow(/^GOOGLE_PLAY_PACKAGE_NAME/);
    expect(
      load({
        GOOGLE_PLAY_PACKAGE_NAME: PACKAGE,
        GOOGLE_SERVICE_ACCOUNT: '{"client_email":"x"}',
        GOOGLE_PUSH_SECRET: SECRET,
      }),
    ).toThrow(/^GOOGLE_SERVICE_ACCOUNT/);
  });
});
