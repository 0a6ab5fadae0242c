import { describe, expect, it } from 'vitest';
import type { ValidatePurchaseData } from '@till/protocol';
import type { DataAnswer } from './answers.js';
import { verifiedProducts } from './purchase-verification.js';

describe('verifiedProducts', () => {
  it('is valid only for code 900 with data.result 1, naming the products split on ;', () => {
    expect(verifiedProducts({ code: 900, data: { result: 1, products: 'pro-unlock;credits-100' } })).toEqual([
      'pro-unlock',
      'credits-100',
    ]);
    expect(verifiedProducts({ code: 900, data: { result: 1, products: '' } })).toEqual([]);
  });

  it.each<[string, DataAnswer<ValidatePurchaseData>]>([
    ['result 0', { code: 900, data: { result: 0, reason: 'unknown_product' } }],
    ['901', { code: 901 }],
    ['907', { code: 907, parameter: 'transactionData', reason: 'invalid' }],
    ['910', { code: 910, reason: 'already_used' }],
  ])('is not valid for %s', (_name, answer) => {
    expect(verifiedProducts(answer)).toBeNull();
  });
});
