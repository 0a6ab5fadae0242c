import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { ok, post } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

/** A transaction as the in-app store plugin's TEST platform reports it (with fields we ignore). */
function testTransaction(transactionId: string, storeIds: string[], platform = 'test'): string {
  return JSON.stringify({
    className: 'Transaction',
    platform,
    transactionId,
    state: 'approved',
    products: storeIds.map((id) => ({ id, offerId: '' })),
  });
}

describe.each(dialects)('TEST platform validator on %s', (dialect) => {
  let t: TestApp;
  let buyer: { token: string; userId: string };
  beforeAll(async () => {
    t = await startTestApp({ dialect, listen: true });
    buyer = await registerUser(t);
  });
  afterAll(() => t.close());

  const validate = (transactionData: string, token = buyer.token) =>
    t.call('/api/store/validatePurchase', { token, transactionData });

  it('accepts a test transaction, names our products, and records a paid order with its grants', async () => {
    const res = await validate(testTransaction('tx-1', ['till.credits100', 'till.monthly']));
    expect(res).toEqual({ code: 900, data: { result: 1, products: 'credits-100;monthly' } });
    const orders = await ok<{ orders: { provider: string; status: string; total: { amount: number } }[] }>(
      t,
      '/api/store/orders',
      {
        token: buyer.token,
      },
    );
    expect(orders.orders).toEqual([
      expect.objectContaining({ provider: 'test', status: 'paid', total: { amount: 498, currency: 'USD' } }),
    ]);
    const credits = await ok<{ balance: number }>(t, '/api/store/credits', { token: buyer.token });
    expect(credits.balance).toBe(100);
  });

  it('is idempotent on the transaction id, even when the same transaction arrives 10 times at once', async () => {
    const b = await registerUser(t);
    const data = testTransaction('tx-race', ['till.credits100']);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(t, '/api/store/validatePurchase', { token: b.token, transactionData: data }),
      ),
    );
    for (const a of answers) expect(a).toEqual({ code: 900, data: { result: 1, products: 'credits-100' } });
    const orders = await ok<{ total: number }>(t, '/api/store/orders', { token: b.token });
    expect(orders.total).toBe(1);
    const credits = await ok<{ balance: number }>(t, '/api/store/credits', { token: b.token });
    expect(credits.balance).toBe(100);
  });

  it("refuses another buyer's transaction id (result 0)", async () => {
    const other = await registerUser(t);
    expect(await validate(testTransaction('tx-1', ['till.credits100']), other.token)).toEqual({
      code: 900,
      data: { result: 0, reason: 'already_used' },
    });
  });

  it('answers result 0 for a well-formed transaction that is not valid here', async () => {
    expect(await validate(testTransaction('tx-2', ['till.nothing']))).toEqual({
      code: 900,
      data: { result: 0, reason: 'unknown_product' },
    });
    expect(await validate(testTransaction('tx-3', ['till.credits100'], 'ios-appstore'))).toEqual({
      code: 900,
      data: { result: 0, reason: 'unsupported_platform' },
    });
  });

  it('answers 907 for malformed transaction data and 901 without a good token', async () => {
    expect(await validate('not json')).toEqual({ code: 907, parameter: 'transactionData', reason: 'invalid' });
    expect(await validate(JSON.stringify({ platform: 'test', products: [] }))).toEqual({
      code: 907,
      parameter: 'transactionData',
      reason: 'invalid',
    });
    expect(await validate(testTransaction('tx-4', ['till.credits100']), 'wrong-token')).toEqual({ code: 901 });
    expect(
      await t.call('/api/store/validatePurchase', { transactionData: testTransaction('tx-4', ['till.credits100']) }),
    ).toEqual({
      code: 901,
    });
  });
});

describe.each(dialects)('TEST platform validator with production configured on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect, config: { production: true } });
  });
  afterAll(() => t.close());

  it('accepts no test transactions: they take no money', async () => {
    const b = await registerUser(t);
    const res = await t.call('/api/store/validatePurchase', {
      token: b.token,
      transactionData: testTransaction('tx-prod', ['till.credits100']),
    });
    expect(res).toEqual({ code: 900, data: { result: 0, reason: 'platform_disabled' } });
  });
});
