import { afterEach, describe, expect, it } from 'vitest';
import { renderShopMail, type ReceiptMail } from './shop-templates.js';

const RealDateTimeFormat = Intl.DateTimeFormat;
const RealNumberFormat = Intl.NumberFormat;

/** Counts the Intl formatters built while `run` goes on. */
function countingFormatters<T>(run: () => T): { result: T; built: number } {
  let built = 0;
  class CountingDateTimeFormat extends RealDateTimeFormat {
    constructor(...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      super(...args);
      built += 1;
    }
  }
  class CountingNumberFormat extends RealNumberFormat {
    constructor(...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      super(...args);
      built += 1;
    }
  }
  Intl.DateTimeFormat = CountingDateTimeFormat as typeof Intl.DateTimeFormat;
  Intl.NumberFormat = CountingNumberFormat as typeof Intl.NumberFormat;
  try {
    return { result: run(), built };
  } finally {
    Intl.DateTimeFormat = RealDateTimeFormat;
    Intl.NumberFormat = RealNumberFormat;
  }
}

const receipt = (i: number, currency: string): ReceiptMail => ({
  kind: 'receipt',
  name: 'Ada',
  ref: `#R${i}`,
  link: `https://till.test/orders/${i}`,
  lines: [
    {
      title: 'Gem',
      quantity: 1,
      unit: { money: { amount: 807 + i, currency } },
      total: { money: { amount: 807 + i, currency } },
    },
  ],
  subtotal: { money: { amount: 807 + i, currency } },
  coupon: null,
  total: { money: { amount: 807 + i, currency } },
  route: 'card',
  paidAt: Date.UTC(2026, 10, 28, 9, 5) + i * 60_000,
});

describe('shop mails and their formatters', () => {
  afterEach(() => {
    Intl.DateTimeFormat = RealDateTimeFormat;
    Intl.NumberFormat = RealNumberFormat;
  });

  it('builds the formatters of a language and currency once, not again for every mail', () => {
    // Each formatter is an ICU object whose destructor runs on the event loop after a garbage
    // collection: built anew per mail, they were destroyed by the thousand at once under load.
    const { result, built } = countingFormatters(() =>
      Array.from({ length: 200 }, (_, i) => [
        renderShopMail(receipt(i, 'USD'), 'en'),
        renderShopMail(receipt(i, 'EUR'), 'de-AT'),
      ]).flat(),
    );
    // At most: date and time per language, money and its digits per language and currency.
    expect(built).toBeLessThanOrEqual(2 * 2 + 2 * 2);
    expect(result).toHaveLength(400);
    expect(result[0]!.text).toContain('$8.07');
    expect(result[0]!.text).toContain('November 28, 2026, 09:05 UTC');
    expect(result[1]!.text).toMatch(/8,07\s€/);
    expect(result[1]!.text).toContain('28. November 2026, 09:05 UTC');
    expect(result[398]!.text).toContain('$10.06');
    expect(result[398]!.text).toContain('November 28, 2026, 12:24 UTC');
  });
});
