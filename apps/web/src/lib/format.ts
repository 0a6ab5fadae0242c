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

/** Money in minor units as the reader's locale writes it. */
export function formatMoney(money: Money | null | undefined, lang: string): string {
  if (!money) return '';
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
