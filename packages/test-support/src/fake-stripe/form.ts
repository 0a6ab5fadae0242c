/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracketed keys, as the
 * `stripe` library and curl write them: `line_items[0][price_data][unit_amount]=499`,
 * `metadata[iden]=x`, `expand[0]=a` or `expand[]=a`.
 */

export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

/** A parameter name the form cannot be read under; answered as Stripe's 400 for that param. */
export class FormError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

// Hashes whose keys are the caller's own: `metadata[0]=x` is a key named "0", not an array.
const FREE_FORM_HASHES = new Set(['metadata']);
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

function splitKey(raw: string): string[] {
  const m = KEY.exec(raw);
  if (!m?.[1]) throw new FormError(raw, `Invalid parameter name: ${raw}`);
  const segments = [m[1]];
  for (const inner of (m[2] ?? '').matchAll(/\[([^[\]]*)\]/g)) segments.push(inner[1] ?? '');
  for (const s of segments) if (FORBIDDEN_KEYS.has(s)) throw new FormError(raw, `Invalid parameter name: ${raw}`);
  return segments;
}

// While reading, every container is a plain object: arrays are indices as keys until finalize().
type Draft = { [key: string]: Draft | string };

function isDraft(v: Draft | string | undefined): v is Draft {
  return typeof v === 'object';
}

function nextIndex(container: Draft): number {
  return Object.keys(container).length;
}

function assign(root: Draft, segments: string[], value: string, raw: string): void {
  let container = root;
  for (let i = 0; i < segments.length; i += 1) {
    let key = segments[i]!;
    const last = i === segments.length - 1;
    if (key === '') {
      // `a[]=x` appends; `a[][b]=1&a[][c]=2` fills one element until a key repeats, as Rack reads it.
      const count = nextIndex(container);
      const previous = container[String(count - 1)];
      const following = segments[i + 1];
      key =
        !last && count > 0 && isDraft(previous) && following !== undefined && !(following in previous)
          ? String(count - 1)
          : String(count);
    }
    if (last) {
      if (isDraft(container[key])) throw new FormError(raw, `Invalid hash for ${raw}`);
      container[key] = value;
      return;
    }
    const existing = container[key];
    if (existing === undefined) {
      const created: Draft = {};
      container[key] = created;
      container = created;
    } else if (isDraft(existing)) {
      container = existing;
    } else {
      throw new FormError(raw, `Invalid hash for ${segments.slice(0, i + 1).join('.')}`);
    }
  }
}

function finalize(draft: Draft, name: string, root = false): FormValue {
  const keys = Object.keys(draft);
  const asArray = !root && !FREE_FORM_HASHES.has(name) && keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
  if (asArray) {
    // Indices are ordered, not required to be contiguous: the library skips undefined elements.
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => {
        const v = draft[String(k)]!;
        return isDraft(v) ? finalize(v, '') : v;
      });
  }
  const out: FormObject = {};
  for (const k of keys) {
    const v = draft[k]!;
    out[k] = isDraft(v) ? finalize(v, k) : v;
  }
  return out;
}

/** Reads a Stripe-encoded form (request body or query string) into nested objects and arrays. */
export function parseStripeForm(text: string): FormObject {
  const root: Draft = {};
  for (const [raw, value] of new URLSearchParams(text)) {
    assign(root, splitKey(raw), value, raw);
  }
  return finalize(root, '', true) as FormObject;
}

/** A stable text of parsed params, so that the same params in another order compare equal. */
export function canonicalForm(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalForm).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalForm(value[k]!)}`).join(',')}}`;
}
