import * as paymentwall from 'paymentwall';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  PAYMENTWALL_PINGBACK_IPS,
  PingbackType,
  ipAllowList,
  isCancelable,
  isDeliverable,
  parseIpList,
  readPingback,
  unmapIPv4,
} from './pingback.js';
import { type Params, pingbackSignature, toSearchParams } from './signature.js';

const SECRET = 'b6f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5';
const PAYMENTWALL_IP = '174.36.92.186';

const fields = {
  uid: 'user-7',
  goodsid: 'ord_42',
  slength: '0',
  speriod: '',
  type: '0',
  ref: 'b1493096790',
  amount: '19.99',
  currencyCode: 'USD',
};

/** A pingback signed by the reference library, as a query string. */
function signedByLibrary(params: Record<string, string> = fields, version: 2 | 3 = 3, secret = SECRET): string {
  const withVersion = { ...params, sign_version: String(version) };
  const sig = paymentwall.PingbackSignature.calculateSignature({ ...withVersion }, secret, version);
  return new URLSearchParams({ ...withVersion, sig }).toString();
}

/** Changes one parameter of a signed query string and keeps its signature. */
function tamper(query: string, name: string, value: string): string {
  const search = new URLSearchParams(query);
  search.set(name, value);
  return search.toString();
}

const read = (query: Parameters<typeof readPingback>[0], ip = PAYMENTWALL_IP) =>
  readPingback(query, ip, { secretKey: SECRET });

