import { failures } from './errors.js';
import type { FormObject, FormValue } from './form.js';
import type { Recurring } from './objects.js';

/*
 * Checks of request parameters with Stripe's messages and `param` paths
 * (`line_items[0][price_data][currency]`), so a caller's mistake surfaces as it would against Stripe.
 */

// The create parameters of a Checkout Session in the library's API version; others are refused as unknown.
const SESSION_PARAMS = new Set(
  (
    'adaptive_pricing after_expiration allow_promotion_codes allowed_payment_method_types automatic_tax ' +
    'billing_address_collection branding_settings cancel_url client_reference_id consent_collection currency ' +
    'custom_fields custom_text customer customer_account customer_creation customer_email customer_update discounts ' +
    'excluded_payment_method_types expand expires_at integration_identifier invoice_creation line_items locale ' +
    'managed_payments metadata mode name_collection optional_items origin_context payment_intent_data ' +
    'payment_method_collection payment_method_configuration payment_method_data payment_method_options ' +
    'payment_method_types permissions phone_number_collection redirect_on_completion return_url ' +
    'saved_payment_method_options setup_intent_data shipping_address_collection shipping_options submit_type ' +
    'subscription_data success_url tax_id_collection ui_mode wallet_options'
  ).split(' '),
);
const LINE_ITEM_PARAMS = new Set([
  'adjustable_quantity',
  'dynamic_tax_rates',
  'metadata',
  'price',
  'price_data',
  'quantity',
  'tax_rates',
]);
const PRICE_DATA_PARAMS = new Set([
  'currency',
  'product',
  'product_data',
  'recurring',
  'tax_behavior',
  'unit_amount',
  'unit_amount_decimal',
]);
const PRODUCT_DATA_PARAMS = new Set(['description', 'images', 'metadata', 'name', 'tax_code', 'unit_label']);
const RECURRING_PARAMS = new Set(['interval', 'interval_count']);
const INTERVALS = ['day', 'week', 'month', 'year'] as const;
const CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()));

export function onlyKnown(params: FormObject, known: Set<string>, prefix = ''): void {
  for (const key of Object.keys(params)) {
    if (!known.has(key)) throw failures.unknown(prefix ? `${prefix}[${key}]` : key);
  }
}

export function hash(value: FormValue | undefined, param: string): FormObject | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw failures.invalid(param, `Invalid object`);
  return value;
}

export function text(value: FormValue | undefined, param: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw failures.invalid(param, `Invalid string: ${param} must be a string`);
  return value;
}

export function integer(value: FormValue | undefined, param: string, min = 0): number | undefined {
  const raw = text(value, param);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw)) throw failures.invalid(param, `Invalid integer: ${raw}`, 'parameter_invalid_integer');
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) {
    throw failures.invalid(param, `This value must be greater than or equal to ${min}.`, 'parameter_invalid_integer');
  }
  return n;
}

function required<T>(value: T | undefined, param: string): T {
  if (value === undefined || value === '') throw failures.missing(param);
  return value;
}

function url(value: FormValue | undefined, param: string): string {
  const raw = required(text(value, param), param);
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
    throw failures.invalid(param, 'Not a valid URL', 'url_invalid');
  return raw;
}

export function metadata(value: FormValue | undefined, param = 'metadata'): Record<string, string> {
  const m = hash(value, param) ?? {};
  const keys = Object.keys(m);
  if (keys.length > 50) throw failures.invalid(param, 'Invalid metadata: metadata can have up to 50 keys');
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = text(m[k], `${param}[${k}]`)!;
    if (k.length > 40) throw failures.invalid(`${param}[${k}]`, 'Metadata keys can have up to 40 characters');
    if (v.length > 500) throw failures.invalid(`${param}[${k}]`, 'Metadata values can have up to 500 characters');
    // An empty value unsets a key, as on Stripe.
    if (v !== '') out[k] = v;
  }
  return out;
}

export interface LineItemInput {
  name: string;
  description: string | null;
  currency: string;
  unitAmount: number;
  quantity: number;
  recurring: Recurring | null;
  metadata: Record<string, string>;
}

export interface SessionInput {
  mode: 'payment' | 'subscription';
  currency: string;
  lineItems: LineItemInput[];
  successUrl: string;
  cancelUrl: string;
  clientReferenceId: string | null;
  customer: string | null;
  customerEmail: string | null;
  expiresAt: number | null;
  metadata: Record<string, string>;
  paymentIntentMetadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
}

