import * as paymentwall from 'paymentwall';
import { beforeAll, describe, expect, it } from 'vitest';
import { currencyDecimals, formatAmount, parseAmount } from './amount.js';
import { verifyWidgetSignature } from './signature.js';
import { PAYMENTWALL_WIDGET_URL, periodFromIso, type WidgetInput, widgetParams, widgetUrl } from './widget.js';

const PROJECT_KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const SECRET = 'b6f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5';

const base: WidgetInput = {
  projectKey: PROJECT_KEY,
  secretKey: SECRET,
  uid: 'user-7',
  widget: 'p1_1',
  orderId: 'ord_42',
  name: '100 credits',
  price: { amount: 1999, currency: 'USD' },
  successUrl: 'https://till.example/orders/ord_42',
};

const query = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('paywall widget URL', () => {
  beforeAll(() => paymentwall.Configure(paymentwall.Base.API_GOODS, PROJECT_KEY, SECRET));

  it.each([2, 3] as const)('equals the library’s URL for a one-off purchase, signature version %i', (version) => {
    const ours = widgetUrl({ ...base, signVersion: version });
    const product = new paymentwall.Product('ord_42', 19.99, 'USD', '100 credits', 'fixed');
    const theirs = new paymentwall.Widget('user-7', 'p1_1', [product], {
      success_url: base.successUrl,
      sign_version: version,
    }).getUrl();
    expect(ours.split('?')[0]).toBe(theirs.split('?')[0]);
    expect(query(ours)).toEqual(query(theirs));
    expect(query(ours)).toMatchObject({
      key: PROJECT_KEY,
      uid: 'user-7',
      widget: 'p1_1',
      amount: '19.99',
      currencyCode: 'USD',
      ag_name: '100 credits',
      ag_external_id: 'ord_42',
      ag_type: 'fixed',
      success_url: 'https://till.example/orders/ord_42',
      sign_version: String(version),
    });
    expect(query(ours)['sign']).toHaveLength(version === 2 ? 32 : 64);
  });

  it.each([
    ['P1M', 1, 'month', 2],
    ['P3M', 3, 'month', 3],
    ['P1Y', 1, 'year', 3],
    ['P2W', 2, 'week', 2],
    ['P30D', 30, 'day', 3],
  ] as const)('equals the library’s URL for a %s subscription', (period, length, type, version) => {
    const ours = widgetUrl({ ...base, subscription: { period }, signVersion: version });
    const product = new paymentwall.Product('ord_42', 19.99, 'USD', '100 credits', 'subscription', length, type, true);
    const theirs = new paymentwall.Widget('user-7', 'p1_1', [product], {
      success_url: base.successUrl,
      sign_version: version,
    }).getUrl();
    expect(query(ours)).toEqual(query(theirs));
    expect(query(ours)).toMatchObject({
      ag_type: 'subscription',
      ag_period_length: String(length),
      ag_period_type: type,
      ag_recurring: '1',
    });
  });

  it('sells a single period without ag_recurring, as the library does', () => {
    const ours = widgetUrl({ ...base, subscription: { period: 'P1M', recurring: false } });
    const product = new paymentwall.Product('ord_42', 19.99, 'USD', '100 credits', 'subscription', 1, 'month', false);
    const theirs = new paymentwall.Widget('user-7', 'p1_1', [product], { success_url: base.successUrl }).getUrl();
    expect(query(ours)).toEqual(query(theirs));
    expect(query(ours)).not.toHaveProperty('ag_recurring');
  });

  it('signs extra parameters, lists and maps included, as the library’s signature does', () => {
    for (const version of [2, 3] as const) {
      const extra = { email: 'buyer@example.com', tags: ['a', 'b', 'c'], meta: { z: '1', a: '' } };
      const url = widgetUrl({ ...base, signVersion: version, extra });
      const search = new URL(url).searchParams;
      expect(search.getAll('tags[1]')).toEqual(['b']);
      expect(search.get('meta[a]')).toBe('');
      const { sign, ...rest } = widgetParams({ ...base, signVersion: version, extra });
      expect(search.get('sign')).toBe(sign);
      expect(sign).toBe(paymentwall.WidgetSignature.calculateSignature(structuredClone(rest), SECRET, version));
    }
  });

  it('answers a URL whose signature verifies, and stops verifying when a parameter changes', () => {
    const url = new URL(widgetUrl(base));
    const params = Object.fromEntries(url.searchParams);
    expect(params['sign_version']).toBe('3');
    expect(verifyWidgetSignature(params, SECRET)).toBe(true);
    expect(verifyWidgetSignature({ ...params, amount: '0.01' }, SECRET)).toBe(false);
    expect(verifyWidgetSignature(params, 'another secret')).toBe(false);
  });

  it('goes to Paymentwall by default and to any other base address when told', () => {
    expect(widgetUrl(base).startsWith(`${PAYMENTWALL_WIDGET_URL}?`)).toBe(true);
    expect(PAYMENTWALL_WIDGET_URL).toBe('https://api.paymentwall.com/api/subscription');
    const local = widgetUrl({ ...base, baseUrl: 'http://127.0.0.1:4567/api/subscription' });
    expect(local.startsWith('http://127.0.0.1:4567/api/subscription?key=')).toBe(true);
    expect(() => widgetUrl({ ...base, baseUrl: 'http://127.0.0.1:4567/x?y=1' })).toThrow(RangeError);
  });

  it('writes the amount in major units with the currency’s decimals', () => {
    const amount = (amount: number, currency: string) =>
      query(widgetUrl({ ...base, price: { amount, currency } }))['amount'];
    expect(amount(1999, 'USD')).toBe('19.99');
    expect(amount(5, 'EUR')).toBe('0.05');
    expect(amount(500, 'JPY')).toBe('500');
    expect(amount(12345, 'KRW')).toBe('12345');
    expect(amount(1234, 'BHD')).toBe('1.234');
    expect(amount(0, 'USD')).toBe('0.00');
    expect(formatAmount({ amount: 100, currency: 'GBP' })).toBe('1.00');
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('USD')).toBe(2);
    expect(() => formatAmount({ amount: 1.5, currency: 'USD' })).toThrow(RangeError);
    expect(() => formatAmount({ amount: -1, currency: 'USD' })).toThrow(RangeError);
    expect(() => formatAmount({ amount: 1, currency: 'usd' })).toThrow(RangeError);
  });

  it('reads amounts in major units back to minor units, exactly or not at all', () => {
    expect(parseAmount('19.99', 'USD')).toBe(1999);
    expect(parseAmount('19.9', 'USD')).toBe(1990);
    expect(parseAmount('19.90', 'USD')).toBe(1990);
    expect(parseAmount('19', 'USD')).toBe(1900);
    expect(parseAmount('500', 'JPY')).toBe(500);
    expect(parseAmount('500.00', 'JPY')).toBe(500);
    expect(parseAmount('1.234', 'BHD')).toBe(1234);
    for (const [value, currency] of [
      ['19.999', 'USD'],
      ['500.5', 'JPY'],
      ['-1.00', 'USD'],
      ['1e3', 'USD'],
      ['', 'USD'],
      [' 1.00', 'USD'],
      ['1.00', 'usd'],
    ] as const)
      expect(parseAmount(value, currency), `${value} ${currency}`).toBeUndefined();
  });

  it('maps ISO 8601 periods of one unit and refuses the rest', () => {
    expect(periodFromIso('P1M')).toEqual({ length: 1, type: 'month' });
    expect(periodFromIso('P3M')).toEqual({ length: 3, type: 'month' });
    expect(periodFromIso('P1Y')).toEqual({ length: 1, type: 'year' });
    expect(periodFromIso('P2W')).toEqual({ length: 2, type: 'week' });
    expect(periodFromIso('P30D')).toEqual({ length: 30, type: 'day' });
    for (const bad of ['P0M', 'P1Y6M', 'PT1H', 'P1.5M', 'p1m', '1M', 'P', 'P-1M', ''])
      expect(() => periodFromIso(bad), bad).toThrow(RangeError);
    expect(() => widgetUrl({ ...base, subscription: { period: 'P1Y6M' } })).toThrow(RangeError);
  });

  it('refuses extra parameters that would replace the order’s own', () => {
    expect(() => widgetUrl({ ...base, extra: { amount: '0.01' } })).toThrow(RangeError);
    expect(() => widgetUrl({ ...base, extra: { sign: 'x' } })).toThrow(RangeError);
  });
});
