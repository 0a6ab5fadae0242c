import type { TFunction } from '@/lib/translator';

const UNITS = { D: 'days', W: 'weeks', M: 'months', Y: 'years' } as const;
type Unit = (typeof UNITS)[keyof typeof UNITS];

/**
 * An ISO 8601 period of one unit (`P1M`, `P3M`, `P1Y`, `P2W`, `P30D`) as its count and unit, or
 * null for anything else (a mixed period such as `P1Y2M` is not one a product renews by).
 *
 * @example
 * parsePeriod('P3M') // { count: 3, unit: 'months' }
 */
export function parsePeriod(iso: string | null | undefined): { count: number; unit: Unit } | null {
  const m = /^P(\d{1,4})([DWMY])$/.exec(iso ?? '');
  if (!m) return null;
  const count = Number(m[1]);
  return count > 0 ? { count, unit: UNITS[m[2] as keyof typeof UNITS] } : null;
}

/**
 * A period in words: "monthly", "every 3 months", "yearly"; 12 months read as "yearly" and 7 days
 * as "weekly". Null for a period that cannot be read, so that nothing internal is shown.
 *
 * @example
 * periodText(t, 'P3M') // 'every 3 months'
 */
export function periodText(t: TFunction, iso: string | null | undefined): string | null {
  const p = parsePeriod(iso);
  if (!p) return null;
  let { count, unit } = p;
  if (unit === 'months' && count % 12 === 0) [count, unit] = [count / 12, 'years'];
  if (unit === 'days' && count % 7 === 0) [count, unit] = [count / 7, 'weeks'];
  const single = { days: 'daily', weeks: 'weekly', months: 'monthly', years: 'yearly' } as const;
  const every = { days: 'everyDays', weeks: 'everyWeeks', months: 'everyMonths', years: 'everyYears' } as const;
  return count === 1 ? t(`store.period.${single[unit]}`) : t(`store.period.${every[unit]}`, { count });
}
