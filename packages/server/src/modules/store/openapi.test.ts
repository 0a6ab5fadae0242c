import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorePaths, Paths } from '@till/protocol';
import { startTestApp, type TestApp } from '@till/test-support/app';

describe('store calls in the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('describes every store, admin and payment call with its payload', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, { post?: { requestBody?: unknown } }> }>();
    const store = [
      Paths.getCoupon,
      Paths.redeemCoupon,
      Paths.payWithCredits,
      Paths.doCheckout,
      Paths.getCheckoutForm,
      Paths.orderStatus,
      Paths.validatePurchase,
      ...Object.values(StorePaths).filter((p) => p !== StorePaths.paymentNotify),
    ];
    for (const path of store) expect(doc.paths[`/${path}`]?.post?.requestBody, path).toBeDefined();
    expect(doc.paths['/api/payments/notify/{provider}']?.post).toBeDefined();
  });
});
