import type { Order, OrderStatusValue, PaymentInstruction, Provider, ShopLanguage } from '@till/protocol';
import type { Outcome } from '../../errors.js';
import type { ModuleHost } from '../../http/module.js';

/**
 * Which order an event is about: its iden when the provider carries it back (a checkout session's
 * `client_reference_id`, a pingback's `goodsid`), else one of the provider's own references that an
 * earlier event linked to the order (a payment intent, a subscription).
 */
export type EventTarget = { orderId: string; ref?: undefined } | { ref: string; orderId?: undefined };

/**
 * What a provider tells us, once its notification is verified. Each kind is one action on the
 * order; `flows/apply-payment-event.ts` holds what each does in each order status, in one table.
 */
export type ProviderEvent = EventTarget & {
  /** The provider's own event or transaction id: the same id is applied once. */
  eventId: string;
  /** References to link to the order (for the events that will name only them). */
  refs?: { kind: string; ref: string }[];
} & (
    | {
        /** The money was taken: the order is paid and granted, once. */
        kind: 'paid';
        /** What the provider says was paid, checked against the order's total. */
        amount: number;
        currency: string;
      }
    | {
        /** The payment was declined, failed later, or its session expired: the order fails. */
        kind: 'failed';
      }
    | {
        /** The money went back (a refund or a chargeback): what the order granted is taken back. */
        kind: 'reversed';
        reason: 'refund' | 'chargeback';
        /**
         * For a transaction of a subscription: the time it paid for (epoch ms, `from` to `until`),
         * which may sit on another order of the same subscription (a renewal applied to the order
         * that started it), and ends there too.
         */
        paidTime?: { orderIds: string[]; from: number; until: number };
        /**
         * The refunded transaction is a renewal that this order holds (applied to the order that
         * started its subscription), not the order's own payment: only the renewal's time (`from`
         * to `until`) ends, and with `credits` what the renewal granted is taken back; the order
         * stays paid.
         */
        renewal?: { from: number; until: number; credits: boolean };
      }
    | {
        /**
         * A subscription's renewal was paid: its time is extended by one period, or to `expiresAt`
         * where the store says when the new period ends.
         */
        kind: 'renewed';
        /** What was paid, checked against the order's total; in-app stores report none. */
        amount?: number;
        currency?: string;
        expiresAt?: number;
      }
    | {
        /** The provider ended the subscription: no more renewals; the time already paid stays. */
        kind: 'ended';
      }
  );

/** The kinds of {@link ProviderEvent}. */
export type ProviderEventKind = ProviderEvent['kind'];

/** What applying a provider event did to its order. */
export interface AppliedEvent {
  status: OrderStatusValue;
  /** False when the event had been applied before, or changed nothing in the order's status. */
  applied: boolean;
  /**
   * Set when the provider took money for an order that had already failed or been cancelled: the
   * money must go back, and the caller asks the provider to refund it.
   */
  refundDue?: { orderId: string };
}

/** One line of an order as a provider bills it. */
export interface PayableLine {
  productId: string;
  title: string;
  quantity: number;
  /** Price of one unit, in the order's currency's minor units. */
  unitAmount: number;
  /** ISO 8601 period (`P1M`) of a subscription line; null for anything bought once. */
  period: string | null;
}

/** An order as a provider needs it to take the payment: who pays, and what each line is. */
export interface PayableOrder extends Order {
  userId: string;
  lines: PayableLine[];
  /** The buyer's language, where the checkout knew it: a page the provider shows can speak it. */
  lang?: ShopLanguage | undefined;
}

/**
 * What the payments module is given to reach orders without importing the store: the flows layer
 * implements them (an order as the buyer sees it, its buyer and its lines' billing periods; a verified
 * event applied once).
 */
