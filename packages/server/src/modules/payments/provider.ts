import type { Order, OrderStatusValue, PaymentInstruction, Provider } from '@till/protocol';
import type { Outcome } from '../../errors.js';
import type { ModuleHost } from '../../http/module.js';

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

/** What applying a provider event did to its order. */
export interface AppliedEvent {
  status: OrderStatusValue;
  /** False when the event had been applied before and nothing changed. */
  applied: boolean;
}

/**
 * What the payments module is given to reach orders without importing the store: the flows layer
 * implements both (an order as the buyer sees it; a verified event applied once).
 */
export interface PaymentPorts {
  findOrder(iden: string): Promise<Order | undefined>;
  applyEvent(provider: Provider, event: ProviderEvent): Promise<Outcome<AppliedEvent>>;
}

/**
 * One payment route. Every provider starts payments the same way and reports what happened through
 * {@link PaymentPorts.applyEvent}, which applies each event once, whatever path it came by.
 */
export interface PaymentProvider {
  readonly name: Provider;
  /** Whether doCheckout and getCheckoutForm offer it (in-app stores are paid through their own calls). */
  readonly checkout: boolean;
  /**
   * How the buyer pays this pending order: a page to open or a form to post. A failure (the
   * provider refused or could not be reached) leaves the order to be closed by the caller.
   */
  start(order: Order): Promise<Outcome<PaymentInstruction>>;
  /** How to pay a cart before there is an order (listed by getCheckoutForm). */
  offer(products: string[]): PaymentInstruction;
  /** Checks a notification's signature and reads the event from it; 910 when it does not verify. */
  readNotification(payload: string, signature: string): Outcome<ProviderEvent>;
  /** Registers the provider's own routes (its pages, webhooks or pingbacks), if it has any. */
  register?(host: ModuleHost, ports: PaymentPorts): Promise<void> | void;
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
