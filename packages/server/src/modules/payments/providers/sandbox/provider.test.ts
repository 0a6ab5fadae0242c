import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { ok, post } from '@till/test-support/store';
import { registerUser } from '@till/test-support/users';
import { DefaultProvider } from './provider.js';

interface Checkout {
  order: { iden: string; total: { amount: number; currency: string } };
  payment: { provider: string; url: string };
}

describe.each(dialects)('default provider on %s', (dialect) => {
  let t: TestApp;
  let buyer: { token: string; userId: string };
  beforeAll(async () => {
    t = await startTestApp({ dialect, listen: true });
    buyer = await registerUser(t);
  });
  afterAll(() => t.close());

  const newOrder = (products = 'credits-100') =>
    ok<Checkout>(t, '/api/store/doCheckout', { token: buyer.token, products });
  const form = (url: string, fields: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });

  it('serves a checkout page for the order, with a plain form and no script', async () => {
    const { order, payment } = await newOrder();
    expect(payment.url.startsWith(`${t.url}/api/pay/default/${order.iden}?sig=`)).toBe(true);
    const res = await fetch(payment.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('100 credits');
    // The amount as an English reader writes it, never "1.99 USD".
    expect(html).toContain('$1.99');
    expect(html).not.toContain('1.99 USD');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<form method="post"');
    expect(html).not.toContain('<script');
  });

  it('pays through the page: the order is paid, granted once, and the buyer is sent back to the order', async () => {
    const { order, payment } = await newOrder();
    const sig = new URL(payment.url).searchParams.get('sig')!;
    const action = `${t.url}/api/pay/default/${order.iden}`;
    const first = await form(action, { sig, action: 'pay' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/orders/${order.iden}`);
    // A double click posts the same choice again: the same event, applied once.
    expect((await form(action, { sig, action: 'pay' })).status).toBe(303);
    const status = await ok<{ status: string }>(t, '/api/store/orderStatus', { token: buyer.token, iden: order.iden });
    expect(status.status).toBe('paid');
    const credits = await ok<{ balance: number; entries: unknown[] }>(t, '/api/store/credits', { token: buyer.token });
    expect(credits.entries).toHaveLength(1);
    expect(credits.balance).toBe(100);
    const after = await (await fetch(payment.url)).text();
    expect(after).toContain('Payment received');
    expect(after).toContain(`/orders/${order.iden}`);
    expect(after).not.toContain('<form');
  });

  it("speaks the buyer's language: the link's, else the browser's, with the amount and titles as a German reads them", async () => {
    const res = await fetch(`${t.url}/api/store/doCheckout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
      body: JSON.stringify({ token: buyer.token, products: 'credits-100;credits-100', couponCode: 'WELCOME10' }),
    });
    const { data } = (await res.json()) as { data: Checkout };
    // The app's language travels in the link, so the page is German whatever the browser says.
    expect(new URL(data.payment.url).searchParams.get('lang')).toBe('de');
    const html = await (await fetch(data.payment.url, { headers: { 'accept-language': 'en' } })).text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('100 Credits × 2');
    // 2 x 1.99 - 10 % = 3.58 (rounded half up: 0.398 -> 0.40 off): German digits, the symbol after.
    expect(html).toMatch(/3,58\s\$ bezahlen/);
    expect(html).toMatch(/−0,40\s\$/);
    expect(html).toContain('Testkasse: Es wird kein Geld abgebucht.');
    expect(html).toContain(
      '<button class="link" type="submit" name="action" value="cancel">Zahlung abbrechen und zurück zur Bestellung</button>',
    );
    // Without `lang` in the link the browser's Accept-Language decides; an unknown one reads as English.
    const bare = data.payment.url.replace(/&lang=de$/, '');
    expect(await (await fetch(bare, { headers: { 'accept-language': 'de-AT' } })).text()).toContain('Bezahlen');
    const english = await (await fetch(bare, { headers: { 'accept-language': 'fr-FR' } })).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('100 credits × 2');
  });

  it('declines through the page: the order fails and can no longer be paid', async () => {
    const { order, payment } = await newOrder('monthly');
    const sig = new URL(payment.url).searchParams.get('sig')!;
    const action = `${t.url}/api/pay/default/${order.iden}`;
    expect((await form(action, { sig, action: 'decline' })).status).toBe(303);
    expect((await form(action, { sig, action: 'pay' })).status).toBe(303);
    const status = await ok<{ status: string }>(t, '/api/store/orderStatus', { token: buyer.token, iden: order.iden });
    expect(status.status).toBe('failed');
    expect(await (await fetch(payment.url)).text()).toContain('declined');
  });

  it('cancels through the page: the order is cancelled, and nothing can pay it any more', async () => {
    const { order, payment } = await newOrder();
    expect(await (await fetch(payment.url)).text()).toContain('Cancel the payment and return to your order');
    const sig = new URL(payment.url).searchParams.get('sig')!;
    const action = `${t.url}/api/pay/default/${order.iden}`;
    const left = await form(action, { sig, action: 'cancel' });
    expect(left.status).toBe(303);
    expect(left.headers.get('location')).toBe(`/orders/${order.iden}`);
    const status = await ok<{ status: string }>(t, '/api/store/orderStatus', { token: buyer.token, iden: order.iden });
    expect(status.status).toBe('cancelled');
    // A second click, and a pay after it, change nothing: the order stays cancelled, nothing granted.
    expect((await form(action, { sig, action: 'cancel' })).status).toBe(303);
    expect((await form(action, { sig, action: 'pay' })).status).toBe(303);
    const again = await ok<{ status: string }>(t, '/api/store/orderStatus', { token: buyer.token, iden: order.iden });
    expect(again.status).toBe('cancelled');
    expect(await (await fetch(payment.url)).text()).toContain('This order was cancelled.');
    // A wrong signature cancels nothing.
    const other = await newOrder();
    const refused = await form(`${t.url}/api/pay/default/${other.order.iden}`, { sig: 'bad', action: 'cancel' });
    expect(refused.status).toBe(400);
    const open = await ok<{ status: string }>(t, '/api/store/orderStatus', {
      token: buyer.token,
      iden: other.order.iden,
    });
    expect(open.status).toBe('pending');
  });

  it('refuses a page or a choice with a wrong signature', async () => {
    const { order } = await newOrder();
    expect((await fetch(`${t.url}/api/pay/default/${order.iden}?sig=${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/pay/default/${order.iden}`)).status).toBe(404);
    expect((await form(`${t.url}/api/pay/default/${order.iden}`, { sig: 'bad', action: 'pay' })).status).toBe(400);
    const status = await ok<{ status: string }>(t, '/api/store/orderStatus', { token: buyer.token, iden: order.iden });
    expect(status.status).toBe('pending');
  });

  it('refuses notifications that are not signed by the server, name another amount, or another provider', async () => {
    const { order } = await newOrder();
    const provider = new DefaultProvider(t.ctx.config);
    const good = provider.signNotification({
      eventId: `e-${order.iden}`,
      orderId: order.iden,
      outcome: 'paid',
      amount: order.total.amount,
      currency: order.total.currency,
    });
    expect(await post(t, '/api/payments/notify/default', { ...good, signature: 'f'.repeat(64) })).toEqual({
      code: 910,
      reason: 'signature',
    });
    const cheap = provider.signNotification({
      eventId: 'cheap',
      orderId: order.iden,
      outcome: 'paid',
      amount: 1,
      currency: 'USD',
    });
    expect(await post(t, '/api/payments/notify/default', cheap)).toEqual({ code: 910, reason: 'amount_mismatch' });
    expect(await post(t, '/api/payments/notify/card', good)).toEqual({ code: 904, parameter: 'provider' });
    expect(await post(t, '/api/payments/notify/nowhere', good)).toMatchObject({ code: 907, parameter: 'provider' });
    const stray = provider.signNotification({
      eventId: 'stray',
      orderId: 'no-order',
      outcome: 'paid',
      amount: 1,
      currency: 'USD',
    });
    expect(await post(t, '/api/payments/notify/default', stray)).toEqual({ code: 904, parameter: 'iden' });
    expect(await post(t, '/api/payments/notify/default', good)).toMatchObject({
      code: 900,
      data: { status: 'paid', applied: true },
    });
  });
});
