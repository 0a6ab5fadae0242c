import type { Money } from '@till/protocol';
import { formatAmount } from './amount.js';
import { DEFAULT_SIGN_VERSION, type Params, type SignVersion, toSearchParams, widgetSignature } from './signature.js';

/** The Digital Goods API's widget address for payment widgets (`p1_1`, `p2_1`, ...). */
export const PAYMENTWALL_WIDGET_URL = 'https://api.paymentwall.com/api/subscription';

export type PeriodType = 'day' | 'week' | 'month' | 'year';

/** A subscription's billing period as Paymentwall takes it: `ag_period_length` and `ag_period_type`. */
export interface Period {
  length: number;
  type: PeriodType;
}

const ISO_PERIOD = /^P(\d+)([DWMY])$/;
const PERIOD_TYPES: Readonly<Record<string, PeriodType>> = { D: 'day', W: 'week', M: 'month', Y: 'year' };

/**
 * An ISO 8601 period of one unit (`P1M`, `P3M`, `P1Y`, `P2W`, `P30D`) as a Paymentwall period.
 * Mixed periods (`P1Y6M`) and times (`PT1H`) have no single Paymentwall unit and are refused rather
 * than rounded, since a rounded period would bill the buyer on other days than the product says.
 */
export function periodFromIso(iso: string): Period {
  const m = ISO_PERIOD.exec(iso);
  const length = Number(m?.[1]);
  const type = PERIOD_TYPES[m?.[2] ?? ''];
  if (!m || type === undefined || !Number.isSafeInteger(length) || length < 1)
    throw new RangeError(`not a one-unit ISO 8601 period such as P1M: ${iso}`);
  return { length, type };
}

export interface WidgetSubscription {
  /** ISO 8601 billing period, for example `P1M`. */
  period: string;
  /** Charge again every period (`ag_recurring=1`); `false` sells one period. Default `true`. */
  recurring?: boolean;
}

export interface WidgetInput {
  /** The project key (`key`). */
  projectKey: string;
  /** The project's secret key, which signs the call; it never appears in the URL. */
  secretKey: string;
  /** Who pays (`uid`): the buyer's id, sent back in every pingback. */
  uid: string;
  /** Widget code (`widget`), for example `p1_1`. */
  widget: string;
  /** The order's iden (`ag_external_id`), sent back in pingbacks as `goodsid`. */
  orderId: string;
  /** What the buyer sees being sold (`ag_name`). */
  name: string;
  /** The price in minor units (`amount` in major units and `currencyCode`). */
  price: Money;
  /** A subscription instead of a one-off purchase (`ag_type=subscription`). */
  subscription?: WidgetSubscription;
  /** Where the widget sends the buyer after paying (`success_url`). */
  successUrl?: string;
  /** Default 3 (SHA-256). */
  signVersion?: SignVersion;
  /** The widget address; default {@link PAYMENTWALL_WIDGET_URL}. Tests point it at a local fake. */
  baseUrl?: string;
  /** More widget parameters (`email`, `lang`, custom pingback parameters, ...), signed with the rest. */
  extra?: Params;
}

/** The widget call's parameters, `sign` included, before they are put in a URL. */
export function widgetParams(input: WidgetInput): Params {
  const signVersion = input.signVersion ?? DEFAULT_SIGN_VERSION;
  const core: Record<string, string> = {
    key: input.projectKey,
    uid: input.uid,
    widget: input.widget,
    amount: formatAmount(input.price),
    currencyCode: input.price.currency,
    ag_name: input.name,
    ag_external_id: input.orderId,
    ag_type: input.subscription ? 'subscription' : 'fixed',
  };
  if (input.subscription) {
    const period = periodFromIso(input.subscription.period);
    core['ag_period_length'] = String(period.length);
    core['ag_period_type'] = period.type;
    if (input.subscription.recurring ?? true) core['ag_recurring'] = '1';
  }
  if (input.successUrl !== undefined) core['success_url'] = input.successUrl;
  core['sign_version'] = String(signVersion);
  for (const name of Object.keys(input.extra ?? {}))
    if (name in core || name === 'sign') throw new RangeError(`extra widget parameter would replace ${name}`);
  const params: Params = { ...input.extra, ...core };
  return { ...params, sign: widgetSignature(params, input.secretKey, signVersion) };
}

/** The signed widget URL that takes the buyer to Paymentwall's payment page for one order. */
export function widgetUrl(input: WidgetInput): string {
  const url = new URL(input.baseUrl ?? PAYMENTWALL_WIDGET_URL);
  if (url.search !== '') throw new RangeError('the widget address must not carry a query of its own');
  url.search = toSearchParams(widgetParams(input)).toString();
  return url.toString();
}
