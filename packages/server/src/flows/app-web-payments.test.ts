import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGINS } from '@till/protocol';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { giveCredits, ok } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

/** doCheckout as a page at `origin` sends it (a phone app's WebView names the shell's origin). */
async function checkoutFrom(t: TestApp, token: string, origin: string | undefined, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/store/doCheckout',
    payload: { token, ...body },
    headers: origin ? { origin } : {},
  });
  return res.json() as { code: number; reason?: string; data?: { order: { status: string } } };
}

describe.each(dialects)('web payments inside the phone apps on %s', (dialect) => {
  describe('hidden (the default)', () => {
    let t: TestApp;
    let buyer: { token: string; userId: string };
    beforeAll(async () => {
      t = await startTestApp({ dialect });
      buyer = await registerUser(t);
    });
    afterAll(() => t.close());

    it('says so in the checkout form, which still lists the web routes for browsers', async () => {
      const form = await ok<{ providers: { provider: string }[]; app: unknown }>(t, '/api/store/getCheckoutForm', {
        products: 'pro-unlock',
      });
      expect(form.providers.map((p) => p.provider)).toEqual(['default']);
      expect(form.app).toEqual({ webPayments: 'hidden', stores: [] });
    });

    it.each(Object.entries(APP_ORIGINS))(
      'refuses a web route to a call from the %s app, new order or past one',
      async (_, origin) => {
        expect(await checkoutFrom(t, buyer.token, origin, { products: 'pro-unlock', provider: 'default' })).toEqual({
          code: 910,
          reason: 'not_in_app',
        });
        // Naming no route is no way round: the first configured is a web route too.
        expect(await checkoutFrom(t, buyer.token, origin, { products: 'pro-unlock' })).toEqual({
          code: 910,
          reason: 'not_in_app',
        });
        const pending = await checkoutFrom(t, buyer.token, 'https://shop.example', { products: 'pro-unlock' });
        expect(pending.code).toBe(900);
        const iden = (pending.data as unknown as { order: { iden: string } }).order.iden;
        expect(await checkoutFrom(t, buyer.token, origin, { pastOrder: iden })).toEqual({
          code: 910,
          reason: 'not_in_app',
        });
      },
    );

    it('still lets the app pay with credits bought on the web', async () => {
      await giveCredits(t, buyer.userId, 500);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/payWithCredits',
        payload: { token: buyer.token, products: JSON.stringify(['pro-unlock']) },
        headers: { origin: APP_ORIGINS.android },
      });
      expect(res.json()).toMatchObject({ code: 900, data: { order: { status: 'paid', provider: 'credits' } } });
    });

    it('leaves browsers their web routes', async () => {
      const b = await registerUser(t);
      const res = await checkoutFrom(t, b.token, undefined, { products: 'credits-100', provider: 'default' });
      expect(res.code).toBe(900);
      expect(res.data?.order.status).toBe('pending');
    });
  });

  describe('shown', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect, env: { APP_WEB_PAYMENTS: 'shown' } });
    });
    afterAll(() => t.close());

    it('lets the apps offer and use the web routes', async () => {
      const form = await ok<{ app: unknown }>(t, '/api/store/getCheckoutForm', { products: '' });
      expect(form.app).toEqual({ webPayments: 'shown', stores: [] });
      const buyer = await registerUser(t);
      const res = await checkoutFrom(t, buyer.token, APP_ORIGINS.ios, { products: 'credits-100', provider: 'default' });
      expect(res.code).toBe(900);
      expect(res.data?.order.status).toBe('pending');
    });
  });
});
