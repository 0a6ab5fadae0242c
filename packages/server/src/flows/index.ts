import type { Order, PayWithCreditsRequest, Provider, ShopLanguage } from '@till/protocol';
import type { Job } from '../db/jobs.js';
import { Failure, type Outcome } from '../errors.js';
import type { ModuleHost, TillModule } from '../http/module.js';
import type { AppliedEvent, PaymentPorts, ProviderEvent } from '../modules/payments/index.js';
import { runInTransaction } from '../db/transaction.js';
import { closeOrder, findOrderRow, itemsOf, localizeOrder } from '../modules/store/index.js';
import { PaymentEvents } from './apply-payment-event.js';
import { Checkout } from './checkout.js';
import type { FlowDeps } from './deps.js';
import { payWithCredits } from './pay-with-credits.js';
import { endSubscription } from './end-subscription.js';
import { refundOrder, type RefundAsk } from './refund.js';
import { registerFlowRoutes, type FlowCalls } from './routes.js';
import { ShopMails } from './shop-mails.js';
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
  readonly mails: ShopMails;

  constructor(private readonly deps: FlowDeps) {
    this.mails = new ShopMails(deps);
    this.checkout = new Checkout(deps, this.mails);
    this.events = new PaymentEvents(deps, this.mails);
    this.purchases = new PurchaseValidation(deps, this.mails);
  }

  async payWithCredits(userId: string, input: PayWithCreditsRequest, lang: ShopLanguage) {
    const paid = await payWithCredits(this.deps, this.mails, userId, input);
    return paid instanceof Failure ? paid : { ...paid, order: await localizeOrder(this.deps.db, paid.order, lang) };
  }

  refund(ask: RefundAsk) {
    return refundOrder(this.deps, this.mails, ask);
  }

  endSubscription(userId: string, iden: string) {
    return endSubscription(this.deps, userId, iden);
  }

  findOrder(iden: string, lang?: ShopLanguage): Promise<Order | undefined> {
    return this.deps.store.parts.orders.order(iden, lang);
  }

  async buyerOf(iden: string): Promise<string | undefined> {
    return (await findOrderRow(this.deps.db, iden))?.user_id;
  }

  async periodsOf(iden: string): Promise<(string | null)[]> {
    return (await itemsOf(this.deps.db, iden)).map((i) => i.grant_period);
  }

  applyEvent(provider: Provider, event: ProviderEvent): Promise<Outcome<AppliedEvent>> {
    return this.events.apply(provider, event);
  }

  /** Gives up a pending order from its payment page; 912 when it is no longer pending. */
  cancelOrder(iden: string): Promise<Outcome<{ order: Order }>> {
    return runInTransaction(this.deps.db, async (trx) => ({
      order: await closeOrder(trx, iden, 'cancelled', this.deps.now()),
    }));
  }

  register({ app, calls }: ModuleHost): void {
    registerFlowRoutes(calls, this);
    // Mails on their way as the app closes are sent first.
    app.addHook('onClose', () => this.mails.settle());
  }

  jobs(): Job[] {
    return [this.mails.job()];
  }
}
