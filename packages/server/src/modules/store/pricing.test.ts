import { describe, expect, it } from 'vitest';
import type { Line, ProductRow } from './catalog.js';
import { parseProductRefs } from './catalog.js';
import { addPeriod } from './grants.js';
import { newId } from './ids.js';
import { ORDER_TRANSITIONS, sourcesOf } from './orders.js';
import { discountFor, moneySubtotal, percentOf, type CouponRow } from './pricing.js';

function product(id: string, amount: number | null, currency = 'USD'): ProductRow {
  return {
    id,
    alias: id,
    title: id,
    description: '',
    type: 0,
    price_amount: amount,
    price_currency: amount == null ? null : currency,
    credit_price: null,
    grant_credits: null,
    grant_period: null,
    image_url: null,
    store_ids: '{}',
    active: 1,
    sort: 0,
    created_at: 0,
    updated_at: 0,
  };
}

function coupon(fields: Partial<CouponRow>): CouponRow {
  return {
    code: 'C',
    kind: 'discount',
    percent_off: null,
    amount_off: null,
    amount_currency: null,
    grant_credits: null,
    grant_products: null,
    applies_to: null,
    min_total: null,
    min_total_currency: null,
    starts_at: null,
    ends_at: null,
    usage_limit: null,
    per_user_limit: null,
    used: 0,
    active: 1,
    batch: null,
    created_at: 0,
    updated_at: 0,
    ...fields,
  };
}

const line = (p: ProductRow, quantity = 1): Line => ({ product: p, quantity });

describe('pricing', () => {
  it('rounds percentage discounts to the nearest minor unit, halves up', () => {
    expect(percentOf(195, 10)).toBe(20); // 19.5
    expect(percentOf(194, 10)).toBe(19); // 19.4
    expect(percentOf(199, 10)).toBe(20); // 19.9
    expect(percentOf(1, 50)).toBe(1); // 0.5
    expect(percentOf(0, 50)).toBe(0);
  });

  it('takes a fixed amount off no more than the lines it applies to', () => {
    const lines = [line(product('a', 300)), line(product('b', 100), 2)];
    const off = coupon({ amount_off: 1_000, amount_currency: 'USD', applies_to: JSON.stringify(['b']) });
    expect(discountFor(off, lines, 'USD', 500)).toBe(200);
  });

  it('sums a cart and refuses lines without a money price or in another currency', () => {
    expect(moneySubtotal([line(product('a', 150), 3)], 'products')).toEqual({ currency: 'USD', subtotal: 450 });
    expect(moneySubtotal([line(product('a', null))], 'products')).toMatchObject({
      body: { code: 907, reason: 'no_price' },
    });
    expect(moneySubtotal([line(product('a', 1)), line(product('b', 1, 'EUR'))], 'products')).toMatchObject({
      body: { code: 907, reason: 'currency' },
    });
  });
});

describe('product references', () => {
  it('turns repeated ids into quantities and refuses empty or odd pieces', () => {
    expect(parseProductRefs('a;b;a', ';', 'products')).toEqual([
      { ref: 'a', quantity: 2 },
      { ref: 'b', quantity: 1 },
    ]);
    expect(parseProductRefs('a, b', ',', 'products')).toEqual([
      { ref: 'a', quantity: 1 },
      { ref: 'b', quantity: 1 },
    ]);
    expect(parseProductRefs('a;', ';', 'products')).toMatchObject({ body: { reason: 'required' } });
    expect(parseProductRefs('a;b c', ';', 'products')).toMatchObject({ body: { reason: 'invalid' } });
    expect(parseProductRefs(Array(51).fill('a').join(';'), ';', 'products')).toMatchObject({
      body: { reason: 'too_long' },
    });
  });
});

describe('orders', () => {
  it('allows only the transitions of the table', () => {
    expect(sourcesOf('paid')).toEqual(['pending']);
    // A provider may confirm a refund before the payment it gives back: pending -> refunded.
    expect(sourcesOf('refunded')).toEqual(['pending', 'paid']);
    expect(sourcesOf('pending')).toEqual([]);
    for (const final of ['failed', 'cancelled', 'refunded'] as const) expect(ORDER_TRANSITIONS[final]).toEqual([]);
  });
});

describe('periods and ids', () => {
  it('adds periods in days, weeks, months and years', () => {
    const jan31 = Date.UTC(2026, 0, 31);
    expect(new Date(addPeriod(jan31, 'P1D')).toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(new Date(addPeriod(jan31, 'P2W')).toISOString()).toBe('2026-02-14T00:00:00.000Z');
    expect(new Date(addPeriod(Date.UTC(2026, 0, 15), 'P1M', 3)).toISOString()).toBe('2026-04-15T00:00:00.000Z');
    expect(new Date(addPeriod(jan31, 'P1Y')).toISOString()).toBe('2027-01-31T00:00:00.000Z');
    expect(() => addPeriod(jan31, 'monthly')).toThrow();
  });

  it('makes ids that sort by creation, even within one millisecond', () => {
    const ids = Array.from({ length: 100 }, () => newId(1_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(100);
    expect(newId(2_000) > ids[99]!).toBe(true);
  });

  it('gives every id 64 fresh random bits, across refills of the random block', () => {
    const tails = Array.from({ length: 3000 }, (_, i) => newId(5_000 + i).slice(15));
    expect(tails.every((t) => /^[0-9a-f]{16}$/.test(t))).toBe(true);
    expect(new Set(tails).size).toBe(3000);
    // Each of the 64 bit positions is set in about half of the ids.
    for (let bit = 0; bit < 64; bit++) {
      const set = tails.filter((t) => (BigInt(`0x${t}`) >> BigInt(bit)) & 1n).length;
      expect(set).toBeGreaterThan(1300);
      expect(set).toBeLessThan(1700);
    }
  });
});
