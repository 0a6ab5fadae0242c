import {
  APP_ORIGINS,
  Code,
  DEFAULT_LANGUAGE,
  ProductType,
  type CheckoutPreviewData,
  type CheckoutPreviewRequest,
  type DoCheckoutRequest,
  type AppPayments,
  type Money,
  type Order,
  type PaymentInstruction,
  type Product,
  type ShopLanguage,
} from '@till/protocol';
import { runInTransaction } from '../db/transaction.js';
import { Failure, fail, type Outcome } from '../errors.js';
import type { PayableOrder, PaymentProvider } from '../modules/payments/index.js';
import {
  closeOrder,
  consumeCouponUse,
  expireStaleCouponHolds,
  insertOrder,
  insertPaidOrder,
  itemsOf,
  loadOrder,
  localize,
  localizeOrder,
  moneySubtotal,
  ownedAmong,
  parseProductRefs,
  priceCart,
  routeOrder,
  textsIn,
  titlesIn,
  toCoupon,
  toOrder,
  toProduct,
  type Line,
  type OrderItemRow,
} from '../modules/store/index.js';
import type { FlowDeps } from './deps.js';
import { refuseOwned } from './owned.js';
import { queueReceipt, type ShopMails } from './shop-mails.js';

/**
 * How often a coupon's stale holds are looked for at checkout. A hold lasts a day, so giving one back
 * up to this much later changes nothing for buyers, while the lookup was the costliest statement of a
 * checkout with a coupon under load.
 */
export const STALE_HOLDS_EVERY_MS = 10_000;

/** The phone app a call comes from, told by its `Origin` (the shells' own); null for anything else. */
export function appShellOf(origin: string | undefined): 'android' | 'ios' | null {
  if (origin === APP_ORIGINS.android) return 'android';
  if (origin === APP_ORIGINS.ios) return 'ios';
  return null;
}

/** doCheckout and getCheckoutForm: an order from a cart, and the payment route that pays it. */
export class Checkout {
  constructor(
    private readonly deps: FlowDeps,
    private readonly mails: ShopMails,
  ) {}

  /** When each coupon's stale holds were last looked for, by code. */
  private readonly holdsChecked = new Map<string, number>();

  /** Gives back the stale holds of a coupon before it is priced, at most every {@link STALE_HOLDS_EVERY_MS}. */
  private async releaseStaleHolds(code: string, now: number): Promise<void> {
    const key = code.toUpperCase();
    const last = this.holdsChecked.get(key);
    // A clock set back looks again rather than waiting.
    if (last !== undefined && now >= last && now - last < STALE_HOLDS_EVERY_MS) return;
    if (this.holdsChecked.size >= 10_000) this.holdsChecked.clear();
    // Taken before the lookup, so that checkouts arriving meanwhile do not repeat it.
    this.holdsChecked.set(key, now);
    await expireStaleCouponHolds(this.deps.db, code, now);
  }

  /** What the phone apps may offer: the web routes or not (`APP_WEB_PAYMENTS`), and the in-app stores. */
  appPayments(): AppPayments {
    return {
      webPayments: this.deps.config.payments.appWebPayments ?? 'hidden',
      stores: this.deps.payments.inAppStores(),
    };
  }

  /**
   * The provider a checkout uses: the one asked for, else the first configured; 910 when there is
   * none, and `not_in_app` for a call from a phone app while the apps do not offer web routes (the
   * stores' rules): the app pays through its store or with credits.
   */
  private pickProvider(name: string | undefined, app: 'android' | 'ios' | null): Outcome<PaymentProvider> {
    if (app && this.appPayments().webPayments === 'hidden') return fail.paymentRejected('not_in_app');
    const available = this.deps.payments.providers.checkout();
    const provider = name ? available.find((p) => p.name === name) : available[0];
    return provider ?? fail.paymentRejected(name ? 'provider_unavailable' : 'no_provider');
  }

