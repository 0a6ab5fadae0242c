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
