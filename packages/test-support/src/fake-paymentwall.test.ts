import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PingbackResult, type WidgetInput, ipAllowList, readPingback, widgetUrl } from '@till/server/testing';
import { FakePaymentwall } from './fake-paymentwall.js';

const PROJECT_KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const SECRET = 'b6f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5';

describe('fake Paymentwall', () => {
  const fake = new FakePaymentwall({ projectKey: PROJECT_KEY, secretKey: SECRET });
  let receiver: Server;
  let widgetBase: string;
  // What the pingback receiver read from each request, verified with the provider's own reader.
  let received: PingbackResult[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const result = readPingback((req.url ?? '').split('?')[1] ?? '', req.socket.remoteAddress ?? '', {
        secretKey: SECRET,
        allow: ipAllowList(['127.0.0.1']),
      });
      received.push(result);
      res.writeHead(result.ok ? 200 : 400, { 'content-type': 'text/plain' }).end(result.ok ? 'OK' : result.reason);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    fake.pingbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/pingback/paymentwall`;
    widgetBase = await fake.start();
  });
  afterAll(async () => {
    await fake.close();
    await new Promise((resolve) => receiver.close(resolve));
  });
  beforeEach(() => {
    received = [];
  });

  const order = (): WidgetInput => ({
    projectKey: PROJECT_KEY,
    secretKey: SECRET,
    uid: 'user-7',
    widget: 'p1_1',
    orderId: 'ord_42',
    name: 'Credits <100>',
    price: { amount: 1999, currency: 'USD' },
    successUrl: 'https://till.example/orders/ord_42',
    baseUrl: widgetBase,
  });
  const submit = (call: string, action: string) =>
    fetch(`${new URL(widgetBase).origin}/api/subscription/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ call, action }).toString(),
      redirect: 'manual',
    });
  const hiddenCall = (html: string) => {
    const m = /name="call" value="([^"]*)"/.exec(html);
    return (m?.[1] ?? '').replace(/&#38;/g, '&');
  };

  it('serves the widget at the Digital Goods path, with the amount and plain Pay and Decline buttons', async () => {
    expect(widgetBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/subscription$/);
    const res = await fetch(widgetUrl(order()));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('19.99 USD');
    expect(html).toContain('Credits &#60;100&#62;');
    expect(html).toContain('<form method="post"');
    expect(html).toContain('value="pay">Pay</button>');
    expect(html).toContain('value="decline">Decline</button>');
    expect(html).not.toContain('<script');
  });

  it('refuses widget calls that another key signed or that were changed', async () => {
    const other = await fetch(widgetUrl({ ...order(), secretKey: 'another secret' }));
    expect(other.status).toBe(400);
    const url = new URL(widgetUrl(order()));
    url.searchParams.set('amount', '0.01');
    expect((await fetch(url)).status).toBe(400);
    expect((await fetch(widgetUrl({ ...order(), projectKey: 'another project' }))).status).toBe(400);
    expect((await fetch(widgetBase)).status).toBe(400);
  });

  it('pays: sends a signed pingback for the order, then sends the buyer to success_url', async () => {
    const html = await (await fetch(widgetUrl({ ...order(), subscription: { period: 'P1M' } }))).text();
    const res = await submit(hiddenCall(html), 'pay');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://till.example/orders/ord_42');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      ok: true,
      event: {
        type: 0,
        uid: 'user-7',
        goodsId: 'ord_42',
        slength: 1,
        speriod: 'month',
        amountMinor: 1999,
        currency: 'USD',
        signVersion: 3,
      },
    });
    const sent = fake.pingbacks.at(-1)!;
    expect(sent).toMatchObject({ status: 200, body: 'OK' });
    expect(Object.keys(sent.params)).toEqual(
      expect.arrayContaining(['uid', 'goodsid', 'slength', 'speriod', 'type', 'ref', 'sign_version', 'sig']),
    );
    expect(sent.params['ref']).toMatch(/^b\d{10}$/);
  });

  it('declines without a pingback, and refuses a changed form', async () => {
    const call = hiddenCall(await (await fetch(widgetUrl(order()))).text());
    const declined = await submit(call, 'decline');
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain('Payment declined');
    expect((await submit(call.replace('amount=19.99', 'amount=0.01'), 'pay')).status).toBe(400);
    expect((await submit(call, 'refund')).status).toBe(400);
    expect(received).toHaveLength(0);
  });

  it('sends pingbacks by hand: any type and ref, answering what the server answered', async () => {
    const chargeback = await fake.sendPingback({ type: 2, uid: 'user-7', goodsid: 'ord_42', ref: 'b77', reason: '1' });
    expect(chargeback).toEqual({ status: 200, body: 'OK' });
    expect(received[0]).toMatchObject({ ok: true, event: { type: 2, ref: 'b77', reason: 1, eventId: 'b77_2' } });
    const v2 = await fake.sendPingback({ type: 1, uid: 'u', goodsid: 'g', signVersion: 2 });
    expect(v2).toEqual({ status: 200, body: 'OK' });
    expect(received[1]).toMatchObject({ ok: true, event: { type: 1, signVersion: 2 } });
    const forged = await fake.sendPingback({ type: 0, uid: 'u', goodsid: 'g', secretKey: 'another secret' });
    expect(forged).toEqual({ status: 400, body: 'signature' });
  });
});
