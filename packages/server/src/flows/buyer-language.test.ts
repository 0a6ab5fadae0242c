import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localizeOrder } from '../modules/store/index.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { giveCredits } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';

interface Item {
  productId: string;
  title: string;
}
interface Order {
  iden: string;
  status: string;
  items: Item[];
}

/**
 * Product titles follow the buyer's language wherever a buyer reads them, not only in the catalog:
 * orders keep the default language's title, and each answer shows the translation of the language
 * the app sends (`Accept-Language`).
 */
describe.each(dialects)("order titles in the buyer's language on %s", (dialect) => {
  let t: TestApp;
  let buyer: { token: string; userId: string };
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    buyer = await registerUser(t);
    await giveCredits(t, buyer.userId, 2000);
  });
  afterAll(() => t.close());

  /** A call as the app makes it: the interface's language in `Accept-Language`. */
  const call = async <T>(path: string, body: Record<string, unknown>, lang: string): Promise<T> => {
    const res = await t.app.inject({
      method: 'POST',
      url: path,
      payload: { token: buyer.token, ...body },
      headers: { 'accept-language': lang },
    });
    const json = res.json() as { code: number; data: T };
    if (json.code !== 900) throw new Error(`${path} answered ${res.body}`);
    return json.data;
  };
  const titles = (items: Item[]) => items.map((i) => i.title);

  it('shows the cart, the checkout summary and the new order in German when the app speaks German', async () => {
    const form = await call<{ products: Item[] }>(
      '/api/store/getCheckoutForm',
      { products: 'pro-unlock,monthly' },
      'de',
    );
    expect(form.products.map((p) => p.title)).toEqual(['Pro freischalten', 'Monatsabo']);
    const preview = await call<{ lines: Item[] }>(
      '/api/store/checkoutPreview',
      { products: 'pro-unlock;monthly' },
      'de',
    );
    expect(titles(preview.lines)).toEqual(['Pro freischalten', 'Monatsabo']);
    const made = await call<{ order: Order }>('/api/store/doCheckout', { products: 'pro-unlock;monthly' }, 'de');
    expect(titles(made.order.items)).toEqual(['Pro freischalten', 'Monatsabo']);
    // The same cart for an English interface.
    const english = await call<{ lines: Item[] }>('/api/store/checkoutPreview', { products: 'pro-unlock' }, 'en');
    expect(titles(english.lines)).toEqual(['Pro unlock']);
  });

  it("answers a buyer's orders in the language asked for, whichever language they were bought in", async () => {
    const made = await call<{ order: Order }>('/api/store/doCheckout', { products: 'monthly' }, 'en');
    expect(titles(made.order.items)).toEqual(['Monthly subscription']);
    const iden = made.order.iden;
    const status = await call<{ order: Order }>('/api/store/orderStatus', { iden }, 'de-DE,de;q=0.9,en;q=0.8');
    expect(titles(status.order.items)).toEqual(['Monatsabo']);
    const list = await call<{ orders: Order[] }>('/api/store/orders', { page: 1, pageSize: 50 }, 'de');
    expect(titles(list.orders.find((o) => o.iden === iden)?.items ?? [])).toEqual(['Monatsabo']);
    const english = await call<{ order: Order }>('/api/store/orderStatus', { iden }, 'en');
    expect(titles(english.order.items)).toEqual(['Monthly subscription']);
    const cancelled = await call<{ order: Order }>('/api/store/cancelOrder', { iden }, 'de');
    expect(cancelled.order.status).toBe('cancelled');
    expect(titles(cancelled.order.items)).toEqual(['Monatsabo']);
  });

  it('answers a purchase with credits and what it gave in German', async () => {
    const paid = await call<{ order: Order }>(
      '/api/auth/payWithCredits',
      { products: JSON.stringify(['pro-unlock']), dataObj: '{}' },
      'de',
    );
    expect(paid.order.status).toBe('paid');
    expect(titles(paid.order.items)).toEqual(['Pro freischalten']);
    const owned = await call<{ entitlements: Item[] }>('/api/store/entitlements', {}, 'de');
    expect(owned.entitlements.find((e) => e.productId === 'pro-unlock')?.title).toBe('Pro freischalten');
  });

  it("shows the sandbox payment page's lines in the buyer's language", async () => {
    const made = await call<{ order: Order; payment: { url: string } }>(
      '/api/store/doCheckout',
      { products: 'monthly' },
      'de',
    );
    const url = new URL(made.payment.url);
    const page = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(page.body).toContain('Monatsabo');
    expect(page.body).not.toContain('Monthly subscription');
  });

  it('gives other parts of the server the same lookup: localizeOrder', async () => {
    const made = await call<{ order: Order }>('/api/store/doCheckout', { products: 'credits-100;monthly' }, 'en');
    const order = await t.call('/api/store/orderStatus', { token: buyer.token, iden: made.order.iden });
    const stored = (order.data as { order: Order }).order;
    expect(titles(stored.items)).toEqual(['100 credits', 'Monthly subscription']);
    const german = await localizeOrder(t.ctx.db.kysely, stored as never, 'de');
    expect(titles(german.items)).toEqual(['100 Credits', 'Monatsabo']);
    expect(titles((await localizeOrder(t.ctx.db.kysely, stored as never, 'en')).items)).toEqual([
      '100 credits',
      'Monthly subscription',
    ]);
  });
});