export interface PaymentPorts {
  /** The order as its buyer sees it; with `lang`, its items' titles in that language where translated. */
  findOrder(iden: string, lang?: ShopLanguage): Promise<Order | undefined>;
  /**
   * The buyer's user id of an order, which {@link Order} leaves out: for a provider whose payment
   * page must name who pays (Paymentwall's `uid`).
   */
  buyerOf(iden: string): Promise<string | undefined>;
  /**
   * The billing period (ISO 8601, `P1M`) of each line of an order, `null` for a line that is no
   * subscription: for a provider that bills subscriptions itself and must be told the period.
   */
  periodsOf(iden: string): Promise<(string | null)[]>;
  applyEvent(provider: Provider, event: ProviderEvent): Promise<Outcome<AppliedEvent>>;
  /**
   * Gives up a pending order whose buyer left its payment page without paying (pending ->
   * cancelled, its coupon use given back); 912 when it is no longer pending.
   */
  cancelOrder(iden: string): Promise<Outcome<{ order: Order }>>;
}

/**
 * One payment route. Every provider starts payments the same way and reports what happened through
 * {@link PaymentPorts.applyEvent}, which applies each event once, whatever path it came by.
 */
export interface PaymentProvider {
  readonly name: Provider;
  /** Whether doCheckout and getCheckoutForm offer it (in-app stores are paid through their own calls). */
  readonly checkout: boolean;
  /** Origins of the provider's pages the web app shows in a frame (the pages' policy must allow them). */
  readonly frameOrigins?: readonly string[];
  /**
   * How the buyer pays this pending order: a page to open or a form to post. A failure (the
   * provider refused or could not be reached) leaves the order to be closed by the caller.
   */
  start(order: PayableOrder): Promise<Outcome<PaymentInstruction>>;
  /** How to pay a cart before there is an order (listed by getCheckoutForm). */
  offer(products: string[]): PaymentInstruction;
  /**
   * Checks a notification sent to the generic path (`/api/payments/notify/{provider}`) and reads the
   * event from it; 910 when it does not verify. Providers with a webhook of their own leave it out.
   */
  readNotification?(payload: string, signature: string): Outcome<ProviderEvent>;
  /**
   * Asks the provider to give an order's money back (an administrator's refund). The order turns
   * `refunded` when the provider's confirmation arrives as a `reversed` event. Providers whose
   * payments the server settles itself (the sandbox) leave it out.
   */
  refund?(order: Order, part?: PartialRefund): Promise<Outcome<void>>;
  /**
   * Asks the provider to end the subscription the order started at the end of the period paid
   * for, without renewing it (the buyer's wish). Providers whose subscriptions are stopped in a
   * store's own settings, or do not renew, leave it out.
   */
  endAtPeriodEnd?(order: Order): Promise<Outcome<void>>;
  /** Registers the provider's own routes (its pages, webhooks or pingbacks), if it has any. */
  register?(host: ModuleHost, ports: PaymentPorts): Promise<void> | void;
}

/**
 * Part of an order's money to give back, leaving the order paid (an administrator's money-only
 * refund): the amount in minor units, and the key that makes asking twice refund once.
 */
export interface PartialRefund {
  amount: number;
  key: string;
}

/** The providers configured in this run, by name. */
export class ProviderRegistry {
  private readonly byName = new Map<Provider, PaymentProvider>();

  constructor(providers: PaymentProvider[]) {
    for (const p of providers) this.byName.set(p.name, p);
  }

  get(name: string): PaymentProvider | undefined {
    return this.byName.get(name as Provider);
  }

  list(): PaymentProvider[] {
    return [...this.byName.values()];
  }

  /** The providers a buyer can pick at checkout, in the order they were configured. */
  checkout(): PaymentProvider[] {
    return this.list().filter((p) => p.checkout);
  }
}

/**
 * How a cart is paid by a route that takes the buyer through doCheckout (getCheckoutForm lists one
 * per route): a form that posts the cart to doCheckout naming the route.
 */
export function checkoutOffer(provider: Provider, publicUrl: string, products: string[]): PaymentInstruction {
  return {
    provider,
    form: {
      action: `${publicUrl}/api/store/doCheckout`,
      method: 'POST',
      fields: { products: products.join(';'), provider },
    },
  };
}
