import { creditDataObj, creditProductsList, type Order, type PayWithCreditsRequest } from '@till/protocol';
import type { z } from 'zod';
import { MAX_INT } from '../db/rows.js';
import { runInTransaction } from '../db/transaction.js';
import { Failure, fail, type Outcome } from '../errors.js';
import { balanceOf, grantPaidOrder, insertOrder, isProductRef, moveCredits, newId } from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';
import { refuseOwned } from './owned.js';
import { queueReceipt, type ShopMails } from './shop-mails.js';

/** Reads a JSON text field against its schema; 907 naming the field when it is not JSON or not that shape. */
function parseJsonText<S extends z.ZodType>(text: string, schema: S, parameter: string): Outcome<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail.invalidInput(parameter, 'invalid');
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : fail.invalidInput(parameter, 'invalid');
}

/**
 * Buys with credits: the spend, the paid order, its grants and its receipt in one transaction (the
 * receipt is sent after the commit). The spend is a guarded update (see `moveCredits`), so a buyer
 * racing many purchases gets exactly as many as the balance pays for, and 909 for the rest. Undone
 * as a whole by the transaction.
 */
export async function payWithCredits(
  deps: FlowDeps,
  mails: ShopMails,
  userId: string,
  input: PayWithCreditsRequest,
): Promise<Outcome<{ order: Order; balance: number }>> {
  const list = parseJsonText(input.products, creditProductsList, 'products');
  if (list instanceof Failure) return list;
  const data = input.dataObj ? parseJsonText(input.dataObj, creditDataObj, 'dataObj') : null;
  if (data instanceof Failure) return data;
  const refs = list.map((item) =>
    typeof item === 'string' ? { ref: item, quantity: 1 } : { ref: item.id, quantity: item.quantity ?? 1 },
  );
  if (!refs.every((r) => isProductRef(r.ref))) return fail.invalidInput('products', 'invalid');
  const lines = await deps.store.catalog.resolve(refs, 'products');
  if (lines instanceof Failure) return lines;
  if (lines.some((l) => l.product.credit_price == null)) return fail.invalidInput('products', 'no_credit_price');
  const owned = await refuseOwned(deps.db, userId, lines);
  if (owned) return owned;
  const cost = lines.reduce((sum, l) => sum + (l.product.credit_price ?? 0) * l.quantity, 0);
  if (cost > MAX_INT) return fail.invalidInput('products', 'too_long');
  const currency = lines.find((l) => l.product.price_currency)?.product.price_currency ?? 'USD';
  const now = deps.now();
  const bought = await runInTransaction(deps.db, async (trx) => {
    const iden = newId(now);
    // The order's rows first, then the spend, then the grants. The spend is checked before any grant
    // can add credits to the same balance; and on PostgreSQL its guarded update holds the buyer's row
    // until the commit, so the fewer statements after it, the sooner the buyer's next purchase may run.
    const made = await insertOrder(
      trx,
      {
        id: iden,
        userId,
        currency,
        subtotal: 0,
        discount: 0,
        total: 0,
        creditsSpent: cost,
        couponCode: null,
        provider: 'credits',
        data: data ? JSON.stringify(data) : null,
        lines,
      },
      now,
      { paid: true },
    );
    // The receipt with the order's rows, before the spend takes the buyer's row.
    const receipt = await queueReceipt(trx, { id: iden, user_id: userId }, now);
    const spent =
      cost > 0 ? await moveCredits(trx, { userId, amount: -cost, reason: 'spend', reference: iden, now }) : undefined;
    const order = await grantPaidOrder(trx, made, now, { refuseOwned: true });
    // The spend's entry already holds the balance unless the purchase itself granted credits.
    if (spent && !lines.some((l) => l.product.grant_credits)) return { order, balance: spent.balanceAfter, receipt };
    return { order, balance: (await balanceOf(trx, userId)) ?? 0, receipt };
  });
  if (bought instanceof Failure) return bought;
  // After the commit: the receipt goes out without holding up the answer.
  mails.after([bought.receipt]);
  return { order: bought.order, balance: bought.balance };
}
