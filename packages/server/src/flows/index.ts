import type { Order, PayWithCreditsRequest, Provider } from '@till/protocol';
import type { Outcome } from '../errors.js';
import type { ModuleHost, TillModule } from '../http/module.js';
import type { AppliedEvent, PaymentPorts, ProviderEvent } from '../modules/payments/index.js';
import { itemsOf } from '../modules/store/index.js';
import { PaymentEvents } from './apply-payment-event.js';
import { Checkout } from './checkout.js';
import type { FlowDeps } from './deps.js';
import { payWithCredits } from './pay-with-credits.js';
import { refundOrder } from './refund.js';
import { registerFlowRoutes, type FlowCalls } from './routes.js';
import { PurchaseValidation } from './validate-purchase.js';

/**
 * Work that spans modules: buying (checkout, credits, in-app purchases), applying provider events
 * and refunds. The modules never import each other; only this layer and the app compose them.
 */
export class Flows implements TillModule, PaymentPorts, FlowCalls {
  readonly name = 'flows';
  readonly checkout: Checkout;
  readonly events: PaymentEvents;
  readonly purchases: PurchaseValidation;

  constructor(private readonly deps: FlowDeps) {
    this.checkout = new Checkout(deps);
    this.events = new PaymentEvents(deps);
    this.purchases = new PurchaseValidation(deps);
  }

  payWithCredits(userId: string, input: PayWithCreditsRequest) {
    return payWithCredits(this.deps, userId, input);
  }

  refund(iden: string, reason: string | undefined) {
    return refundOrder(this.deps, iden, reason);
  }

  findOrder(iden: string): Promise<Order | undefined> {
    return this.deps.store.parts.orders.order(iden);
  }

  async buyerOf(iden: string): Promise<string | undefined> {
    const row = await this.deps.db.selectFrom('orders').select('user_id').where('id', '=', iden).executeTakeFirst();
    return row?.user_id;
  }

  async periodsOf(iden: string): Promise<(string | null)[]> {
    return (await itemsOf(this.deps.db, iden)).map((i) => i.grant_period);
  }

  applyEvent(provider: Provider, event: ProviderEvent): Promise<Outcome<AppliedEvent>> {
    return this.events.apply(provider, event);
  }

  register({ calls }: ModuleHost): void {
    registerFlowRoutes(calls, this);
  }
}
