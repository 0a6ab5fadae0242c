import { describe, expect, it } from 'vitest';
import { StoreClient } from './store-client.js';
import { fakeHttp } from './test-support/fake-http.js';

function store(loggedIn = true) {
  const http = fakeHttp(() => ({ body: { code: 900, data: {} } }));
  const client = new StoreClient({ storeHost: 'http://store.test', adapter: http.adapter });
  if (loggedIn) client.session.start({ token: 'tok', expire: 3600 });
  return { client, requests: http.requests };
}

describe('StoreClient', () => {
  it('calls the store host with a 5 s timeout', async () => {
    const { client, requests } = store();
    await client.getCoupon('WELCOME10');
    expect(requests[0]?.baseURL).toBe('http://store.test/');
    expect(requests[0]?.timeout).toBe(5_000);
    expect(requests[0]?.headers.get('Accept')).toBe('application/json');
  });

  it('sends each store call to its path with the payload the protocol fixes', async () => {
    const { client, requests } = store();
    await client.getCoupon('WELCOME10');
    await client.redeemCoupon('FREE100');
    await client.payWithCredits(['pro-unlock', { id: 'coins', quantity: 2 }], { note: 'gift' });
    await client.doCheckout({ products: ['pro-unlock', 'monthly'], couponCode: 'WELCOME10' });
    await client.doCheckout({ pastOrder: 'ord_1' });
    await client.doCheckout({ pastOrder: 'ord_1', provider: 'card' });
    await client.getCheckoutForm(['pro-unlock', 'monthly']);
    await client.getCheckoutForm();
    await client.validatePurchase({ platform: 'test', transactionId: 't1' });
    await client.orderStatus('ord_1');
    expect(requests.map((r) => [r.url, r.body])).toEqual([
      ['api/store/getCoupon', { token: 'tok', couponCode: 'WELCOME10' }],
      ['api/store/redeemCoupon', { token: 'tok', couponCode: 'FREE100' }],
      [
        'api/auth/payWithCredits',
        { token: 'tok', products: '["pro-unlock",{"id":"coins","quantity":2}]', dataObj: '{"note":"gift"}' },
      ],
      ['api/store/doCheckout', { token: 'tok', products: 'pro-unlock;monthly', couponCode: 'WELCOME10' }],
      // A past order goes alone: no products, no coupon.
      ['api/store/doCheckout', { token: 'tok', pastOrder: 'ord_1' }],
      // Paid another way: the route goes with it, still without products or coupon.
      ['api/store/doCheckout', { token: 'tok', pastOrder: 'ord_1', provider: 'card' }],
      ['api/store/getCheckoutForm', { token: 'tok', products: 'pro-unlock,monthly' }],
      ['api/store/getCheckoutForm', { token: 'tok', products: '' }],
      ['api/store/validatePurchase', { token: 'tok', transactionData: '{"platform":"test","transactionId":"t1"}' }],
      ['api/store/orderStatus', { token: 'tok', iden: 'ord_1' }],
    ]);
  });

  it('sends payWithCredits an empty dataObj when none is given', async () => {
    const { client, requests } = store();
    await client.payWithCredits(['pro-unlock']);
    expect(requests[0]?.body.dataObj).toBe('{}');
  });

  it('lets the checkout form go without a token while logged out', async () => {
    const { client, requests } = store(false);
    await client.getCheckoutForm(['a']);
    expect(requests.map((r) => [r.url, r.body])).toEqual([['api/store/getCheckoutForm', { products: 'a' }]]);
  });

  it('has the validator wait for a login, as it records the purchase for the user', async () => {
    const { client, requests } = store(false);
    const pending = client.validatePurchase('{"platform":"test"}', '/custom/validator');
    expect(requests).toHaveLength(0);
    client.session.start({ token: 'tok', expire: 3600 });
    await pending;
    expect(requests.map((r) => [r.url, r.body])).toEqual([
      ['custom/validator', { token: 'tok', transactionData: '{"platform":"test"}' }],
    ]);
  });

  it('parks token calls while logged out', async () => {
    const { client, requests } = store(false);
    const pending = client.redeemCoupon('FREE100');
    expect(requests).toHaveLength(0);
    client.session.start({ token: 'late', expire: 3600 });
    await pending;
    expect(requests[0]?.body).toEqual({ token: 'late', couponCode: 'FREE100' });
  });
});