  /**
   * A new order from `products` (+ an optional discount coupon), or the way to pay an existing
   * pending order (`pastOrder`). Two steps:
   * 1. the order, with its coupon use, in one transaction (a zero total is paid at once);
   * 2. the provider's start (it may call out to the provider).
   * When step 2 fails, step 1 is undone by failing the order, which gives its coupon use back.
   * `app` is the phone app the call comes from ({@link appShellOf}), if any.
   */
  async doCheckout(
    userId: string,
    input: DoCheckoutRequest,
    lang?: ShopLanguage,
    app: 'android' | 'ios' | null = null,
  ): Promise<Outcome<{ order: Order; payment: PaymentInstruction }>> {
    const provider = this.pickProvider(input.provider, app);
    if (provider instanceof Failure) return provider;
    const products = input.products?.trim() ?? '';
    if (input.pastOrder) {
      if (products) return fail.invalidInput('pastOrder', 'invalid');
      return this.payPastOrder(userId, input.pastOrder, provider, lang);
    }
    if (!products) return fail.invalidInput('products', 'required');
    const refs = parseProductRefs(products, ';', 'products');
    if (refs instanceof Failure) return refs;
    const lines = await this.deps.store.catalog.resolve(refs, 'products');
    if (lines instanceof Failure) return lines;
    const owned = await refuseOwned(this.deps.db, userId, lines);
    if (owned) return owned;
    const placed = await this.placeOrder(userId, lines, input.couponCode?.trim(), provider);
    if (placed instanceof Failure) return placed;
    const { items, receipt } = placed;
    this.mails.after([receipt]);
    const order = await localizeOrder(this.deps.db, placed.order, lang ?? DEFAULT_LANGUAGE);
    // Paid at once (a zero total): nothing to take, so no provider is asked; the way on is the order.
    if (order.status !== 'pending') {
      return { order, payment: { provider: provider.name, url: `${this.deps.config.publicUrl}/orders/${order.iden}` } };
    }
    const payment = await provider.start(this.payable(userId, order, items, lang));
    if (payment instanceof Failure) {
      await this.undoOrder(order.iden);
      return payment;
    }
    return { order, payment };
  }

  /**
   * Step 1: the cart priced, outside the transaction as its products were read; then the pending order,
   * its coupon use and (for a zero total) its payment, in one transaction.
   */
  private async placeOrder(
    userId: string,
    lines: Line[],
    code: string | undefined,
    provider: PaymentProvider,
  ): Promise<Outcome<{ order: Order; items: OrderItemRow[]; receipt?: string | undefined }>> {
    const now = this.deps.now();
    if (code) await this.releaseStaleHolds(code, now);
    const price = await priceCart(this.deps.store.coupons, lines, { code, userId, now, parameter: 'products' });
    if (price instanceof Failure) return price;
    const { coupon, discount, total, currency, subtotal } = price;
    return runInTransaction(this.deps.db, async (trx) => {
      const order = {
        userId,
        currency,
        subtotal,
        discount,
        total,
        creditsSpent: 0,
        couponCode: coupon?.code ?? null,
        provider: provider.name,
        data: null,
        lines,
      };
      let placed: { order: Order; items: OrderItemRow[]; receipt?: string | undefined };
      // Nothing to pay: the order is made paid, with its grants and its receipt, in this transaction.
      if (total === 0) {
        const paid = await insertPaidOrder(trx, order, now, { refuseOwned: true });
        placed = { order: paid, items: [], receipt: await queueReceipt(trx, { id: paid.iden, user_id: userId }, now) };
      } else {
        const made = await insertOrder(trx, order, now);
        placed = { order: toOrder(made.row, made.items), items: made.items };
      }
      // The coupon's use last: its conditional updates hold the coupon's row until the commit on
      // PostgreSQL, and every checkout with the same code, whoever the buyer, waits for that row.
      if (coupon) await consumeCouponUse(trx, coupon, userId, now);
      return placed;
    });
  }

  /**
   * The order as a provider bills it: the buyer, and each line with its unit price and period. The
   * order's fields are listed rather than spread, so that the type names every field it hands on.
   */
  private payable(userId: string, order: Order, items: OrderItemRow[], lang?: ShopLanguage): PayableOrder {
    return {
      iden: order.iden,
      status: order.status,
      items: order.items,
      subtotal: order.subtotal,
      discount: order.discount,
      total: order.total,
      creditsSpent: order.creditsSpent,
      couponCode: order.couponCode,
      provider: order.provider,
      createdAt: order.createdAt,
      paidAt: order.paidAt,
      userId,
      lang,
      // The titles as `order` shows them (in the buyer's language): its items are the rows' lines in order.
      lines: items.map((i, line) => ({
        productId: i.product_id,
        title: order.items[line]?.title ?? i.title,
        quantity: i.quantity,
        unitAmount: i.price_amount ?? 0,
        period: i.type === ProductType.Subscription ? i.grant_period : null,
      })),
    };
  }

