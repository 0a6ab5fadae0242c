import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Paymentwall's signature scheme, versions 2 (MD5) and 3 (SHA-256), for widget calls and pingbacks.
 *
 * The signed text is every parameter as `name=value`, names in ascending order, with no separator,
 * followed by the project's secret key. A parameter holding a list or a map (`goodsid[0]=a`) is
 * written as `name[key]=value` for each of its entries, the entries' keys sorted too. Values are
 * strings, as in a query string, so the reference library's habit of signing `0`, `false` and `null`
 * as empty text never comes into play. Version 1 (the MD5 of the user id alone for a widget, of six
 * fixed fields for a pingback) leaves the rest unsigned and is never accepted here.
 *
 * The order follows the reference Node.js library (`paymentwall` on npm): JavaScript's default sort,
 * by UTF-16 code units, for names and for the keys inside a list alike. For a list of more than ten
 * entries that puts `10` before `2`, where Paymentwall's PHP library orders list keys numerically;
 * nothing this server sends or reads has such a list.
 */

export type SignVersion = 2 | 3;
export const DEFAULT_SIGN_VERSION: SignVersion = 3;

/** A parameter as it travels in a query string: one value, or one level of `name[key]=value`. */
export type ParamValue = string | readonly string[] | Readonly<Record<string, string>>;

/** Parameters by name; an `undefined` entry is left out of both the signature and the query string. */
export type Params = Readonly<Record<string, ParamValue | undefined>>;

const byCodeUnit = (keys: string[]): string[] => keys.sort();

/** A list's entries keyed by index, a map's by key: both are written as `name[key]=value`. */
function entriesOf(value: readonly string[] | Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  return Array.isArray(value)
    ? Object.fromEntries(value.map((v, i) => [String(i), v]))
    : (value as Readonly<Record<string, string>>);
}

/** The text that is hashed, before the secret key is appended; `exclude` names the signature itself. */
export function signedText(params: Params, exclude: string): string {
  let text = '';
  for (const name of byCodeUnit(Object.keys(params))) {
    if (name === exclude) continue;
    const value = params[name];
    if (value === undefined) continue;
    if (typeof value === 'string') {
      text += `${name}=${value}`;
      continue;
    }
    const entries = entriesOf(value);
    for (const key of byCodeUnit(Object.keys(entries))) text += `${name}[${key}]=${entries[key] ?? ''}`;
  }
  return text;
}

function digest(text: string, secretKey: string, version: SignVersion): string {
  return createHash(version === 2 ? 'md5' : 'sha256')
    .update(text + secretKey, 'utf8')
    .digest('hex');
}

/** The `sign` of a widget call: every parameter but `sign` itself. */
export function widgetSignature(params: Params, secretKey: string, version: SignVersion): string {
  return digest(signedText(params, 'sign'), secretKey, version);
}

/** The `sig` of a pingback: every parameter Paymentwall sent but `sig` itself. */
export function pingbackSignature(params: Params, secretKey: string, version: SignVersion): string {
  return digest(signedText(params, 'sig'), secretKey, version);
}

/** `2` or `3` from a `sign_version` parameter; anything else (missing, `1`, `03`, a list) is refused. */
export function readSignVersion(value: ParamValue | undefined): SignVersion | undefined {
  if (value === '2') return 2;
  if (value === '3') return 3;
  return undefined;
}

/** Compares two signatures in time that depends only on their lengths, which are not secret. */
export function signaturesEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function verify(
  params: Params,
  secretKey: string,
  field: 'sign' | 'sig',
  sign: (params: Params, secretKey: string, version: SignVersion) => string,
): boolean {
  const version = readSignVersion(params['sign_version']);
  const given = params[field];
  if (version === undefined || typeof given !== 'string' || given === '') return false;
  return signaturesEqual(sign(params, secretKey, version), given);
}

/** Whether a widget call's `sign` matches its parameters under its own `sign_version` (2 or 3). */
export function verifyWidgetSignature(params: Params, secretKey: string): boolean {
  return verify(params, secretKey, 'sign', widgetSignature);
}

/** Whether a pingback's `sig` matches its parameters under its own `sign_version` (2 or 3). */
export function verifyPingbackSignature(params: Params, secretKey: string): boolean {
  return verify(params, secretKey, 'sig', pingbackSignature);
}

type Parsed = Record<string, string | Record<string, string>>;

const FLAT = /^[^[\]]+$/;
const NESTED = /^([^[\]]+)\[([^[\]]*)\]$/;

/**
 * Reads a query string the way Paymentwall's servers build and read them: `name[key]=value` is an
 * entry of the map `name`, `name[]=value` the next entry of a list. What cannot be read one way only
 * (a name given twice, a name both plain and a map, deeper nesting, a stray bracket) answers
 * `undefined`, since a signature over an ambiguous query proves nothing about what was meant.
 */
export function parseQuery(
  query: string | URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>,
): Params | undefined {
  const pairs: [string, string][] = [];
  if (typeof query === 'string' || query instanceof URLSearchParams) {
    const search = typeof query === 'string' ? new URLSearchParams(query.replace(/^\?/, '')) : query;
    for (const pair of search) pairs.push(pair);
  } else {
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      if (typeof value === 'string') pairs.push([name, value]);
      else for (const v of value) pairs.push([name, v]);
    }
  }
  // Null prototypes: names come from the sender and `__proto__` must stay a plain name.
  const out: Parsed = Object.create(null) as Parsed;
  for (const [name, value] of pairs) {
    if (FLAT.test(name)) {
      if (name in out) return undefined;
      out[name] = value;
      continue;
    }
    const m = NESTED.exec(name);
    if (!m) return undefined;
    const [, base = '', key = ''] = m;
    let entries = out[base];
    if (entries === undefined) {
      entries = Object.create(null) as Record<string, string>;
      out[base] = entries;
    }
    if (typeof entries === 'string') return undefined;
    const slot = key === '' ? String(Object.keys(entries).length) : key;
    if (slot in entries) return undefined;
    entries[slot] = value;
  }
  return out;
}

/** The query string for `params`: maps and lists as `name[key]=value`, as {@link parseQuery} reads them. */
export function toSearchParams(params: Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (typeof value === 'string') search.append(name, value);
    else for (const [key, v] of Object.entries(entriesOf(value))) search.append(`${name}[${key}]`, v);
  }
  return search;
}
