import type { Money } from '@till/protocol';

// Building an Intl formatter costs far more than using one (milliseconds on a phone, for every
// price of every render): each locale and currency gets one, kept for the visit.
const moneyFormats = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function moneyFormat(lang: string, currency: string) {
  const key = `${lang} ${currency}`;
  let hit = moneyFormats.get(key);
  if (!hit) {
    const format = new Intl.NumberFormat(lang, { style: 'currency', currency });
    // Minor units follow the currency (2 for USD, 0 for JPY), whatever the locale shows.
    const digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    hit = { format, digits };
    moneyFormats.set(key, hit);
  }
  return hit;
}

/**
 * The app's own languages and the shop currencies most catalogs use, written without Intl. The
 * first currency formatter a page builds loads the browser's number data: 150-250 ms of main
 * thread on a slowed-down phone, in the middle of the store's first screen. These forms are
 * exactly what Intl writes for them (format.test.ts compares both over many amounts); any other
 * language or currency goes to Intl.
 */
const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£' };

function plainMoney(amount: number, lang: string, currency: string): string | undefined {
  const symbol = SYMBOLS[currency];
  if (!symbol || (lang !== 'en' && lang !== 'de') || !Number.isSafeInteger(amount)) return undefined;
  const minor = Math.abs(amount);
  const units = String(Math.floor(minor / 100));
  const cents = String(minor % 100).padStart(2, '0');
  const group = lang === 'en' ? ',' : '.';
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const sign = amount < 0 ? '-' : '';
  return lang === 'en' ? `${sign}${symbol}${grouped}.${cents}` : `${sign}${grouped},${cents}\u00a0${symbol}`;
}

/** Money in minor units as the reader's locale writes it. */
export function formatMoney(money: Money | null | undefined, lang: string): string {
  if (!money) return '';
  const plain = plainMoney(money.amount, lang, money.currency);
  if (plain !== undefined) return plain;
  const { format, digits } = moneyFormat(lang, money.currency);
  return format.format(money.amount / 10 ** digits);
}

export function formatDate(iso: string | null | undefined, lang: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export function formatBytes(bytes: number, lang: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: i ? 1 : 0 }).format(v)} ${units[i]}`;
}

const AGO_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 1],
  ['hour', 60],
  ['day', 24],
  ['week', 7],
  ['month', 4.35],
  ['year', 12],
];

/**
 * How long ago a moment was, as the reader's locale says it: "2 hours ago", "vor 3 Tagen", "this
 * minute". A moment in the future (a clock ahead of this one) reads as now.
 */
export function formatAgo(iso: string | null | undefined, lang: string, now = Date.now()): string {
  if (!iso) return '';
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return iso;
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  let value = Math.max(0, now - at) / 60_000;
  let unit: Intl.RelativeTimeFormatUnit = 'minute';
  // Minutes first; each next unit once the value reaches its size (60 minutes make an hour, ...).
  for (const [name, size] of AGO_STEPS.slice(1)) {
    if (value < size) break;
    value /= size;
    unit = name;
  }
  return format.format(Math.floor(value) ? -Math.floor(value) : 0, unit);
}