  /** Undoes step 1 when the provider could not start: the order fails and its coupon use is given back. */
  private async undoOrder(iden: string): Promise<void> {
    const closed = await runInTransaction(this.deps.db, (trx) => closeOrder(trx, iden, 'failed', this.deps.now()));
    if (closed instanceof Failure) this.deps.log.warn({ iden, outcome: closed.body.code }, 'order left as it was');
  }

  /** How to pay a pending order again, perhaps by another route (the order then names that route). */
  private async payPastOrder(
    userId: string,
    iden: string,
    provider: PaymentProvider,
    lang?: ShopLanguage,
  ): Promise<Outcome<{ order: Order; payment: PaymentInstruction }>> {
    const past = await loadOrder(this.deps.db, iden);
    if (!past || past.row.user_id !== userId) return fail.notFound('pastOrder');
    if (past.row.status !== 'pending') return fail.conflict(past.row.status);
    if (past.row.provider !== provider.name) {
      await routeOrder(this.deps.db, past.row.id, provider.name, this.deps.now());
    }
    const order = await localizeOrder(
      this.deps.db,
      { ...past.order, provider: provider.name },
      lang ?? DEFAULT_LANGUAGE,
    );
    const payment = await provider.start(this.payable(userId, order, await itemsOf(this.deps.db, iden), lang));
    return payment instanceof Failure ? payment : { order, payment };
  }

  /**
   * What {@link doCheckout} would make of `products` and `couponCode` for this buyer, priced by the
   * same {@link priceCart}, without writing anything (no order, no coupon use, no stale holds
   * released). A coupon that cannot be used prices the cart without it and says why.
   */
  async previewCheckout(
    userId: string,
    input: CheckoutPreviewRequest,
    lang: ShopLanguage = DEFAULT_LANGUAGE,
  ): Promise<Outcome<CheckoutPreviewData>> {
    const refs = parseProductRefs(input.products.trim(), ';', 'products');
    if (refs instanceof Failure) return refs;
    const lines = await this.deps.store.catalog.resolve(refs, 'products');
    if (lines instanceof Failure) return lines;
    const code = input.couponCode?.trim();
    const now = this.deps.now();
    let price = await priceCart(this.deps.store.coupons, lines, { code, userId, now, parameter: 'products' });
    let couponRefused: CheckoutPreviewData['couponRefused'] = null;
    if (price instanceof Failure && code && price.body.code === Code.CouponRefused) {
      couponRefused = price.body.reason ?? 'unknown';
      price = await priceCart(this.deps.store.coupons, lines, { userId, now, parameter: 'products' });
    }
    if (price instanceof Failure) return price;
    const owned = await ownedAmong(this.deps.db, userId, lines);
    const money = (amount: number) => ({ amount, currency: price.currency });
    return {
      lines: await titlesIn(
        this.deps.db,
        lines.map((l) => ({
          productId: l.product.id,
          title: l.product.title,
          quantity: l.quantity,
          unitPrice: money(l.product.price_amount ?? 0),
          amount: money((l.product.price_amount ?? 0) * l.quantity),
          owned: owned.has(l.product.id),
        })),
        lang,
      ),
      subtotal: money(price.subtotal),
      discount: money(price.discount),
      total: money(price.total),
      coupon: price.coupon ? toCoupon(price.coupon) : null,
      couponRefused,
    };
  }

  /**
   * The cart's products, its money total (null when a product has no money price), how it can be
   * paid, and what the phone apps may offer of that.
   */
  async getCheckoutForm(
    text: string,
    lang: ShopLanguage = DEFAULT_LANGUAGE,
  ): Promise<Outcome<{ products: Product[]; total: Money | null; providers: PaymentInstruction[]; app: AppPayments }>> {
    const providers = this.deps.payments.providers.checkout();
    const app = this.appPayments();
    if (!text.trim()) return { products: [], total: null, providers: providers.map((p) => p.offer([])), app };
    const refs = parseProductRefs(text, ',', 'products');
    if (refs instanceof Failure) return refs;
    const lines = await this.deps.store.catalog.resolve(refs, 'products');
    if (lines instanceof Failure) return lines;
    const sum = moneySubtotal(lines, 'products');
    const ids = lines.flatMap((l) => Array<string>(l.quantity).fill(l.product.id));
    const texts = await textsIn(
      this.deps.db,
      lines.map((l) => l.product.id),
      lang,
    );
    return {
      products: lines.map((l) => localize(toProduct(l.product), texts.get(l.product.id))),
      total: sum instanceof Failure ? null : { amount: sum.subtotal, currency: sum.currency },
      providers: providers.map((p) => p.offer(ids)),
      app,
    };
  }
}
