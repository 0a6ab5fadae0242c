import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAY,
  monthlyTransaction,
  notification,
  pluginTransaction,
  signJws,
  startAppleTestStore,
  type AppleTestStore,
  type Tx,
} from '@till/test-support/apple-signing';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, expectLedgerMatchesBalances, ok, saveProduct } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

/** The money of an App Store subscription that also grants credits, renewal by renewal. */
describe.each(dialects)('App Store renewals on %s', (dialect) => {
  let t: TestApp;
  let store: AppleTestStore;
  let productId: string;

  beforeAll(async () => {
    store = await startAppleTestStore();
    t = await startTestApp({
      dialect,
      listen: true,
      config: { payments: { card: undefined, paywall: undefined, appstore: store.config } },
    });
    productId = await saveProduct(t, {
      alias: 'monthly-credits',
      title: 'Monthly with credits',
      type: 2,
      price: { amount: 499, currency: 'USD' },
      grants: { credits: 50, period: 'P1M' },
      storeIds: { appstore: 'till.monthly_credits' },
    });
  });
  afterAll(async () => {
    await store.close();
    await t.close();
  });

  const validate = async (token: string, tx: Tx) =>
    (
      await t.call('/api/store/validatePurchase', {
        token,
        transactionData: pluginTransaction({
          transactionId: tx.transactionId,
          jwsRepresentation: signJws(store.apple, tx),
        }),
      })
    ).data;
  const notify = async (type: string, tx: Tx) => {
    const res = await fetch(`${t.url}/api/payments/webhook/apple`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ signedPayload: notification(store.apple, type, tx) }),
    });
    return (await res.json()) as Record<string, unknown>;
  };
  const balance = async (token: string) =>
    (await ok<{ balance: number }>(t, '/api/store/credits', { token, page: 1, pageSize: 5 })).balance;
  const subscriptionEnd = async (token: string) => {
    const { entitlements } = await ok<{ entitlements: { productId: string; expiresAt: string | null }[] }>(
      t,
      '/api/store/entitlements',
      { token },
    );
    const held = entitlements.find((e) => e.productId === productId);
    return held?.expiresAt ? Date.parse(held.expiresAt) : undefined;
  };
  const ordersOf = async (token: string) =>
    (await ok<{ orders: { iden: string; status: string }[] }>(t, '/api/store/orders', { token })).orders;

  /** The order the subscription's first transaction made. */
  const firstOrderOf = async (first: Tx) =>
    (
      await t.ctx.db.kysely
        .selectFrom('payment_refs')
        .select('order_id')
        .where('provider', '=', 'appstore')
        .where('ref', '=', first.transactionId)
        .executeTakeFirstOrThrow()
    ).order_id;

  /** A buyer with the subscription's first period (50 credits), and its next transaction, a renewal. */
  const subscribed = async () => {
    const b = await registerUser(t);
    const first = monthlyTransaction({ productId: 'till.monthly_credits' });
    expect(await validate(b.token, first)).toEqual({ result: 1, products: productId });
    const renewal = monthlyTransaction({
      productId: 'till.monthly_credits',
      originalTransactionId: first.transactionId,
      purchaseDate: first.expiresDate,
      expiresDate: (first.expiresDate as number) + 31 * DAY,
      transactionReason: 'RENEWAL',
    });
    return { b, first, renewal };
  };

  it('grants a renewal once when DID_RENEW comes before the app reports its transaction, and after it', async () => {
    const signedFirst = await subscribed();
    expect(await notify('DID_RENEW', signedFirst.renewal)).toEqual({ received: true, applied: true });
    expect(await validate(signedFirst.b.token, signedFirst.renewal)).toEqual({ result: 1, products: productId });
    expect(await balance(signedFirst.b.token)).toBe(100);
    expect(await subscriptionEnd(signedFirst.b.token)).toBe(signedFirst.renewal.expiresDate);

    const reportedFirst = await subscribed();
    expect(await validate(reportedFirst.b.token, reportedFirst.renewal)).toEqual({ result: 1, products: productId });
    expect(await notify('DID_RENEW', reportedFirst.renewal)).toEqual({ received: true, applied: false });
    expect(await balance(reportedFirst.b.token)).toBe(100);
    expect(await subscriptionEnd(reportedFirst.b.token)).toBe(reportedFirst.renewal.expiresDate);
    await expectLedgerMatchesBalances(t);
  });

  it('grants a renewal once when DID_RENEW and the app report it at the same moment', async () => {
    const buyers = await Promise.all(Array.from({ length: 6 }, () => subscribed()));
    await Promise.all(buyers.flatMap(({ b, renewal }) => [notify('DID_RENEW', renewal), validate(b.token, renewal)]));
    for (const { b, renewal } of buyers) {
      expect(await balance(b.token)).toBe(100);
      expect(await subscriptionEnd(b.token)).toBe(renewal.expiresDate);
      // The app's report, answered as the transaction it is, whichever path recorded it.
      expect(await validate(b.token, renewal)).toEqual({ result: 1, products: productId });
    }
    await expectLedgerMatchesBalances(t);
  });

  it.each(['REFUND', 'REVOKE'])(
    'takes back only the renewed period and its credits on %s of a renewal the app never reported, once',
    async (type) => {
      const { b, first, renewal } = await subscribed();
      expect(await notify('DID_RENEW', renewal)).toEqual({ received: true, applied: true });
      expect(await balance(b.token)).toBe(100);

      const revoked = { ...renewal, revocationDate: Date.now(), revocationReason: 0 };
      expect(await notify(type, revoked)).toEqual({ received: true, applied: true });
      // The first period, paid and not refunded, stays with its credits; its order stays paid.
      expect(await subscriptionEnd(b.token)).toBe(first.expiresDate);
      expect(await balance(b.token)).toBe(50);
      expect((await ordersOf(b.token)).map((o) => o.status)).toEqual(['paid']);
      // Apple's other notification of the same refund takes nothing more.
      expect(await notify(type === 'REFUND' ? 'REVOKE' : 'REFUND', revoked)).toEqual({
        received: true,
        applied: false,
      });
      expect(await balance(b.token)).toBe(50);
      expect(await subscriptionEnd(b.token)).toBe(first.expiresDate);
      await expectLedgerMatchesBalances(t);
    },
  );

  it("ends a renewal's time on an administrator's refund of the renewal's own order, and takes its credits once", async () => {
    const { token } = await anAdmin(t);
    const { b, first, renewal } = await subscribed();
    expect(await validate(b.token, renewal)).toEqual({ result: 1, products: productId });
    expect(await notify('DID_RENEW', renewal)).toEqual({ received: true, applied: false });
    const orders = await ordersOf(b.token);
    expect(orders).toHaveLength(2);
    const firstIden = await firstOrderOf(first);
    const own = orders.find((o) => o.iden !== firstIden);

    expect((await t.call('/api/admin/orders/refund', { token, iden: own?.iden })).code).toBe(900);
    expect(await subscriptionEnd(b.token)).toBe(first.expiresDate);
    expect(await balance(b.token)).toBe(50);
    expect((await ordersOf(b.token)).find((o) => o.iden === firstIden)?.status).toBe('paid');
    await expectLedgerMatchesBalances(t);
  });

  it("asks Apple for the period of a renewal's order recorded before orders kept it, and refunds nothing while Apple cannot answer", async () => {
    const { token } = await anAdmin(t);
    const { b, first, renewal } = await subscribed();
    expect(await notify('DID_RENEW', renewal)).toEqual({ received: true, applied: true });
    // As renewals and their reports were recorded before: DID_RENEW under its notification's id,
    // and the app's report as an order keeping nothing but its transaction id.
    await t.ctx.db.kysely
      .updateTable('payment_events')
      .set({ event_id: randomUUID() })
      .where('provider', '=', 'appstore')
      .where('event_id', '=', renewal.transactionId)
      .execute();
    expect(await validate(b.token, renewal)).toEqual({ result: 1, products: productId });
    const firstIden = await firstOrderOf(first);
    const own = (await ordersOf(b.token)).find((o) => o.iden !== firstIden);
    await t.ctx.db.kysely
      .updateTable('orders')
      .set({ data: JSON.stringify({ transactionId: renewal.transactionId }) })
      .where('id', '=', own?.iden ?? '')
      .execute();

    // Apple does not know the transaction (yet): nothing is refunded, the administrator can try again.
    expect(await t.call('/api/admin/orders/refund', { token, iden: own?.iden })).toEqual(
      expect.objectContaining({ code: 910 }),
    );
    expect(await balance(b.token)).toBe(150);
    expect(await subscriptionEnd(b.token)).toBe(renewal.expiresDate);

    store.api.signed.set(renewal.transactionId, signJws(store.apple, renewal));
    expect((await t.call('/api/admin/orders/refund', { token, iden: own?.iden })).code).toBe(900);
    expect(await subscriptionEnd(b.token)).toBe(first.expiresDate);
    expect(await balance(b.token)).toBe(100);
    await expectLedgerMatchesBalances(t);
  });

  it('ends the renewed time on the first order when an administrator refunds an order a renewal made before it was keyed by its transaction', async () => {
    const { token } = await anAdmin(t);
    const { b, first, renewal } = await subscribed();
    expect(await notify('DID_RENEW', renewal)).toEqual({ received: true, applied: true });
    // As DID_RENEW was recorded before: under its notification's id, so the app's report made an
    // order of its own, granting its credits again.
    await t.ctx.db.kysely
      .updateTable('payment_events')
      .set({ event_id: randomUUID() })
      .where('provider', '=', 'appstore')
      .where('event_id', '=', renewal.transactionId)
      .execute();
    expect(await validate(b.token, renewal)).toEqual({ result: 1, products: productId });
    expect(await balance(b.token)).toBe(150);
    const orders = await ordersOf(b.token);
    expect(orders).toHaveLength(2);
    const firstIden = await firstOrderOf(first);
    const own = orders.find((o) => o.iden !== firstIden);

    expect((await t.call('/api/admin/orders/refund', { token, iden: own?.iden })).code).toBe(900);
    expect(await subscriptionEnd(b.token)).toBe(first.expiresDate);
    expect(await balance(b.token)).toBe(100);
    expect((await ordersOf(b.token)).find((o) => o.iden === firstIden)?.status).toBe('paid');
    await expectLedgerMatchesBalances(t);
  });
});
