import {
  conflictReasonSchema,
  couponReasonSchema,
  inputReasonSchema,
  orderStatusSchema,
  paymentReasonSchema,
} from '@till/protocol';
import { describe, expect, it } from 'vitest';
import de from '@/i18n/de.json';
import screens from '@/i18n/en.screens.json';

/**
 * The failure texts (`reasons.<code>...`, see `messageKeys` in api-error.ts) against the protocol's
 * closed lists of reasons: a text for a reason the server cannot send is dead, or a misspelling that
 * leaves the real reason with the code's general text.
 */
const languages = { en: screens.reasons, de: de.reasons } as const;

describe.each(Object.entries(languages))('failure texts in %s', (_language, reasons) => {
  it('have a text for every reason a coupon is refused for (908), and for no other', () => {
    expect(Object.keys(reasons['908']).sort()).toEqual([...couponReasonSchema.options].sort());
  });

  it("are a refused coupon's only texts: no screen keeps a set of its own", () => {
    const all = _language === 'en' ? screens : de;
    const coupon = new Set<string>(couponReasonSchema.options);
    /** Groups outside `reasons` whose keys are coupon reasons. */
    const sets = (texts: object, path: string): string[] =>
      Object.entries(texts).flatMap(([key, value]) => {
        if (typeof value !== 'object' || value === null || `${path}${key}` === 'reasons') return [];
        const named = Object.keys(value as object).filter((k) => coupon.has(k));
        return [...(named.length > 1 ? [`${path}${key}`] : []), ...sets(value as object, `${path}${key}.`)];
      });
    // The checkout's advice after the failure's text (what the cart can do to meet the coupon) is
    // no failure text: it never stands alone.
    expect(sets(all, '')).toEqual(['coupon.advice']);
    for (const text of Object.values((all as { coupon: { advice: Record<string, string> } }).coupon.advice))
      expect(Object.values(reasons['908'])).not.toContain(text);
  });

  it('name only reasons the server sends for invalid input (907), per field', () => {
    const named = Object.entries(reasons['907']).flatMap(([field, texts]) =>
      Object.keys(texts).map((reason) => `${field}.${reason}`),
    );
    const unknown = named.filter((key) => !inputReasonSchema.safeParse(key.split('.').pop()).success);
    expect(named.length).toBeGreaterThan(0);
    expect(unknown).toEqual([]);
  });

  it('name only reasons the server sends for a rejected payment (910)', () => {
    const unknown = Object.keys(reasons['910']).filter((reason) => !paymentReasonSchema.safeParse(reason).success);
    expect(unknown).toEqual([]);
  });

  it("name only an order's statuses or the reasons a conflict (912) carries", () => {
    const known = (key: string) =>
      orderStatusSchema.safeParse(key).success || conflictReasonSchema.safeParse(key).success;
    expect(Object.keys(reasons['912']).filter((key) => !known(key))).toEqual([]);
  });
});
