import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_APPLE_ID,
  appleTransaction,
  appReceipt,
  b64url,
  BUNDLE_ID,
  DAY,
  FakeAppStoreApi,
  monthlyTransaction,
  newTransactionId,
  notification,
  pluginTransaction,
  signJws,
  startAppleTestStore,
  type AppleTestStore,
  type Pki,
  type Tx,
} from '@till/test-support/apple-signing';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, expectLedgerMatchesBalances, ok, post } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

describe.each(dialects)('App Store platform on %s', (dialect) => {
  let t: TestApp;
  let store: AppleTestStore;
  let apple: Pki;
  let stranger: Pki;
  let api: FakeAppStoreApi;
  let wrongKeyApi: FakeAppStoreApi;

  beforeAll(async () => {
    store = await startAppleTestStore();
    ({ apple, stranger, api } = store);
    wrongKeyApi = new FakeAppStoreApi(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
    await wrongKeyApi.start();
    t = await startTestApp({
      dialect,
      listen: true,
      config: { payments: { card: undefined, paywall: undefined, appstore: store.config } },
    });
  });
  afterAll(async () => {
    await Promise.all([store.close(), wrongKeyApi.close()]);
    await t.close();
  });

  const validate = (token: string, transactionData: string) =>
    t.call('/api/store/validatePurchase', { token, transactionData });
  const signedPurchase = (tx: Tx) =>
    pluginTransaction({ transactionId: tx.transactionId, jwsRepresentation: signJws(apple, tx) });
  const balance = async (token: string) =>
    (await ok<{ balance: number }>(t, '/api/store/credits', { token, page: 1, pageSize: 5 })).balance;
  const notify = async (signedPayload: string) => {
    const res = await fetch(`${t.url}/api/payments/webhook/apple`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signedPayload }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const ordersOf = async (token: string) =>
    (await ok<{ orders: { iden: string; status: string; provider: string }[] }>(t, '/api/store/orders', { token }))
      .orders;
  const subscriptionEnd = async (token: string) => {
    const { entitlements } = await ok<{ entitlements: { productId: string; expiresAt: string | null }[] }>(
      t,
      '/api/store/entitlements',
      { token },
    );
    const monthly = entitlements.find((e) => e.productId === 'monthly');
    return monthly?.expiresAt ? Date.parse(monthly.expiresAt) : undefined;
  };

  it('accepts a purchase Apple signed, names our products, and records a paid order', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100', { quantity: 2 });
    expect(await validate(b.token, signedPurchase(tx))).toEqual({
      code: 900,
      data: { result: 1, products: 'credits-100' },
    });
    expect(await balance(b.token)).toBe(200);
    expect(await ordersOf(b.token)).toEqual([expect.objectContaining({ provider: 'appstore', status: 'paid' })]);
    // The plugin's own validator body (StoreKit 2) is read too, and the same transaction is not granted twice.
    const sk2 = JSON.stringify({
      platform: 'ios-appstore',
      transaction: { type: 'apple-sk2', jwsRepresentation: signJws(apple, tx) },
    });
    expect(await validate(b.token, sk2)).toEqual({ code: 900, data: { result: 1, products: 'credits-100' } });
    expect(await balance(b.token)).toBe(200);
  });

  it('names several products joined with ;', async () => {
    const b = await registerUser(t);
    const credits = await validate(b.token, signedPurchase(appleTransaction('till.credits100')));
    const monthly = await validate(b.token, signedPurchase(monthlyTransaction()));
    const pro = await validate(
      b.token,
      signedPurchase(appleTransaction('till.pro_unlock', { type: 'Non-Consumable' })),
    );
    expect([credits, monthly, pro].map((r) => (r.data as { products: string }).products).join(';')).toBe(
      'credits-100;monthly;pro-unlock',
    );
  });

  it('refuses a tampered payload, a chain from another root, another app and an expired subscription (result 0)', async () => {
    const b = await registerUser(t);
    const jws = signJws(apple, appleTransaction('till.credits100'));
    const [head, , signature] = jws.split('.');
    const forged = `${head}.${b64url(appleTransaction('till.credits100', { quantity: 10 }))}.${signature}`;
    expect(await validate(b.token, pluginTransaction({ jwsRepresentation: forged }))).toEqual({
      code: 900,
      data: { result: 0, reason: 'signature' },
    });
    const foreign = signJws(stranger, appleTransaction('till.credits100'));
    expect(await validate(b.token, pluginTransaction({ jwsRepresentation: foreign }))).toEqual({
      code: 900,
      data: { result: 0, reason: 'signature' },
    });
    const otherApp = signJws(apple, appleTransaction('till.credits100', { bundleId: 'com.example.other' }));
    expect(await validate(b.token, pluginTransaction({ jwsRepresentation: otherApp }))).toEqual({
      code: 900,
      data: { result: 0, reason: 'bundle_id' },
    });
    const production = signJws(apple, appleTransaction('till.credits100', { environment: 'Production' }));
    expect(await validate(b.token, pluginTransaction({ jwsRepresentation: production }))).toEqual({
      code: 900,
      data: { result: 0, reason: 'environment' },
    });
    const expired = monthlyTransaction({ purchaseDate: Date.now() - 40 * DAY, expiresDate: Date.now() - 10 * DAY });
    expect(await validate(b.token, signedPurchase(expired))).toEqual({
      code: 900,
      data: { result: 0, reason: 'expired' },
    });
    const revoked = appleTransaction('till.credits100', { revocationDate: Date.now(), revocationReason: 0 });
    expect(await validate(b.token, signedPurchase(revoked))).toEqual({
      code: 900,
      data: { result: 0, reason: 'revoked' },
    });
    expect(await balance(b.token)).toBe(0);
    expect(await ordersOf(b.token)).toEqual([]);
  });

  it('refuses a transaction already granted to another user (already_used)', async () => {
    const first = await registerUser(t);
    const second = await registerUser(t);
    const data = signedPurchase(appleTransaction('till.credits100'));
    expect((await validate(first.token, data)).data).toEqual({ result: 1, products: 'credits-100' });
    expect(await validate(second.token, data)).toEqual({ code: 900, data: { result: 0, reason: 'already_used' } });
    expect(await balance(second.token)).toBe(0);
  });

  it('answers 907 for a transaction that is not shaped as the plugin sends it', async () => {
    const b = await registerUser(t);
    const malformed = [
      JSON.stringify({ platform: 'ios-appstore' }),
      JSON.stringify({ platform: 'ios-appstore', jwsRepresentation: 'not a jws' }),
      JSON.stringify({ platform: 'ios-appstore', transactionId: 42 }),
    ];
    for (const data of malformed)
      expect(await validate(b.token, data)).toEqual({ code: 907, parameter: 'transactionData', reason: 'invalid' });
  });

  it('fetches the transaction from the App Store Server API when only its id or the app receipt is sent', async () => {
    const b = await registerUser(t);
    const byId = appleTransaction('till.credits100');
    api.signed.set(byId.transactionId, signJws(apple, byId));
    const before = api.requests.length;
    expect(
      await validate(b.token, pluginTransaction({ transactionId: byId.transactionId, appStoreReceipt: '' })),
    ).toEqual({
      code: 900,
      data: { result: 1, products: 'credits-100' },
    });
    expect(api.requests.slice(before)).toEqual([
      { path: `/inApps/v1/transactions/${byId.transactionId}`, authorized: true },
    ]);

    const byReceipt = appleTransaction('till.credits100');
    api.signed.set(byReceipt.transactionId, signJws(apple, byReceipt));
    expect(
      await validate(b.token, pluginTransaction({ appStoreReceipt: appReceipt(byReceipt.transactionId) })),
    ).toEqual({
      code: 900,
      data: { result: 1, products: 'credits-100' },
    });
    expect(await balance(b.token)).toBe(200);

    // What the API answers is verified like the rest: a transaction signed under another root is refused.
    const foreign = appleTransaction('till.credits100');
    api.signed.set(foreign.transactionId, signJws(stranger, foreign));
    expect((await validate(b.token, pluginTransaction({ transactionId: foreign.transactionId }))).data).toEqual({
      result: 0,
      reason: 'signature',
    });
    // An id Apple does not know.
    expect((await validate(b.token, pluginTransaction({ transactionId: newTransactionId() }))).data).toEqual({
      result: 0,
      reason: 'unknown_transaction',
    });
    expect(await balance(b.token)).toBe(200);
  });

  it('sends the API a bearer token the fake checks (a key it does not know is refused)', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100');
    wrongKeyApi.signed.set(tx.transactionId, signJws(apple, tx));
    const config = t.ctx.config.payments.appstore;
    if (!config) throw new Error('no appstore config');
    const other = await startTestApp({
      dialect,
      config: { payments: { card: undefined, paywall: undefined, appstore: { ...config, apiUrl: wrongKeyApi.url } } },
    });
    try {
      const u = await registerUser(other);
      const res = await other.call('/api/store/validatePurchase', {
        token: u.token,
        transactionData: pluginTransaction({ transactionId: tx.transactionId }),
      });
      expect(res).toEqual({ code: 900, data: { result: 0, reason: 'store_unavailable' } });
      expect(wrongKeyApi.requests.at(-1)).toEqual({
        path: `/inApps/v1/transactions/${tx.transactionId}`,
        authorized: false,
      });
    } finally {
      await other.close();
    }
    expect(b.token).toBeTruthy();
  });

  it('reverses the grants on a refund notification, never below zero, recording the shortfall and flagging the buyer', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100', { quantity: 5 });
    expect((await validate(b.token, signedPurchase(tx))).data).toEqual({ result: 1, products: 'credits-100' });
    expect(await balance(b.token)).toBe(500);
    await ok(t, '/api/auth/payWithCredits', {
      token: b.token,
      products: JSON.stringify(['pro-unlock']),
      dataObj: '{}',
    });
    expect(await balance(b.token)).toBe(0);

    // Apple's one-time charge notification for the same purchase changes nothing.
    expect((await notify(notification(apple, 'ONE_TIME_CHARGE', tx))).status).toBe(200);
    expect(await balance(b.token)).toBe(0);

    const refund = await notify(
      notification(apple, 'REFUND', { ...tx, revocationDate: Date.now(), revocationReason: 0 }),
    );
    expect(refund).toEqual({ status: 200, body: { received: true, applied: true } });
    const [paid] = (await ordersOf(b.token)).filter((o) => o.provider === 'appstore');
    expect(paid?.status).toBe('refunded');
    expect(await balance(b.token)).toBe(0);
    const { token } = await anAdmin(t);
    const { orders } = await ok<{ orders: { iden: string; payment: { shortfallCredits: number } }[] }>(
      t,
      '/api/admin/orders/list',
      { token, provider: 'appstore', page: 1, pageSize: 100 },
    );
    expect(orders.find((o) => o.iden === paid?.iden)?.payment.shortfallCredits).toBe(500);
    const { users } = await ok<{ users: { flaggedAt: string | null }[] }>(t, '/api/admin/users/list', {
      token,
      query: b.email,
      page: 1,
      pageSize: 5,
    });
    expect(users[0]?.flaggedAt).not.toBeNull();
    await expectLedgerMatchesBalances(t);
  });

  it("moves the subscription's end to Apple's date on DID_RENEW, and ends it on EXPIRED", async () => {
    const b = await registerUser(t);
    const first = monthlyTransaction();
    expect((await validate(b.token, signedPurchase(first))).data).toEqual({ result: 1, products: 'monthly' });
    expect(await subscriptionEnd(b.token)).toBe(first.expiresDate);

    const renewedUntil = (first.expiresDate as number) + 31 * DAY;
    const renewal = monthlyTransaction({
      originalTransactionId: first.transactionId,
      purchaseDate: first.expiresDate,
      expiresDate: renewedUntil,
      transactionReason: 'RENEWAL',
    });
    expect(await notify(notification(apple, 'DID_RENEW', renewal))).toEqual({
      status: 200,
      body: { received: true, applied: true },
    });
    expect(await subscriptionEnd(b.token)).toBe(renewedUntil);

    // In a grace period nothing ends; an expiry ends the renewals and leaves the time paid.
    const grace = await notify(notification(apple, 'DID_FAIL_TO_RENEW', renewal, { subtype: 'GRACE_PERIOD' }));
    expect(grace).toEqual({ status: 200, body: { received: true, ignored: 'DID_FAIL_TO_RENEW' } });
    expect((await notify(notification(apple, 'EXPIRED', renewal, { subtype: 'VOLUNTARY' }))).status).toBe(200);
    expect(await subscriptionEnd(b.token)).toBe(renewedUntil);
  });

  it.each(['REFUND', 'REVOKE'])(
    'ends the time a renewal paid for on %s of it, after the app also reported the renewal',
    async (type) => {
      const b = await registerUser(t);
      const first = monthlyTransaction();
      expect((await validate(b.token, signedPurchase(first))).data).toEqual({ result: 1, products: 'monthly' });
      const renewedUntil = (first.expiresDate as number) + 31 * DAY;
      const renewal = monthlyTransaction({
        originalTransactionId: first.transactionId,
        purchaseDate: first.expiresDate,
        expiresDate: renewedUntil,
        transactionReason: 'RENEWAL',
      });
      expect((await notify(notification(apple, 'DID_RENEW', renewal))).body).toEqual({ received: true, applied: true });
      // The app reports the renewal's transaction too: the same transaction, granted nothing more.
      expect((await validate(b.token, signedPurchase(renewal))).data).toEqual({ result: 1, products: 'monthly' });
      expect(await subscriptionEnd(b.token)).toBe(renewedUntil);

      const revoked = { ...renewal, revocationDate: Date.now(), revocationReason: 0 };
      expect(await notify(notification(apple, type, revoked))).toEqual({
        status: 200,
        body: { received: true, applied: true },
      });
      // The renewed period is gone; the first one, paid and not refunded, stays, with its order.
      expect(await subscriptionEnd(b.token)).toBe(first.expiresDate);
      expect((await ordersOf(b.token)).map((o) => o.status)).toEqual(['paid']);
    },
  );

  it('applies the same notification once, even when it arrives 10 times at once', async () => {
    const b = await registerUser(t);
    const first = monthlyTransaction();
    expect((await validate(b.token, signedPurchase(first))).data).toEqual({ result: 1, products: 'monthly' });
    const renewal = monthlyTransaction({
      originalTransactionId: first.transactionId,
      expiresDate: (first.expiresDate as number) + 30 * DAY,
    });
    const payload = notification(apple, 'DID_RENEW', renewal);
    const answers = await Promise.all(Array.from({ length: 10 }, () => notify(payload)));
    for (const a of answers) expect(a.status).toBe(200);
    expect(answers.filter((a) => a.body.applied === true)).toHaveLength(1);
    const [order] = await ordersOf(b.token);
    const rows = await t.db.kysely
      .selectFrom('entitlements')
      .select('id')
      .where('order_id', '=', order?.iden ?? '')
      .execute();
    // The purchase's period and one renewal.
    expect(rows).toHaveLength(2);
  });

  it('answers 400 for a notification that does not verify, and 200 for TEST and for purchases it does not hold', async () => {
    const tx = appleTransaction('till.credits100');
    expect((await notify(notification(stranger, 'REFUND', tx))).status).toBe(400);
    const good = notification(apple, 'REFUND', tx);
    const [head, body] = good.split('.');
    expect((await notify(`${head}.${body}.${Buffer.from('forged').toString('base64url')}`)).status).toBe(400);
    const res = await fetch(`${t.url}/api/payments/webhook/apple`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nothing: true }),
    });
    expect(res.status).toBe(400);
    expect(
      await notify(
        signJws(apple, {
          notificationType: 'TEST',
          notificationUUID: randomUUID(),
          version: '2.0',
          signedDate: Date.now(),
          data: { appAppleId: APP_APPLE_ID, bundleId: BUNDLE_ID, environment: 'Sandbox' },
        }),
      ),
    ).toEqual({ status: 200, body: { received: true, ignored: 'TEST' } });
    expect(await notify(good)).toEqual({ status: 200, body: { received: true, ignored: 'REFUND' } });
  });

  it('is not offered at checkout: App Store purchases go through the app', async () => {
    const form = await ok<{ providers: { provider: string }[] }>(t, '/api/store/getCheckoutForm', {
      products: 'credits-100',
    });
    expect(form.providers.map((p) => p.provider)).not.toContain('appstore');
    expect(await post(t, '/api/store/validatePurchase', { transactionData: pluginTransaction({}) })).toEqual({
      code: 901,
    });
  });
});