function lineItem(value: FormValue, i: number, mode: SessionInput['mode']): LineItemInput {
  const at = `line_items[${i}]`;
  const item = hash(value, at)!;
  onlyKnown(item, LINE_ITEM_PARAMS, at);
  const price = text(item.price, `${at}[price]`);
  if (price !== undefined) throw failures.notFound('price', price, `${at}[price]`);
  const data = hash(item.price_data, `${at}[price_data]`);
  if (!data) throw failures.invalid(at, `You must specify either \`price\` or \`price_data\` in ${at}.`);
  const pd = `${at}[price_data]`;
  onlyKnown(data, PRICE_DATA_PARAMS, pd);
  const currency = required(text(data.currency, `${pd}[currency]`), `${pd}[currency]`).toLowerCase();
  if (!CURRENCIES.has(currency)) throw failures.invalid(`${pd}[currency]`, `Invalid currency: ${currency}.`);
  const unitAmount = required(integer(data.unit_amount, `${pd}[unit_amount]`), `${pd}[unit_amount]`);
  if (data.product !== undefined) throw failures.notFound('product', String(data.product), `${pd}[product]`);
  const product = hash(data.product_data, `${pd}[product_data]`);
  if (!product) throw failures.missing(`${pd}[product_data]`);
  onlyKnown(product, PRODUCT_DATA_PARAMS, `${pd}[product_data]`);
  const name = required(text(product.name, `${pd}[product_data][name]`), `${pd}[product_data][name]`);
  const quantity = required(integer(item.quantity, `${at}[quantity]`, 1), `${at}[quantity]`);
  const rec = hash(data.recurring, `${pd}[recurring]`);
  let recurring: Recurring | null = null;
  if (rec) {
    onlyKnown(rec, RECURRING_PARAMS, `${pd}[recurring]`);
    const interval = required(text(rec.interval, `${pd}[recurring][interval]`), `${pd}[recurring][interval]`);
    const known = INTERVALS.find((v) => v === interval);
    if (!known) {
      throw failures.invalid(
        `${pd}[recurring][interval]`,
        `Invalid ${pd}[recurring][interval]: must be one of day, week, month, or year`,
      );
    }
    const count = integer(rec.interval_count, `${pd}[recurring][interval_count]`, 1) ?? 1;
    const days = { day: 1, week: 7, month: 31, year: 366 }[known] * count;
    if (days > 3 * 366) {
      throw failures.invalid(`${pd}[recurring][interval_count]`, 'The maximum billing interval is 3 years.');
    }
    recurring = { interval: known, interval_count: count };
  }
  if (mode === 'payment' && recurring) {
    throw failures.invalid(
      `${pd}[recurring]`,
      'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
    );
  }
  return {
    name,
    description: text(product.description, `${pd}[product_data][description]`) ?? null,
    currency,
    unitAmount,
    quantity,
    recurring,
    metadata: metadata(item.metadata, `${at}[metadata]`),
  };
}

/** The checked parameters of `POST /v1/checkout/sessions`; throws Stripe's 400 for the first bad one. */
export function sessionInput(params: FormObject, created: number): SessionInput {
  onlyKnown(params, SESSION_PARAMS);
  const modeText = required(text(params.mode, 'mode'), 'mode');
  if (modeText !== 'payment' && modeText !== 'subscription') {
    // `setup` is real on Stripe, but nothing here saves cards for later.
    throw failures.invalid(
      'mode',
      `Invalid mode: must be one of payment or subscription (this fake does not model ${modeText})`,
    );
  }
  const mode = modeText;
  const rawItems = params.line_items;
  if (rawItems === undefined) throw failures.missing('line_items');
  if (!Array.isArray(rawItems) || rawItems.length === 0) throw failures.invalid('line_items', 'Invalid array');
  const lineItems = rawItems.map((v, i) => lineItem(v, i, mode));
  const currency = lineItems[0]!.currency;
  lineItems.forEach((item, i) => {
    if (item.currency !== currency) {
      throw failures.invalid(`line_items[${i}][price_data][currency]`, 'All line items must have the same currency.');
    }
  });
  if (mode === 'subscription' && !lineItems.some((i) => i.recurring)) {
    throw failures.invalid(
      'line_items',
      'You must provide at least one recurring price in `subscription` mode when using prices.',
    );
  }
  const clientReferenceId = text(params.client_reference_id, 'client_reference_id') ?? null;
  if (clientReferenceId !== null && clientReferenceId.length > 200) {
    throw failures.invalid('client_reference_id', 'client_reference_id can have up to 200 characters');
  }
  const expiresAt = integer(params.expires_at, 'expires_at') ?? null;
  if (expiresAt !== null && (expiresAt < created + 30 * 60 || expiresAt > created + 24 * 3600)) {
    throw failures.invalid(
      'expires_at',
      'The `expires_at` timestamp must be between 30 minutes and 24 hours after the Checkout Session is created.',
    );
  }
  return {
    mode,
    currency,
    lineItems,
    successUrl: url(params.success_url, 'success_url'),
    cancelUrl: url(params.cancel_url, 'cancel_url'),
    clientReferenceId,
    customer: text(params.customer, 'customer') ?? null,
    customerEmail: text(params.customer_email, 'customer_email') ?? null,
    expiresAt,
    metadata: metadata(params.metadata),
    paymentIntentMetadata: metadata(
      hash(params.payment_intent_data, 'payment_intent_data')?.metadata,
      'payment_intent_data[metadata]',
    ),
    subscriptionMetadata: metadata(
      hash(params.subscription_data, 'subscription_data')?.metadata,
      'subscription_data[metadata]',
    ),
  };
}

export function expandPaths(params: FormObject): string[] {
  const raw = params.expand;
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw failures.invalid('expand', 'Invalid array');
  return raw.map((v, i) => text(v, `expand[${i}]`)!);
}
