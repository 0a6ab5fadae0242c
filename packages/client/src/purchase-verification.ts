import { Code, type ValidatePurchaseData } from '@till/protocol';
import type { DataAnswer } from './answers.js';

/**
 * The text of every failed verification, as the specification words it.
 *
 * @example
 * if (m.type === 'error' && m.data.message === PURCHASE_NOT_VERIFIED) offerRetry();
 */
export const PURCHASE_NOT_VERIFIED = "We couldn't verify the purchase";

/**
 * Reads the validator's answer as the specification words it: valid only when the code is 900 and
 * `data.result` is 1; then `data.products` (ids joined with `;`) names the products whose callbacks
 * fire. Answers those ids, or null when the purchase is not verified.
 *
 * @example
 * verifiedProducts({ code: 900, data: { result: 1, products: 'pro;coins' } }); // ['pro', 'coins']
 * verifiedProducts({ code: 905, reason: 'network', error }); // null
 */
export function verifiedProducts(answer: DataAnswer<ValidatePurchaseData>): string[] | null {
  if (answer.code !== Code.Ok || answer.data.result !== 1) return null;
  return answer.data.products.split(';').filter(Boolean);
}
