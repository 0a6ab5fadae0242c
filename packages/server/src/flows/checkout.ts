import {
  creditDataObj,
  creditProductsList,
  type DoCheckoutRequest,
  type Money,
  type Order,
  type PayWithCreditsRequest,
  type PaymentInstruction,
  type Product,
} from '@till/protocol';
import type { z } from 'zod';
import { runInTransaction } from '../db/transaction.js';
import { AbortTransaction, Failure, fail, type Outcome } from '../errors.js';
import type { PaymentProvider, ProviderRegistry } from '../modules/payments/provider.js';
import { isProductRef, parseProductRefs, toProduct, type Catalog, type Line } from '../modules/store/catalog.js';
import { consumeCouponUse } from '../modules/store/coupon-uses.js';
import { checkCoupon } from '../modules/store/coupons.js';
import { moveCredits } from '../modules/store/credits.js';
import type { StoreDeps } from '../modules/store/deps.js';
import { newId } from '../modules/store/ids.js';
import { expireStaleCouponHolds, insertOrder, loadOrder, payOrder, toOrder } from '../modules/store/orders.js';
import { discountFor, moneySubtotal } from '../modules/store/pricing.js';

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

/** Providers that take the buyer through a checkout (credits and in-app stores have their own calls). */
const CHECKOUT_PROVIDERS = new Set(['default', 'card', 'paywall']);

/** payWithCredits, doCheckout, getCheckoutForm. */
export class Checkout {
  constructor(
    private readonly deps: StoreDeps,
    private readonly catalog: Catalog,
    private readonly providers: ProviderRegistry,
  ) {}

  private checkoutProviders(): PaymentProvider[] {
    return this.providers.list().filter((p) => CHECKOUT_PROVIDERS.has(p.name));
  }

  /** 907 `owned` when the buyer already owns one of the non-consumables in the cart. */
  private async refuseOwned(userId: string, lines: Line[]): Promise<Failure | undefined> {
    const ids = lines.filter((l) => l.product.type === 1).map((l) => l.product.id);
    if (!ids.length) return undefined;
    const owned = await this.deps.db
      .selectFrom('entitlements')
      .select('product_id')
      .where('user_id', '=', userId)
      .where('kind', '=', 'ownership')
      .where('revoked_at', 'is', null)
      .where('product_id', 'in', ids)
      .executeTakeFirst();
    return owned ? fail.invalidInput('products', 'owned') : undefined;
  }

