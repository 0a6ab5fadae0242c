import { createHash } from 'node:crypto';
import * as paymentwall from 'paymentwall';
import { describe, expect, it } from 'vitest';
import {
  type Params,
  parseQuery,
  pingbackSignature,
  readSignVersion,
  signaturesEqual,
  signedText,
  toSearchParams,
  verifyPingbackSignature,
  verifyWidgetSignature,
  widgetSignature,
} from './signature.js';

const SECRET = 'b6f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5';

// The library mutates what it is given (it deletes and puts back `sig`): give it a copy.
const copy = (params: Params): Record<string, never> => structuredClone(params) as Record<string, never>;
const library = {
  widget: (params: Params, version: 2 | 3) =>
    paymentwall.WidgetSignature.calculateSignature(copy(params), SECRET, version),
  pingback: (params: Params, version: 2 | 3) =>
    paymentwall.PingbackSignature.calculateSignature(copy(params), SECRET, version),
};

const twelve = Array.from({ length: 12 }, (_, i) => `item-${i}`);

const cases: [string, Params][] = [
  [
    'a one-off purchase',
    {
      key: 'f1e2d3c4b5a6',
      uid: 'user-7',
      widget: 'p1_1',
      amount: '19.99',
      currencyCode: 'USD',
      ag_name: '100 credits & a mug',
      ag_external_id: 'ord_42',
      ag_type: 'fixed',
      success_url: 'https://till.example/orders/ord_42?x=1',
      sign_version: '3',
    },
  ],
  [
    'a subscription',
    {
      key: 'f1e2d3c4b5a6',
      uid: 'user-7',
      widget: 'p1_1',
      amount: '500',
      currencyCode: 'JPY',
      ag_name: 'Monthly',
      ag_external_id: 'ord_43',
      ag_type: 'subscription',
      ag_period_length: '3',
      ag_period_type: 'month',
      ag_recurring: '1',
      sign_version: '2',
    },
  ],
  ['lists and maps, with more than ten entries', { uid: 'u', b: twelve, a: { z: '1', b: '2', A: '3' }, c: ['x', ''] }],
  ['empty values and upper-case names', { uid: '', Zeta: 'z', alpha: '', Alpha: 'A', _x: 'u', ünï: 'ç' }],
];