describe('paywall pingback', () => {
  beforeAll(() => paymentwall.Configure(paymentwall.Base.API_GOODS, 'project-key', SECRET));

  it.each([2, 3] as const)('reads a payment signed by the library with version %i', (version) => {
    const query = signedByLibrary(fields, version);
    // The library accepts what it signed: the fixture is a real pingback, not only our own idea of one.
    expect(new paymentwall.Pingback(query, PAYMENTWALL_IP).validate()).toBe(true);
    const result = read(query);
    expect(result).toEqual({
      ok: true,
      event: {
        type: 0,
        uid: 'user-7',
        goodsId: 'ord_42',
        ref: 'b1493096790',
        eventId: 'b1493096790_0',
        slength: 0,
        amount: '19.99',
        amountMinor: 1999,
        currency: 'USD',
        isTest: false,
        signVersion: version,
        params: expect.objectContaining({ ...fields, sign_version: String(version) }),
      },
    });
  });

  it('takes the parsed query object too', () => {
    const parsed = Object.fromEntries(new URLSearchParams(signedByLibrary()));
    expect(read(parsed)).toMatchObject({ ok: true, event: { ref: 'b1493096790' } });
    expect(read(new URLSearchParams(signedByLibrary()))).toMatchObject({ ok: true });
  });

  it('refuses tampered pingbacks and other secrets', () => {
    const query = signedByLibrary();
    expect(read(tamper(query, 'amount', '1.99'))).toEqual({ ok: false, reason: 'signature' });
    expect(read(tamper(query, 'ref', 'b1493096791'))).toEqual({ ok: false, reason: 'signature' });
    expect(read(tamper(query, 'type', '2'))).toEqual({ ok: false, reason: 'signature' });
    expect(read(tamper(query, 'goodsid', 'ord_43'))).toEqual({ ok: false, reason: 'signature' });
    expect(read(tamper(query, 'sign_version', '2'))).toEqual({ ok: false, reason: 'signature' });
    expect(read(`${query}&is_test=1`)).toEqual({ ok: false, reason: 'signature' });
    expect(read(signedByLibrary(fields, 3, 'another secret'))).toEqual({ ok: false, reason: 'signature' });
    expect(read(signedByLibrary(fields, 2, 'another secret'))).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses version 1 and pingbacks without a version', () => {
    const query = new URLSearchParams(signedByLibrary());
    query.delete('sign_version');
    expect(read(query)).toEqual({ ok: false, reason: 'signature' });
    expect(read(tamper(signedByLibrary(), 'sign_version', '1'))).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses pingbacks missing what every pingback has, or ambiguous ones', () => {
    for (const name of ['uid', 'goodsid', 'type', 'ref']) {
      const { [name as keyof typeof fields]: _, ...rest } = fields;
      expect(read(signedByLibrary(rest)), name).toEqual({ ok: false, reason: 'malformed' });
      expect(read(signedByLibrary({ ...fields, [name]: '' })), name).toEqual({ ok: false, reason: 'malformed' });
    }
    const query = new URLSearchParams(signedByLibrary());
    query.delete('sig');
    expect(read(query)).toEqual({ ok: false, reason: 'malformed' });
    expect(read(`${signedByLibrary()}&ref=b2`)).toEqual({ ok: false, reason: 'malformed' });
    expect(read({ ...Object.fromEntries(new URLSearchParams(signedByLibrary())), ref: ['a', 'b'] })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses signed pingbacks whose values cannot be read', () => {
    expect(read(signedByLibrary({ ...fields, type: 'zero' }))).toEqual({ ok: false, reason: 'malformed' });
    expect(read(signedByLibrary({ ...fields, slength: '-1' }))).toEqual({ ok: false, reason: 'malformed' });
    expect(read(signedByLibrary({ ...fields, speriod: 'fortnight' }))).toEqual({ ok: false, reason: 'malformed' });
  });

  it('reads chargebacks, goodwill credits and subscription renewals', () => {
    const chargeback = read(signedByLibrary({ ...fields, type: '2', reason: '2' }));
    expect(chargeback).toMatchObject({ ok: true, event: { type: 2, reason: 2, eventId: 'b1493096790_2' } });
    const goodwill = read(signedByLibrary({ ...fields, type: '1', is_test: '1' }));
    expect(goodwill).toMatchObject({ ok: true, event: { type: 1, isTest: true } });
    const renewal = read(signedByLibrary({ ...fields, ref: 'b2', slength: '1', speriod: 'month' }, 2));
    expect(renewal).toMatchObject({ ok: true, event: { type: 0, slength: 1, speriod: 'month', ref: 'b2' } });
    expect(isDeliverable(PingbackType.payment) && isDeliverable(PingbackType.goodwill)).toBe(true);
    expect(isDeliverable(PingbackType.negative) || isDeliverable(PingbackType.riskUnderReview)).toBe(false);
    expect(isCancelable(PingbackType.negative) && isCancelable(PingbackType.riskDeclined)).toBe(true);
    expect(isCancelable(PingbackType.payment)).toBe(false);
  });

  it('leaves amountMinor out when the amount cannot be read exactly for its currency', () => {
    const odd = read(signedByLibrary({ ...fields, amount: '19.999' }));
    expect(odd).toMatchObject({ ok: true, event: { amount: '19.999' } });
    expect(odd.ok && 'amountMinor' in odd.event).toBe(false);
    const yen = read(signedByLibrary({ ...fields, amount: '500', currencyCode: 'JPY' }));
    expect(yen).toMatchObject({ ok: true, event: { amountMinor: 500, currency: 'JPY' } });
  });

  it('verifies list parameters as Paymentwall signs them', () => {
    const params: Params = { ...fields, goodsid: ['ord_42', 'ord_43'], sign_version: '3' };
    const sig = paymentwall.PingbackSignature.calculateSignature(structuredClone(params) as never, SECRET, 3);
    expect(pingbackSignature(params, SECRET, 3)).toBe(sig);
    const query = toSearchParams({ ...params, uid: 'u', sig: pingbackSignature({ ...params, uid: 'u' }, SECRET, 3) });
    // A list of products is not a Digital Goods pingback's goodsid: signed, but not one order.
    expect(read(query)).toEqual({ ok: false, reason: 'malformed' });
    // Flat names with brackets, as a parser that knows no lists would give them, read as the same map.
    const custom = { ...fields, 'extra[a]': '1', 'extra[b]': '2' };
    expect(read(signedByLibrary(custom))).toMatchObject({ ok: true, event: { params: { extra: { a: '1', b: '2' } } } });
    const nested: Params = { ...fields, extra: { a: '1', b: '2' }, sign_version: '3' };
    const nestedQuery = toSearchParams({ ...nested, sig: pingbackSignature(nested, SECRET, 3) });
    expect(read(nestedQuery)).toMatchObject({ ok: true, event: { params: { extra: { a: '1', b: '2' } } } });
  });

  it('checks the sender against Paymentwall’s addresses by default', () => {
    const query = signedByLibrary();
    for (const ip of ['174.36.92.186', '174.36.96.66', '174.36.92.187', '174.36.92.192', '174.37.14.28'])
      expect(read(query, ip).ok, ip).toBe(true);
    for (const ip of ['216.127.71.0', '216.127.71.1', '216.127.71.255', '::ffff:216.127.71.9'])
      expect(read(query, ip).ok, ip).toBe(true);
    for (const ip of ['127.0.0.1', '216.127.72.1', '216.127.70.255', '174.36.92.188', '::1', '', 'localhost'])
      expect(read(query, ip), ip).toEqual({ ok: false, reason: 'address' });
    // The address is checked before anything else: an outsider learns nothing about the parameters.
    expect(read('uid=x', '10.0.0.1')).toEqual({ ok: false, reason: 'address' });
    expect(PAYMENTWALL_PINGBACK_IPS).toContain('216.127.71.0/24');
  });

  it('allows single addresses and IPv4 and IPv6 ranges', () => {
    const list = ipAllowList(['10.1.2.3', '192.168.0.0/16', '2001:db8::/32', 'fe80::1']);
    expect(list.allows('10.1.2.3')).toBe(true);
    expect(list.allows('10.1.2.4')).toBe(false);
    expect(list.allows('192.168.200.7')).toBe(true);
    expect(list.allows('192.169.0.1')).toBe(false);
    expect(list.allows('2001:db8:1::5')).toBe(true);
    expect(list.allows('2001:0DB8:0:0:0:0:0:1')).toBe(true);
    expect(list.allows('2001:db9::1')).toBe(false);
    expect(list.allows('fe80::1')).toBe(true);
    expect(list.allows('fe80::2')).toBe(false);
    expect(list.allows('fe80::1%eth0')).toBe(false);
    expect(list.allows('not an address')).toBe(false);
  });

  it('reads IPv4 addresses written as IPv6 as the IPv4 address they are', () => {
    const list = ipAllowList([PAYMENTWALL_IP, '216.127.71.0/24']);
    expect(list.allows('::ffff:174.36.92.186')).toBe(true);
    expect(list.allows('::FFFF:174.36.92.186')).toBe(true);
    expect(list.allows('0:0:0:0:0:ffff:174.36.92.186')).toBe(true);
    expect(list.allows('::ffff:ae24:5cba')).toBe(true);
    expect(list.allows('::ffff:d87f:4701')).toBe(true);
    expect(list.allows('::ffff:174.36.92.185')).toBe(false);
    expect(list.allows('::174.36.92.186')).toBe(false);
    expect(list.allows('64:ff9b::174.36.92.186')).toBe(false);
    expect(unmapIPv4('::ffff:ae24:5cba')).toBe('174.36.92.186');
    expect(unmapIPv4('2001:db8::1')).toBe('2001:db8::1');
    expect(ipAllowList(['::ffff:10.0.0.1']).allows('10.0.0.1')).toBe(true);
  });

  it('allows any sender with *, but never skips the signature', () => {
    const any = ipAllowList(['*']);
    expect(any.allows('203.0.113.9')).toBe(true);
    expect(any.allows('::1')).toBe(true);
    const query = signedByLibrary();
    expect(readPingback(query, '127.0.0.1', { secretKey: SECRET, allow: any }).ok).toBe(true);
    expect(readPingback(tamper(query, 'amount', '0.01'), '127.0.0.1', { secretKey: SECRET, allow: any })).toEqual({
      ok: false,
      reason: 'signature',
    });
  });

  it('refuses allow lists it cannot read', () => {
    for (const bad of [
      'nope',
      '10.0.0.0/33',
      '2001:db8::/129',
      '10.0.0.0/',
      '10.0.0.0/8/8',
      '10.0.0.0/-1',
      'fe80::1%eth0',
    ])
      expect(() => ipAllowList([bad]), bad).toThrow(RangeError);
  });

  it('reads comma-separated allow lists, empty meaning Paymentwall’s', () => {
    expect(parseIpList(' 10.0.0.1 , 10.1.0.0/16,')).toEqual(['10.0.0.1', '10.1.0.0/16']);
    expect(parseIpList('')).toBe(PAYMENTWALL_PINGBACK_IPS);
    expect(parseIpList(undefined)).toBe(PAYMENTWALL_PINGBACK_IPS);
    expect(parseIpList('*')).toEqual(['*']);
  });
});