  /**
   * Buys with credits: the spend, the paid order and its grants in one transaction. The spend is a
   * guarded update (see {@link moveCredits}), so a buyer racing many purchases gets exactly as many
   * as the balance pays for, and 909 for the rest.
   */
  async payWithCredits(
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
    const lines = await this.catalog.resolve(refs, 'products');
    if (lines instanceof Failure) return lines;
    if (lines.some((l) => l.product.credit_price == null)) return fail.invalidInput('products', 'no_credit_price');
    const owned = await this.refuseOwned(userId, lines);
    if (owned) return owned;
    const cost = lines.reduce((sum, l) => sum + (l.product.credit_price ?? 0) * l.quantity, 0);
    const currency = lines.find((l) => l.product.price_currency)?.product.price_currency ?? 'USD';
    const now = this.deps.now();
    return runInTransaction(this.deps.db, async (trx) => {
      const iden = newId(now);
      const spent =
        cost > 0 ? await moveCredits(trx, { userId, amount: -cost, reason: 'spend', reference: iden, now }) : undefined;
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
      );
      const order = await payOrder(trx, iden, now, made.items, true);
      // The spend's entry already holds the balance unless the purchase itself granted credits.
      if (spent && !lines.some((l) => l.product.grant_credits)) return { order, balance: spent.balanceAfter };
      const user = await trx.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow();
      return { order, balance: user.credits };
    });
  }

  /** The provider a checkout uses: the one asked for, else the first configured; 910 when there is none. */
  private pickProvider(name: string | undefined): Outcome<PaymentProvider> {
    const available = this.checkoutProviders();
    const provider = name ? available.find((p) => p.name === name) : available[0];
    return provider ?? fail.paymentRejected(name ? 'provider_unavailable' : 'no_provider');
  }

  /**
   * A new order from `products` (+ an optional discount coupon), or the way to pay an existing
   * pending order (`pastOrder`). The coupon's use is taken in the order's transaction; an order
   * whose total is zero is paid at once.
   */
  async doCheckout(
    userId: string,
    input: DoCheckoutRequest,
  ): Promise<Outcome<{ order: Order; payment: PaymentInstruction }>> {
    const provider = this.pickProvider(input.provider);
    if (provider instanceof Failure) return provider;
    const products = input.products?.trim() ?? '';
    if (input.pastOrder) {
      if (products) return fail.invalidInput('pastOrder', 'invalid');
      const past = await loadOrder(this.deps.db, input.pastOrder);
      if (!past || past.row.user_id !== userId) return fail.notFound('pastOrder');
      if (past.row.status !== 'pending') return fail.conflict(past.row.status);
      if (past.row.provider !== provider.name) {
        await this.deps.db
          .updateTable('orders')
          .set({ provider: provider.name, updated_at: this.deps.now() })
          .where('id', '=', past.row.id)
          .where('status', '=', 'pending')
          .execute();
      }
      return { order: { ...past.order, provider: provider.name }, payment: provider.start(past.order) };
    }
    if (!products) return fail.invalidInput('products', 'required');
    const refs = parseProductRefs(products, ';', 'products');
    if (refs instanceof Failure) return refs;
    const lines = await this.catalog.resolve(refs, 'products');
    if (lines instanceof Failure) return lines;
    const owned = await this.refuseOwned(userId, lines);
    if (owned) return owned;
    const sum = moneySubtotal(lines, 'products');
    if (sum instanceof Failure) return sum;
    const code = input.couponCode?.trim();
    const now = this.deps.now();
    if (code) await expireStaleCouponHolds(this.deps.db, code, now);
    const order = await runInTransaction(this.deps.db, async (trx) => {
      let discount = 0;
      let couponCode: string | null = null;
      if (code) {
        const coupon = await checkCoupon(trx, code, userId, now, 'discount');
        if (coupon instanceof Failure) throw new AbortTransaction(coupon);
        const off = discountFor(coupon, lines, sum.currency, sum.subtotal);
        if (off instanceof Failure) throw new AbortTransaction(off);
        await consumeCouponUse(trx, coupon, userId, now);
        discount = off;
        couponCode = coupon.code;
      }
      const total = Math.max(0, sum.subtotal - discount);
      const made = await insertOrder(
        trx,
        { userId, ...sum, discount, total, creditsSpent: 0, couponCode, provider: provider.name, data: null, lines },
        now,
      );
      if (total === 0) return payOrder(trx, made.row.id, now, made.items, true);
      return toOrder(made.row, made.items);
    });
    if (order instanceof Failure) return order;
    return { order, payment: provider.start(order) };
  }

  /** The cart's products, its money total (null when a product has no money price) and how it can be paid. */
  async getCheckoutForm(
    text: string,
  ): Promise<Outcome<{ products: Product[]; total: Money | null; providers: PaymentInstruction[] }>> {
    if (!text.trim()) return { products: [], total: null, providers: this.checkoutProviders().map((p) => p.offer([])) };
    const refs = parseProductRefs(text, ',', 'products');
    if (refs instanceof Failure) return refs;
    const lines = await this.catalog.resolve(refs, 'products');
    if (lines instanceof Failure) return lines;
    const sum = moneySubtotal(lines, 'products');
    const ids = lines.flatMap((l) => Array<string>(l.quantity).fill(l.product.id));
    return {
      products: lines.map((l) => toProduct(l.product)),
      total: sum instanceof Failure ? null : { amount: sum.subtotal, currency: sum.currency },
      providers: this.checkoutProviders().map((p) => p.offer(ids)),
    };
  }
}