describe('paywall signature', () => {
  it.each(cases)('signs %s as the paymentwall library does, in versions 2 and 3', (_, params) => {
    for (const version of [2, 3] as const) {
      const ours = widgetSignature(params, SECRET, version);
      expect(ours).toBe(library.widget(params, version));
      expect(ours).toHaveLength(version === 2 ? 32 : 64);
      expect(pingbackSignature(params, SECRET, version)).toBe(library.pingback(params, version));
    }
  });

  it('writes the signed text as sorted name=value pairs with lists flattened, then hashes it with the secret', () => {
    const params: Params = { uid: 'u1', goodsid: ['b', 'a'], type: '0', ref: 'r1', sig: 'ignored', speriod: '' };
    const text = 'goodsid[0]=bgoodsid[1]=aref=r1speriod=type=0uid=u1';
    expect(signedText(params, 'sig')).toBe(text);
    expect(pingbackSignature(params, SECRET, 2)).toBe(
      createHash('md5')
        .update(text + SECRET)
        .digest('hex'),
    );
    expect(pingbackSignature(params, SECRET, 3)).toBe(
      createHash('sha256')
        .update(text + SECRET)
        .digest('hex'),
    );
    // List keys sort as text, as in the reference library: 10 and 11 come before 2.
    expect(signedText({ l: twelve }, 'sig')).toMatch(
      /^l\[0\]=item-0l\[1\]=item-1l\[10\]=item-10l\[11\]=item-11l\[2\]=/,
    );
  });

  it('leaves out the signature itself and only it', () => {
    const params: Params = { uid: 'u1', ref: 'r1', sign_version: '3' };
    const sig = pingbackSignature(params, SECRET, 3);
    expect(pingbackSignature({ ...params, sig: 'anything' }, SECRET, 3)).toBe(sig);
    expect(pingbackSignature({ ...params, sign: 'anything' }, SECRET, 3)).not.toBe(sig);
    expect(widgetSignature({ ...params, sign: 'anything' }, SECRET, 3)).toBe(widgetSignature(params, SECRET, 3));
  });

  it('verifies pingbacks signed by the library and refuses tampered ones', () => {
    for (const version of ['2', '3']) {
      const sent: Params = {
        uid: 'user-7',
        goodsid: 'ord_42',
        slength: '0',
        speriod: '',
        type: '0',
        ref: 'b1493096790',
        amount: '19.99',
        currencyCode: 'USD',
        sign_version: version,
      };
      const signed = { ...sent, sig: library.pingback(sent, version === '2' ? 2 : 3) };
      expect(verifyPingbackSignature(signed, SECRET)).toBe(true);
      expect(verifyPingbackSignature({ ...signed, amount: '1.99' }, SECRET)).toBe(false);
      expect(verifyPingbackSignature({ ...signed, ref: 'b1493096791' }, SECRET)).toBe(false);
      expect(verifyPingbackSignature({ ...signed, type: '2' }, SECRET)).toBe(false);
      expect(verifyPingbackSignature({ ...signed, extra: '' }, SECRET)).toBe(false);
      expect(verifyPingbackSignature(signed, `${SECRET}x`)).toBe(false);
      expect(verifyPingbackSignature({ ...signed, sig: (signed.sig as string).toUpperCase() }, SECRET)).toBe(false);
      expect(verifyPingbackSignature({ ...signed, sig: '' }, SECRET)).toBe(false);
      expect(verifyPingbackSignature({ ...signed, sig: undefined }, SECRET)).toBe(false);
    }
  });

  it('refuses version 1 and unknown versions, even with a signature that matches under them', () => {
    const params: Params = { uid: 'user-7', goodsid: 'g', slength: '', speriod: '', type: '0', ref: 'r' };
    // Version 1: the MD5 of the fixed fields in their fixed order, which the library still accepts.
    const v1 = createHash('md5').update(`uid=user-7goodsid=gslength=speriod=type=0ref=r${SECRET}`).digest('hex');
    paymentwall.Configure(paymentwall.Base.API_GOODS, 'project-key', SECRET);
    expect(new paymentwall.Pingback({ ...params, sig: v1 }, '174.36.92.186').validate()).toBe(true);
    expect(verifyPingbackSignature({ ...params, sig: v1, sign_version: '1' }, SECRET)).toBe(false);
    expect(verifyPingbackSignature({ ...params, sig: v1 }, SECRET)).toBe(false);
    const v3 = pingbackSignature({ ...params, sign_version: '4' }, SECRET, 3);
    expect(verifyPingbackSignature({ ...params, sign_version: '4', sig: v3 }, SECRET)).toBe(false);
    expect(readSignVersion('3')).toBe(3);
    expect(readSignVersion('2')).toBe(2);
    for (const v of ['1', '03', ' 3', '', undefined, ['3']]) expect(readSignVersion(v)).toBeUndefined();
  });

  it('verifies a widget call by its sign and sign_version', () => {
    const params: Params = { key: 'k', uid: 'u', widget: 'p1_1', amount: '1.00', sign_version: '2' };
    const sign = library.widget(params, 2);
    expect(verifyWidgetSignature({ ...params, sign }, SECRET)).toBe(true);
    expect(verifyWidgetSignature({ ...params, sign, amount: '0.01' }, SECRET)).toBe(false);
    expect(verifyWidgetSignature({ ...params, sign, sign_version: '3' }, SECRET)).toBe(false);
    expect(verifyWidgetSignature({ ...params, sign: library.widget(params, 3) }, SECRET)).toBe(false);
  });

  it('compares signatures whole', () => {
    expect(signaturesEqual('abc', 'abc')).toBe(true);
    expect(signaturesEqual('abc', 'abd')).toBe(false);
    expect(signaturesEqual('abc', 'ab')).toBe(false);
    expect(signaturesEqual('abc', '')).toBe(false);
  });

  it('reads query strings with lists and maps, and refuses ambiguous ones', () => {
    const q = 'uid=u&goodsid%5B0%5D=a&goodsid%5B1%5D=b&m[x]=1&l[]=p&l[]=q&empty=&sp=a+b';
    expect(parseQuery(q)).toEqual({
      uid: 'u',
      goodsid: { 0: 'a', 1: 'b' },
      m: { x: '1' },
      l: { 0: 'p', 1: 'q' },
      empty: '',
      sp: 'a b',
    });
    expect(parseQuery(`?${q}`)).toEqual(parseQuery(q));
    expect(parseQuery({ uid: 'u', 'goodsid[0]': 'a', 'goodsid[1]': 'b' })).toEqual({
      uid: 'u',
      goodsid: { 0: 'a', 1: 'b' },
    });
    for (const bad of ['a=1&a=2', 'a=1&a[x]=2', 'a[x]=2&a=1', 'a[x][y]=1', 'a[x=1', 'a]=1', 'a[0]=1&a[]=2&a[1]=3'])
      expect(parseQuery(bad), bad).toBeUndefined();
    expect(parseQuery({ a: ['1', '2'] })).toBeUndefined();
    const proto = parseQuery('__proto__=x&constructor=y');
    expect(proto && Object.keys(proto)).toEqual(['__proto__', 'constructor']);
  });

  it('signs what it sends: a signed query read back verifies', () => {
    const params: Params = { uid: 'u 1', goodsid: ['a', 'b'], m: { k: 'v&w' }, sign_version: '3' };
    const search = toSearchParams({ ...params, sig: pingbackSignature(params, SECRET, 3) });
    expect(search.toString()).toContain('goodsid%5B1%5D=b');
    const read = parseQuery(search.toString());
    expect(read && verifyPingbackSignature(read, SECRET)).toBe(true);
  });
});
