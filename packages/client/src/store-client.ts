import { Paths, Timeouts, type Provider, type ValidatePurchaseData } from '@till/protocol';
import type { DataAnswer } from './answers.js';
import type { CallQueue } from './call-queue.js';
import type {
  CreditProducts,
  DoCheckoutData,
  GetCheckoutFormData,
  GetCouponData,
  OrderStatusData,
  PayWithCreditsData,
  RedeemCouponData,
} from './protocol-types.js';
import type { Session } from './session.js';
import { Transport, type TransportOptions } from './transport.js';

/**
 * Options of {@link StoreClient}.
 *
 * @example
 * const store = new StoreClient({ storeHost: 'https://store.example.com', session: api.session, queue: api.queue });
 */
export interface StoreClientOptions extends Omit<TransportOptions, 'host' | 'timeout'> {
  /** The store host; default the app's own origin. */
  storeHost?: string;
  /** Timeout in ms; default 5 000 (the specification's). */
  timeout?: number;
}

/**
 * What doCheckout pays: an earlier pending order again (`pastOrder`, with an optional payment route
 * to pay it another way), or products with an optional coupon and payment route.
 *
 * @example
 * const input: CheckoutInput = { products: ['pro-unlock'], couponCode: 'WELCOME10' };
 */
export type CheckoutInput =
  | { pastOrder: string; provider?: Provider }
  | { products: readonly string[]; couponCode?: string; provider?: Provider };

/**
 * The store calls on the store host (5 s timeout). Calls that need a token wait for a login like
 * the account calls do (share the session and queue of the {@link ApiClient}); none throws.
 *
 * @example
 * const store = new StoreClient({ session: api.session, queue: api.queue });
 * const res = await store.getCoupon('WELCOME10');
 * if (res.code === 908) say(couponMessage(res.reason));
 */
export class StoreClient {
  readonly session: Session;
  readonly queue: CallQueue;
  private readonly transport: Transport;

  constructor(options: StoreClientOptions = {}) {
    const { storeHost, timeout, ...rest } = options;
    this.transport = new Transport({
      ...rest,
      ...(storeHost !== undefined ? { host: storeHost } : {}),
      timeout: timeout ?? Timeouts.storeMs,
    });
    this.session = this.transport.session;
    this.queue = this.transport.queue;
  }

  /**
   * The axios instance, for interceptors (logging, headers). axios loads with the first call, or
   * with this: an app may call it early to have the library ready before the user needs it.
   *
   * @example
   * (await client.http()).interceptors.request.use((config) => config);
   */
  http() {
    return this.transport.http();
  }

  /**
   * Looks a coupon up (908 with a `reason` when it cannot be used).
   *
   * @example
   * const res = await store.getCoupon('WELCOME10');
   * if (res.code === 900) show(res.data.coupon);
   */
  getCoupon(couponCode: string): Promise<DataAnswer<GetCouponData>> {
    return this.transport.call({ path: Paths.getCoupon, fields: { couponCode }, token: 'required' });
  }

  /**
   * Redeems a grant coupon: credits and products for the user.
   *
   * @example
   * const res = await store.redeemCoupon('FREE100');
   * if (res.code === 900) setBalance(res.data.balance);
   */
  redeemCoupon(couponCode: string): Promise<DataAnswer<RedeemCouponData>> {
    return this.transport.call({ path: Paths.redeemCoupon, fields: { couponCode }, token: 'required' });
  }

  /**
   * Buys products with credits; `products` and `dataObj` travel as JSON text, as the protocol
   * fixes. 909 carries `balance` and `required`.
   *
   * @example
   * const res = await store.payWithCredits(['pro-unlock'], { note: 'gift' });
   * if (res.code === 909) say(`You need ${res.required - res.balance} more credits`);
   */
  payWithCredits(
    products: CreditProducts,
    dataObj: Record<string, unknown> = {},
  ): Promise<DataAnswer<PayWithCreditsData>> {
    return this.transport.call({
      path: Paths.payWithCredits,
      fields: { products: JSON.stringify(products), dataObj: JSON.stringify(dataObj) },
      token: 'required',
    });
  }

  /**
   * Starts paying an order: `pastOrder` (and a route to change to), or product ids (joined with `;`)
   * and a coupon code.
   * The answer says how to pay (`data.payment`: a page to open or a form to post).
   *
   * @example
   * const res = await store.doCheckout({ products: ['pro-unlock', 'monthly'], couponCode: 'WELCOME10' });
   * if (res.code === 900 && 'url' in res.data.payment) openPage(res.data.payment.url);
   */
  doCheckout(input: CheckoutInput): Promise<DataAnswer<DoCheckoutData>> {
    const fields =
      'pastOrder' in input
        ? { pastOrder: input.pastOrder, ...(input.provider ? { provider: input.provider } : {}) }
        : {
            products: input.products.join(';'),
            couponCode: input.couponCode ?? '',
            ...(input.provider ? { provider: input.provider } : {}),
          };
    return this.transport.call({ path: Paths.doCheckout, fields, token: 'required' });
  }

  /**
   * The checkout form for some products (ids joined with `,`; empty when none): the products, the
   * total and the ways to pay. Works logged out; sends the token when there is one.
   *
   * @example
   * const res = await store.getCheckoutForm(cart.map((p) => p.id));
   */
  getCheckoutForm(productIds: readonly string[] = []): Promise<DataAnswer<GetCheckoutFormData>> {
    return this.transport.call({
      path: Paths.getCheckoutForm,
      fields: { products: productIds.join(',') },
      token: 'optional',
    });
  }

  /**
   * Asks the validator about an in-app store transaction (sent as JSON text in `transactionData`),
   * which records it for the logged-in user. Valid only when the answer is 900 with `data.result` 1.
   *
   * @example
   * const res = await store.validatePurchase({ platform: 'test', transactionId, products: [{ id }] });
   * const valid = res.code === 900 && res.data.result === 1;
   */
  validatePurchase(
    transaction: unknown,
    validatorPath: string = Paths.validatePurchase,
  ): Promise<DataAnswer<ValidatePurchaseData>> {
    const transactionData = typeof transaction === 'string' ? transaction : JSON.stringify(transaction);
    // The validator records the purchase for the logged-in user: a purchase approved while logged out
    // waits for the login like any call that needs a token.
    return this.transport.call({
      path: validatorPath.replace(/^\/+/, ''),
      fields: { transactionData },
      token: 'required',
    });
  }

  /**
   * The status of an order (`iden`); the {@link OrderPoller} calls this every 2 s.
   *
   * @example
   * const res = await store.orderStatus(order.iden);
   * if (res.code === 900 && res.data.status !== 'pending') done(res.data.order);
   */
  orderStatus(iden: string, orderStatusPath: string = Paths.orderStatus): Promise<DataAnswer<OrderStatusData>> {
    return this.transport.call({ path: orderStatusPath.replace(/^\/+/, ''), fields: { iden }, token: 'required' });
  }
}
