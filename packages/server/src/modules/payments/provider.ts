import type { Order, PaymentInstruction, Provider } from '@till/protocol';
import type { Outcome } from '../../errors.js';

/** What a provider tells us about a payment, once its notification is verified. */
export interface ProviderEvent {
  /** The provider's own event or transaction id: the same id is applied once. */
  eventId: string;
  orderId: string;
  outcome: 'paid' | 'failed';
  /** What the provider says was paid, checked against the order's total. */
  amount: number;
  currency: string;
}

/**
 * One payment route. Every provider starts payments the same way and reports them through the same
 * notification path ({@link PaymentsService.applyNotification}), which applies each event once.
 */
export interface PaymentProvider {
  readonly name: Provider;
  /** How the buyer pays this pending order: a page to open or a form to post. */
  start(order: Order): PaymentInstruction;
  /** How to pay a cart before there is an order (listed by getCheckoutForm). */
  offer(products: string[]): PaymentInstruction;
  /** Checks a notification's signature and reads the event from it; 910 when it does not verify. */
  readNotification(payload: string, signature: string): Outcome<ProviderEvent>;
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
}
