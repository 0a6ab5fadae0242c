import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { parseAmount } from './amount.js';
import {
  type Params,
  type ParamValue,
  type SignVersion,
  parseQuery,
  readSignVersion,
  verifyPingbackSignature,
} from './signature.js';
import type { PeriodType } from './widget.js';

/**
 * A Digital Goods pingback: Paymentwall's HTTP GET to the project's pingback URL, to be answered
 * with the body `OK` once handled (anything else and Paymentwall sends it again every 30 minutes).
 *
 * Parameters read (all of them are covered by `sig`):
 * - `uid`: the widget call's `uid`, the buyer.
 * - `goodsid`: the widget call's `ag_external_id`, the order.
 * - `type`: what happened, see {@link PingbackType}.
 * - `ref`: Paymentwall's transaction reference. A chargeback repeats its payment's `ref` with
 *   `type=2`, and every renewal of a subscription has a `ref` of its own, so `ref` and `type`
 *   together name one event.
 * - `slength`, `speriod`: a subscription's period (`1`, `month`); `0`, empty or absent for a one-off.
 * - `sign_version`, `sig`: the signature, version 2 or 3.
 * - `is_test`: `1` for the test pingback tool and test payment methods only.
 * - `reason`: why a negative pingback (`type=2`) was sent, Paymentwall's reason code.
 * - `amount`, `currencyCode`: not in the default pingback; custom pingback parameters the project
 *   is set up to send (Project > Settings > Custom Pingback Parameters) with the amount charged in
 *   major units and its currency, so the payment can be checked against the order.
 * Any other parameter is kept in `params`.
 */

/** Pingback `type` values (Paymentwall's libraries and docs). */
export const PingbackType = {
  /** A payment, a subscription's first payment or one of its renewals: deliver. */
  payment: 0,
  /** Credit given by Paymentwall's customer service: deliver. */
  goodwill: 1,
  /** Refund or chargeback of the payment with the same `ref`: take the goods back. */
  negative: 2,
  subscriptionCancelled: 12,
  subscriptionExpired: 13,
  subscriptionPaymentFailed: 14,
  /** Held for a risk review: wait for 201 or 202. */
  riskUnderReview: 200,
  riskAccepted: 201,
  riskDeclined: 202,
  riskAuthorizationVoided: 203,
} as const;

/** Types after which the goods are delivered. */
export const isDeliverable = (type: number): boolean =>
  type === PingbackType.payment || type === PingbackType.goodwill || type === PingbackType.riskAccepted;

/** Types after which the goods are taken back. */
export const isCancelable = (type: number): boolean =>
  type === PingbackType.negative || type === PingbackType.riskDeclined;

export interface PingbackEvent {
  type: number;
  uid: string;
  goodsId: string;
  ref: string;
  /** `ref` and `type` together: the key under which the event is applied once. */
  eventId: string;
  /** Subscription period length; 0 for a one-off purchase. */
  slength: number;
  speriod?: PeriodType;
  /** The amount as sent, in major units. */
  amount?: string;
  /** `amount` in minor units of `currency`; absent unless both were sent and the amount fits the currency's decimals. */
  amountMinor?: number;
  currency?: string;
  reason?: number;
  isTest: boolean;
  signVersion: SignVersion;
  /** Every parameter that was signed, for custom pingback parameters. */
  params: Params;
}

export type PingbackFailure = 'signature' | 'address' | 'malformed';

export type PingbackResult = { ok: true; event: PingbackEvent } | { ok: false; reason: PingbackFailure };

/** Paymentwall's published pingback sources (docs "Pingback Security" and its libraries' lists). */
export const PAYMENTWALL_PINGBACK_IPS: readonly string[] = [
  '174.36.92.186',
  '174.36.96.66',
  '174.36.92.187',
  '174.36.92.192',
  '174.37.14.28',
  '216.127.71.0/24',
];

export interface IpAllowList {
  allows(address: string): boolean;
}

const MAPPED_DOTTED = /^(?:0{0,4}:){5}ffff:(\d{1,3}(?:\.\d{1,3}){3})$|^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * An IPv4 address written as IPv6 (`::ffff:174.36.92.186`, `::ffff:ae24:5cba`), which a dual-stack
 * socket reports for IPv4 peers, as the IPv4 address it is; any other address unchanged. The list
 * compares addresses in this form itself rather than rely on `BlockList`'s own handling of mapped
 * addresses, which Node.js does not document.
 */
