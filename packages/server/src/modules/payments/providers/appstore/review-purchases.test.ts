import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appleTransaction,
  notification,
  pluginTransaction,
  signJws,
  startAppleTestStore,
  type AppleTestStore,
  type Tx,
} from '@till/test-support/apple-signing';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { anAdmin, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import type { AppStoreConfig } from './config.js';

interface AdminOrderView {
  iden: string;
  status: string;
  payment: { sandbox: boolean };
}

// App Review buys with sandbox accounts against the production build, which talks to the production
// server: one server takes both, and tells the sandbox's orders apart.
describe.each(dialects)('App Store review purchases on a production server, on %s', (dialect) => {
  let store: AppleTestStore;
  let production: AppStoreConfig;
  let t: TestApp;

  beforeAll(async () => {
    store = await startAppleTestStore();
    production = { ...store.config, environment: 'Production' };
    t = await startTestApp({
      dialect,
      listen: true,
      config: { payments: { card: undefined, paywall: undefined, appstore: production } },
    });
  });
  afterAll(async () => {
    await t.close();
    await store.close();
  });

  const signed = (tx: Tx) =>
    pluginTransaction({ transactionId: tx.transactionId, jwsRepresentation: signJws(store.apple, tx) });
  const adminOrders = async (userId: string) => {
    const { token } = await anAdmin(t);
    return (
      await ok<{ orders: AdminOrderView[] }>(t, '/api/admin/orders/list', {
        token,
        userId,
        page: 1,
        pageSize: 10,
      })
    ).orders;
  };

  it('grants a Sandbox-signed purchase and marks its order as a sandbox order', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100', { environment: 'Sandbox' });
    expect(await t.call('/api/store/validatePurchase', { token: b.token, transactionData: signed(tx) })).toEqual({
      code: 900,
      data: { result: 1, products: 'credits-100' },
    });
    expect(await adminOrders(b.userId)).toEqual([
      expect.objectContaining({ status: 'paid', payment: expect.objectContaining({ sandbox: true }) }),
    ]);
  });

  it('grants a production purchase as a sale', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100', { environment: 'Production' });
    expect((await t.call('/api/store/validatePurchase', { token: b.token, transactionData: signed(tx) })).data).toEqual(
      { result: 1, products: 'credits-100' },
    );
    expect(await adminOrders(b.userId)).toEqual([
      expect.objectContaining({ payment: expect.objectContaining({ sandbox: false }) }),
    ]);
  });

  it('asks the sandbox API for a transaction the production API does not know', async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100', { environment: 'Sandbox' });
    store.sandboxApi.signed.set(tx.transactionId, signJws(store.apple, tx));
    const path = `/inApps/v1/transactions/${tx.transactionId}`;
    expect(
      (
        await t.call('/api/store/validatePurchase', {
          token: b.token,
          transactionData: pluginTransaction({ transactionId: tx.transactionId }),
        })
      ).data,
    ).toEqual({ result: 1, products: 'credits-100' });
    expect(store.api.requests.filter((r) => r.path === path)).toEqual([{ path, authorized: true }]);
    expect(store.sandboxApi.requests.filter((r) => r.path === path)).toEqual([{ path, authorized: true }]);
    expect((await adminOrders(b.userId))[0]?.payment.sandbox).toBe(true);
  });

  it("applies a sandbox notification: a review purchase's refund takes its grants back", async () => {
    const b = await registerUser(t);
    const tx = appleTransaction('till.credits100', { environment: 'Sandbox' });
    expect((await t.call('/api/store/validatePurchase', { token: b.token, transactionData: signed(tx) })).data).toEqual(
      { result: 1, products: 'credits-100' },
    );
    const res = await fetch(`${t.url}/api/payments/webhook/apple`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        signedPayload: notification(store.apple, 'REFUND', { ...tx, revocationDate: Date.now(), revocationReason: 0 }),
      }),
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { received: true, applied: true },
    });
    expect((await adminOrders(b.userId))[0]?.status).toBe('refunded');
  });

  it('refuses sandbox data when APPLE_ACCEPT_SANDBOX is off, and still takes production data', async () => {
    const strict = await startTestApp({
      dialect,
      listen: true,
      config: {
        payments: { card: undefined, paywall: undefined, appstore: { ...production, acceptSandbox: false } },
      },
    });
    try {
      const b = await registerUser(strict);
      const validate = (tx: Tx) =>
        strict.call('/api/store/validatePurchase', { token: b.token, transactionData: signed(tx) });
      const sandbox = appleTransaction('till.credits100', { environment: 'Sandbox' });
      expect((await validate(sandbox)).data).toEqual({ result: 0, reason: 'environment' });
      const res = await fetch(`${strict.url}/api/payments/webhook/apple`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ signedPayload: notification(store.apple, 'REFUND', sandbox) }),
      });
      expect(res.status).toBe(400);
      expect((await validate(appleTransaction('till.credits100', { environment: 'Production' }))).data).toEqual({
        result: 1,
        products: 'credits-100',
      });
    } finally {
      await strict.close();
    }
  });
});
