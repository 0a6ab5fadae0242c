import type { Money } from '@till/protocol';

/**
 * Paymentwall takes and reports amounts in major units (`19.99`), the server keeps integer minor
 * units (`1999`). The number of decimals per currency is ISO 4217's: a fixed table rather than the
 * runtime's Intl data, so the amount in a signed URL cannot change with the Node.js build.
 */
const DECIMALS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

const CURRENCY = /^[A-Z]{3}$/;

/** Decimals of a currency's major unit: 2 unless ISO 4217 says otherwise (`JPY` 0, `BHD` 3). */
export function currencyDecimals(currency: string): number {
  if (!CURRENCY.test(currency)) throw new RangeError(`not an ISO 4217 currency code: ${currency}`);
  return DECIMALS[currency] ?? 2;
}

/** Minor units as Paymentwall's `amount`: `{1999, USD}` is `19.99`, `{500, JPY}` is `500`. */
export function formatAmount(money: Money): string {
  const decimals = currencyDecimals(money.currency);
  if (!Number.isSafeInteger(money.amount) || money.amount < 0)
    throw new RangeError(`amount must be a whole, non-negative number of minor units: ${money.amount}`);
  if (decimals === 0) return String(money.amount);
  const digits = String(money.amount).padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * An amount in major units as Paymentwall writes it back in minor units, or `undefined` when it is
 * not a plain non-negative decimal or has more significant decimals than the currency (`19.999 USD`).
 * Trailing zeros are fine: `19.90` and `500.00 JPY` are read as `1990` and `500`.
 */
export function parseAmount(value: string, currency: string): number | undefined {
  if (!CURRENCY.test(currency)) return undefined;
  const m = DECIMAL.exec(value);
  if (!m) return undefined;
  const decimals = currencyDecimals(currency);
  const whole = m[1] ?? '';
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return undefined;
  const minor = Number(whole + fraction.padEnd(decimals, '0'));
  return Number.isSafeInteger(minor) ? minor : undefined;
}
