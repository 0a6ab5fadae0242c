import { describe, expect, it } from 'vitest';
import { formatMoney } from './format';

const amounts = [
  0, 1, 9, 10, 99, 100, 101, 299, 999, 1000, 1999, 99_999, 100_000, 123_456, 1_000_000, 12_345_678, 987_654_321_09,
];

describe('formatMoney', () => {
  for (const lang of ['en', 'de'])
    for (const currency of ['USD', 'EUR', 'GBP'])
      it(`writes ${currency} in ${lang} exactly as Intl does, positive and negative`, () => {
        const intl = new Intl.NumberFormat(lang, { style: 'currency', currency });
        for (const amount of [...amounts, ...amounts.map((a) => -a).filter((a) => a !== 0)])
          expect(formatMoney({ amount, currency }, lang)).toBe(intl.format(amount / 100));
      });

  it('goes to Intl for other currencies and languages', () => {
    expect(formatMoney({ amount: 500, currency: 'JPY' }, 'en')).toBe('¥500');
    expect(formatMoney({ amount: 1234, currency: 'CHF' }, 'de')).toBe(
      new Intl.NumberFormat('de', { style: 'currency', currency: 'CHF' }).format(12.34),
    );
    expect(formatMoney({ amount: 1234, currency: 'EUR' }, 'fr')).toBe(
      new Intl.NumberFormat('fr', { style: 'currency', currency: 'EUR' }).format(12.34),
    );
  });
});
