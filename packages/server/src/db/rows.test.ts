import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso } from './rows.js';

describe('iso', () => {
  it('writes what Date#toISOString writes, at the edges of days, months, leap years and its range', () => {
    const edges = [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(1972, 1, 29),
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      // Outside 1970-9999 (and not whole millis) the Date object formats.
      Date.UTC(10000, 0, 1),
      -1,
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      1_795_000_000_000.5,
    ];
    for (const millis of edges) expect(iso(millis), String(millis)).toBe(new Date(millis).toISOString());
  });

  it('writes what Date#toISOString writes for any time from 1970 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (millis) => {
        expect(iso(millis)).toBe(new Date(millis).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('refuses what the Date object refuses', () => {
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
  });
});