export function unmapIPv4(address: string): string {
  if (!isIPv6(address)) return address;
  const dotted = MAPPED_DOTTED.exec(address);
  if (dotted) return dotted[1] ?? dotted[2] ?? address;
  const groups = expandIPv6(address);
  if (groups === undefined || groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return address;
  const [hi = 0, lo = 0] = groups.slice(6);
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

function expandIPv6(address: string): number[] | undefined {
  if (address.includes('.') || address.includes('%')) return undefined;
  const [head = '', tail, ...rest] = address.split('::');
  if (rest.length > 0) return undefined;
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return undefined;
  return [...left, ...new Array<number>(fill).fill(0), ...right];
}

/**
 * An allow list of single addresses and CIDR ranges, IPv4 and IPv6 (`174.36.92.186`,
 * `216.127.71.0/24`, `2001:db8::/32`); `*` allows any address. An entry that is not an address or a
 * range throws, so a mistyped list stops the start instead of refusing every pingback.
 */
export function ipAllowList(entries: readonly string[] = PAYMENTWALL_PINGBACK_IPS): IpAllowList {
  const list = new BlockList();
  let any = false;
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '*') {
      any = true;
      continue;
    }
    const [address = '', prefix, ...rest] = entry.split('/');
    const ip = unmapIPv4(address);
    const family = isIPv4(ip) ? 'ipv4' : isIPv6(ip) ? 'ipv6' : undefined;
    if (family === undefined || rest.length > 0 || ip.includes('%'))
      throw new RangeError(`not an address or a range: ${raw}`);
    if (prefix === undefined) {
      list.addAddress(ip, family);
      continue;
    }
    const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!(bits >= 0 && bits <= (family === 'ipv4' ? 32 : 128)) || ip !== address)
      throw new RangeError(`not an address or a range: ${raw}`);
    list.addSubnet(ip, bits, family);
  }
  return {
    allows(address: string): boolean {
      if (any) return true;
      const ip = unmapIPv4(address.trim());
      if (isIPv4(ip)) return list.check(ip, 'ipv4');
      return isIPv6(ip) && !ip.includes('%') && list.check(ip, 'ipv6');
    },
  };
}

/** Reads `PAYMENTWALL_PINGBACK_IPS`-style text: comma-separated entries, empty for Paymentwall's list. */
export function parseIpList(text: string | undefined): readonly string[] {
  const entries = (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  return entries.length > 0 ? entries : PAYMENTWALL_PINGBACK_IPS;
}

export interface PingbackOptions {
  secretKey: string;
  /** Default: Paymentwall's published addresses. */
  allow?: IpAllowList;
}

const INTEGER = /^(0|[1-9]\d{0,8})$/;
const PERIOD_TYPES: readonly string[] = ['day', 'week', 'month', 'year'];
const REQUIRED = ['uid', 'goodsid', 'type', 'ref', 'sig'] as const;

const text = (value: ParamValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Checks a pingback and reads its event. `query` is the raw query string (preferred: it keeps
 * `name[key]` parameters exactly as sent) or the parsed query object; `address` is the sender's IP.
 * The sender is checked first, then the parameters' shape, then the signature; nothing from the
 * parameters is trusted before the signature verifies.
 */
export function readPingback(
  query: Parameters<typeof parseQuery>[0],
  address: string,
  options: PingbackOptions,
): PingbackResult {
  const allow = options.allow ?? defaultAllowList;
  if (!allow.allows(address)) return { ok: false, reason: 'address' };
  const params = parseQuery(query);
  if (params === undefined) return { ok: false, reason: 'malformed' };
  for (const name of REQUIRED) {
    const value = text(params[name]);
    if (value === undefined || value === '') return { ok: false, reason: 'malformed' };
  }
  const signVersion = readSignVersion(params['sign_version']);
  if (signVersion === undefined) return { ok: false, reason: 'signature' };
  if (!verifyPingbackSignature(params, options.secretKey)) return { ok: false, reason: 'signature' };

  const type = text(params['type']) ?? '';
  const slength = text(params['slength']) ?? '';
  const speriod = text(params['speriod']) ?? '';
  const reason = text(params['reason']);
  const amount = text(params['amount']);
  const currency = text(params['currencyCode']);
  if (!INTEGER.test(type)) return { ok: false, reason: 'malformed' };
  if (slength !== '' && !INTEGER.test(slength)) return { ok: false, reason: 'malformed' };
  if (speriod !== '' && !PERIOD_TYPES.includes(speriod)) return { ok: false, reason: 'malformed' };
  if (reason !== undefined && reason !== '' && !INTEGER.test(reason)) return { ok: false, reason: 'malformed' };

  const uid = text(params['uid']) ?? '';
  const goodsId = text(params['goodsid']) ?? '';
  const ref = text(params['ref']) ?? '';
  const event: PingbackEvent = {
    type: Number(type),
    uid,
    goodsId,
    ref,
    eventId: `${ref}_${type}`,
    slength: slength === '' ? 0 : Number(slength),
    isTest: text(params['is_test']) === '1',
    signVersion,
    params,
  };
  if (speriod !== '') event.speriod = speriod as PeriodType;
  if (reason !== undefined && reason !== '') event.reason = Number(reason);
  if (amount !== undefined && amount !== '') event.amount = amount;
  if (currency !== undefined && currency !== '') event.currency = currency;
  if (amount !== undefined && currency !== undefined) {
    const minor = parseAmount(amount, currency);
    if (minor !== undefined) event.amountMinor = minor;
  }
  return { ok: true, event };
}

const defaultAllowList = ipAllowList(PAYMENTWALL_PINGBACK_IPS);
