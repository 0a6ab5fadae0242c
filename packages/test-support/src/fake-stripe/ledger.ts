import { failures } from './errors.js';
import type { FormObject } from './form.js';
import {
  list,
  newId,
  now,
  periodEnd,
  type ChargeObject,
  type CustomerObject,
  type DisputeObject,
  type EventObject,
  type InvoiceObject,
  type LineItemObject,
  type ObjectKind,
  type ObjectOf,
  type PaymentIntentObject,
  type RefundObject,
  type SessionObject,
  type StoredObject,
  type SubscriptionObject,
} from './objects.js';
import { integer, metadata, onlyKnown, sessionInput, text } from './params.js';

/** The API request an event came from, as Stripe records it on the event (`null` for the buyer's actions). */
export interface EventCause {
  id: string | null;
  idempotency_key: string | null;
}

const NO_CAUSE: EventCause = { id: null, idempotency_key: null };
const REFUND_PARAMS = new Set([
  'amount',
  'charge',
  'payment_intent',
  'reason',
  'metadata',
  'expand',
  'instructions_email',
]);
const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'];

const clone = <T>(value: T): T => structuredClone(value);

/**
 * The account's objects and what happens to them: the rules of Checkout, payments, subscriptions,
 * refunds and disputes. Each change answers the events Stripe would create for it.
 */
export class Ledger {
  private readonly objects = new Map<string, StoredObject>();
  private readonly lineItems = new Map<string, LineItemObject[]>();
  readonly events: EventObject[] = [];

  constructor(
    private readonly apiVersion: string,
    private readonly pageBase: () => string,
    private readonly webhookCount: () => number,
  ) {}

  find<K extends ObjectKind>(kind: K, id: string): ObjectOf<K> | undefined {
    const found = this.objects.get(id);
    return found?.object === kind ? (found as ObjectOf<K>) : undefined;
  }

  /** The object, or Stripe's 404 naming `kind` and `param`. */
  get<K extends ObjectKind>(kind: K, id: string, param = 'id'): ObjectOf<K> {
    const found = this.find(kind, id);
    if (!found) throw failures.notFound(kind, id, param);
    return found;
  }

  byId(id: string): StoredObject | undefined {
    return this.objects.get(id);
  }

  sessionLineItems(sessionId: string): LineItemObject[] {
    return this.lineItems.get(sessionId) ?? [];
  }

  all<K extends ObjectKind>(kind: K): ObjectOf<K>[] {
    return [...this.objects.values()].filter((o): o is ObjectOf<K> => o.object === kind);
  }

  private put<T extends StoredObject>(o: T): T {
    this.objects.set(o.id, o);
    return o;
  }

  private emit(type: string, object: StoredObject, cause: EventCause, previous?: Record<string, unknown>): EventObject {
    const event: EventObject = {
      id: newId('evt_'),
      object: 'event',
      api_version: this.apiVersion,
      created: now(),
      data: { object: clone(object), ...(previous && { previous_attributes: previous }) },
      livemode: false,
      pending_webhooks: this.webhookCount(),
      request: cause,
      type,
    };
    this.events.push(event);
    return this.put(event);
  }

  createSession(params: FormObject): SessionObject {
    const created = now();
    const input = sessionInput(params, created);
    if (input.customer) this.get('customer', input.customer, 'customer');
    const id = newId('cs_test_', 58);
    const items: LineItemObject[] = input.lineItems.map((i) => {
      const total = i.unitAmount * i.quantity;
      return {
        id: newId('li_'),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: total,
        amount_tax: 0,
        amount_total: total,
        currency: i.currency,
        description: i.name,
        metadata: i.metadata,
        quantity: i.quantity,
        price: {
          id: newId('price_'),
          object: 'price',
          // Prices made from price_data are inactive: they exist only for this session.
          active: false,
          created,
          currency: i.currency,
          livemode: false,
          metadata: {},
          product: newId('prod_', 14),
          recurring: i.recurring && { ...i.recurring, usage_type: 'licensed' },
          type: i.recurring ? 'recurring' : 'one_time',
          unit_amount: i.unitAmount,
        },
      };
    });
    const amount = items.reduce((sum, i) => sum + i.amount_total, 0);
    this.lineItems.set(id, items);
    const session = this.put<SessionObject>({
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: input.cancelUrl,
      client_reference_id: input.clientReferenceId,
      client_secret: null,
      created,
      currency: input.currency,
      customer: input.customer,
      customer_creation: input.mode === 'payment' && !input.customer ? 'if_required' : null,
      customer_details: null,
      customer_email: input.customerEmail,
      expires_at: input.expiresAt ?? created + 24 * 3600,
      invoice: null,
      livemode: false,
      locale: null,
      metadata: input.metadata,
      mode: input.mode,
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: input.successUrl,
      ui_mode: 'hosted_page',
      url: `${this.pageBase()}/c/pay/${id}`,
    });
    // Kept beside the session: Stripe copies them onto the payment or subscription it creates later.
    this.pendingMetadata.set(id, { payment: input.paymentIntentMetadata, subscription: input.subscriptionMetadata });
    return session;
  }

  private readonly pendingMetadata = new Map<
    string,
    { payment: Record<string, string>; subscription: Record<string, string> }
  >();

  private openSession(id: string): SessionObject {
    const session = this.get('checkout.session', id, 'session');
    // Stripe expires a session on its own at expires_at; here a test says when, through expire().
    if (session.status === 'open' && session.expires_at <= now()) {
      throw new Error(`checkout session ${id} is past its expires_at; call expire() first`);
    }
    return session;
  }

  expireSession(id: string, cause: EventCause): EventObject[] {
    const session = this.get('checkout.session', id, 'session');
    if (session.status !== 'open') {
      throw failures.state(
        `Only Checkout Sessions with a status in ["open"] can be expired. This session has status "${session.status}".`,
      );
    }
    session.status = 'expired';
    session.url = null;
    return [this.emit('checkout.session.expired', session, cause)];
  }

  private payment(
    amount: number,
    currency: string,
    customer: string | null,
    email: string | null,
    meta: Record<string, string>,
    settled: boolean,
  ): { intent: PaymentIntentObject; charge: ChargeObject } {
    const created = now();
    const intentId = newId('pi_');
    const chargeId = newId('ch_');
    const paymentMethod = newId('pm_');
    const intent = this.put<PaymentIntentObject>({
      id: intentId,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: settled ? amount : 0,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${intentId}_secret_${newId('', 25)}`,
      confirmation_method: 'automatic',
      created,
      currency,
      customer,
      description: null,
      last_payment_error: null,
      latest_charge: chargeId,
      livemode: false,
      metadata: meta,
      next_action: null,
      payment_method: paymentMethod,
      payment_method_types: [settled ? 'card' : 'sepa_debit'],
      status: settled ? 'succeeded' : 'processing',
    });
    const charge = this.put<ChargeObject>({
      id: chargeId,
      object: 'charge',
      amount,
      amount_captured: settled ? amount : 0,
      amount_refunded: 0,
      balance_transaction: settled ? newId('txn_') : null,
      billing_details: { email, name: 'Test Buyer', phone: null, address: null },
      captured: settled,
      created,
      currency,
      customer,
      description: null,
      disputed: false,
      failure_code: null,
      failure_message: null,
      livemode: false,
      metadata: meta,
      paid: settled,
      payment_intent: intentId,
      payment_method: paymentMethod,
      payment_method_details: { type: settled ? 'card' : 'sepa_debit' },
      receipt_url: `${this.pageBase()}/receipts/${chargeId}`,
      refunded: false,
      status: settled ? 'succeeded' : 'pending',
    });
    return { intent, charge };
  }

  private customer(email: string | null): CustomerObject {
    return this.put<CustomerObject>({
      id: newId('cus_', 14),
      object: 'customer',
      balance: 0,
      created: now(),
      default_source: null,
      description: null,
      email,
      livemode: false,
      metadata: {},
      name: 'Test Buyer',
    });
  }

  private invoice(
    subscription: SubscriptionObject,
    reason: 'subscription_create' | 'subscription_cycle',
    email: string | null,
  ): InvoiceObject {
    const id = newId('in_');
    const created = now();
    const lines = subscription.items.data.map((item) => ({
      id: newId('il_'),
      object: 'line_item' as const,
      amount: (item.price.unit_amount ?? 0) * item.quantity,
      currency: subscription.currency,
      description: `${item.quantity} × subscription`,
      invoice: id,
      livemode: false as const,
      metadata: {},
      period: { start: item.current_period_start, end: item.current_period_end },
      pricing: {
        type: 'price_details' as const,
        price_details: { price: item.price.id, product: String(item.price.product) },
        unit_amount_decimal: String(item.price.unit_amount ?? 0),
      },
      quantity: item.quantity,
      subscription: subscription.id,
      subtotal: (item.price.unit_amount ?? 0) * item.quantity,
    }));
    const total = lines.reduce((sum, l) => sum + l.amount, 0);
    const count = this.all('invoice').length + 1;
    const paid = this.payment(total, subscription.currency, subscription.customer, email, {}, true);
    // Stripe lists an invoice's payments under `payments`, returned only when expanded.
    this.paymentsOfInvoice.set(id, [
      {
        id: newId('inpay_'),
        object: 'invoice_payment',
        amount_paid: total,
        amount_requested: total,
        created,
        currency: subscription.currency,
        invoice: id,
        is_default: true,
        livemode: false,
        payment: { type: 'payment_intent', payment_intent: paid.intent.id, charge: paid.charge.id },
        status: 'paid',
        status_transitions: { canceled_at: null, paid_at: created },
      },
    ]);
    return this.put<InvoiceObject>({
      id,
      object: 'invoice',
      amount_due: total,
      amount_overpaid: 0,
      amount_paid: total,
      amount_remaining: 0,
      attempt_count: 1,
      attempted: true,
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created,
      currency: subscription.currency,
      customer: subscription.customer,
      customer_email: email,
      hosted_invoice_url: `${this.pageBase()}/invoices/${id}`,
      lines: list(lines, `/v1/invoices/${id}/lines`),
      livemode: false,
      metadata: {},
      number: `TEST-${String(count).padStart(4, '0')}`,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: clone(subscription.metadata) },
      },
      // A subscription's first invoice covers no past period; a renewal's covers the one just ended.
      period_end: reason === 'subscription_create' ? created : lines[0]!.period.start,
      period_start: reason === 'subscription_create' ? created : (this.lastPeriodStart.get(subscription.id) ?? created),
      status: 'paid',
      status_transitions: { finalized_at: created, paid_at: created, marked_uncollectible_at: null, voided_at: null },
      subtotal: total,
      total,
    });
  }

  private readonly lastPeriodStart = new Map<string, number>();
  private readonly paymentsOfInvoice = new Map<string, Record<string, unknown>[]>();

  /** An invoice's payments (its `payments` list, which Stripe returns only when expanded). */
  invoicePayments(invoiceId: string): Record<string, unknown>[] {
    return structuredClone(this.paymentsOfInvoice.get(invoiceId) ?? []);
  }

  /** The buyer pays on the hosted page. `settleLater` stands for a bank debit that takes days. */
  completeSession(id: string, settleLater: boolean, email = 'buyer@example.com'): EventObject[] {
    const session = this.openSession(id);
    if (session.status !== 'open') throw new Error(`checkout session ${id} is ${session.status}, not open`);
    const meta = this.pendingMetadata.get(id) ?? { payment: {}, subscription: {} };
    const buyer = session.customer_email ?? email;
    const events: EventObject[] = [];
    session.customer_details = {
      email: buyer,
      name: 'Test Buyer',
      phone: null,
      address: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    session.status = 'complete';
    session.url = null;
    if (session.mode === 'payment') {
      if (session.amount_total === 0) {
        session.payment_status = 'no_payment_required';
      } else {
        const { intent } = this.payment(
          session.amount_total ?? 0,
          session.currency ?? 'usd',
          session.customer,
          buyer,
          meta.payment,
          !settleLater,
        );
        session.payment_intent = intent.id;
        session.payment_status = settleLater ? 'unpaid' : 'paid';
      }
    } else {
      if (settleLater) throw new Error('delayed payment is modelled for payment mode only');
      const customer = session.customer ? this.get('customer', session.customer) : this.customer(buyer);
      const start = now();
      const subId = newId('sub_');
      const items = this.sessionLineItems(id).map((li) => ({
        id: newId('si_', 14),
        object: 'subscription_item' as const,
        created: start,
        current_period_start: start,
        current_period_end: li.price.recurring ? periodEnd(start, li.price.recurring) : start,
        metadata: {},
        price: clone(li.price),
        quantity: li.quantity,
        subscription: subId,
      }));
      const subscription = this.put<SubscriptionObject>({
        id: subId,
        object: 'subscription',
        billing_cycle_anchor: start,
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        cancellation_details: null,
        collection_method: 'charge_automatically',
        created: start,
        currency: session.currency ?? 'usd',
        customer: customer.id,
        description: null,
        ended_at: null,
        items: list(items, `/v1/subscription_items?subscription=${subId}`),
        latest_invoice: null,
        livemode: false,
        metadata: meta.subscription,
        start_date: start,
        status: 'active',
        trial_end: null,
        trial_start: null,
      });
      const invoice = this.invoice(subscription, 'subscription_create', buyer);
      subscription.latest_invoice = invoice.id;
      this.lastPeriodStart.set(subId, start);
      session.customer = customer.id;
      session.subscription = subId;
      session.invoice = invoice.id;
      session.payment_status = invoice.total === 0 ? 'no_payment_required' : 'paid';
      events.push(this.emit('customer.subscription.created', subscription, NO_CAUSE));
      events.push(this.emit('invoice.paid', invoice, NO_CAUSE));
    }
    events.push(this.emit('checkout.session.completed', session, NO_CAUSE));
    return events;
  }

  private delayedSession(id: string): { session: SessionObject; intent: PaymentIntentObject; charge: ChargeObject } {
    const session = this.get('checkout.session', id, 'session');
    const intent = session.payment_intent ? this.find('payment_intent', session.payment_intent) : undefined;
    const charge = intent?.latest_charge ? this.find('charge', intent.latest_charge) : undefined;
    if (
      session.status !== 'complete' ||
      session.payment_status !== 'unpaid' ||
      !intent ||
      !charge ||
      intent.status !== 'processing'
    ) {
      throw new Error(`checkout session ${id} has no payment still processing`);
    }
    return { session, intent, charge };
  }

  settleDelayed(id: string): EventObject[] {
    const { session, intent, charge } = this.delayedSession(id);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
    Object.assign(charge, {
      status: 'succeeded',
      paid: true,
      captured: true,
      amount_captured: charge.amount,
      balance_transaction: newId('txn_'),
    });
    session.payment_status = 'paid';
    return [this.emit('checkout.session.async_payment_succeeded', session, NO_CAUSE)];
  }

  failDelayed(id: string): EventObject[] {
    const { session, intent, charge } = this.delayedSession(id);
    intent.status = 'requires_payment_method';
    intent.last_payment_error = {
      code: 'payment_intent_payment_attempt_failed',
      message: 'The payment failed.',
      type: 'invalid_request_error',
    };
    Object.assign(charge, {
      status: 'failed',
      failure_code: 'insufficient_funds',
      failure_message: 'The account has insufficient funds.',
    });
    return [this.emit('checkout.session.async_payment_failed', session, NO_CAUSE)];
  }

  renew(subscriptionId: string): EventObject[] {
    const subscription = this.get('subscription', subscriptionId);
    if (subscription.status !== 'active') throw new Error(`subscription ${subscriptionId} is ${subscription.status}`);
    const previousStart = subscription.items.data[0]?.current_period_start ?? subscription.start_date;
    for (const item of subscription.items.data) {
      const recurring = item.price.recurring ?? { interval: 'month', interval_count: 1 };
      item.current_period_start = item.current_period_end;
      item.current_period_end = periodEnd(item.current_period_start, recurring);
    }
    this.lastPeriodStart.set(subscriptionId, previousStart);
    const customer = this.find('customer', subscription.customer);
    const invoice = this.invoice(subscription, 'subscription_cycle', customer?.email ?? null);
    subscription.latest_invoice = invoice.id;
    return [this.emit('invoice.paid', invoice, NO_CAUSE)];
  }

  /**
   * POST /v1/subscriptions/:id, as far as Till uses it: `cancel_at_period_end`. Set, Stripe keeps
   * the subscription active, sets `cancel_at` to the current period's end and `canceled_at` to
   * now, and tells `customer.subscription.updated` with the previous values; cleared, it undoes
   * that. A canceled subscription cannot be changed so.
   */
  updateSubscription(subscriptionId: string, cause: EventCause, params: FormObject = {}): EventObject[] {
    onlyKnown(params, new Set(['cancel_at_period_end', 'expand']));
    const subscription = this.get('subscription', subscriptionId);
    if (params.cancel_at_period_end === undefined) return [];
    const wanted = params.cancel_at_period_end;
    if (wanted !== 'true' && wanted !== 'false')
      throw failures.invalid('cancel_at_period_end', 'Invalid boolean: ' + JSON.stringify(wanted));
    if (subscription.status === 'canceled') {
      throw failures.state('A canceled subscription can only update its cancellation_details and metadata.');
    }
    const end = wanted === 'true';
    if (subscription.cancel_at_period_end === end) return [];
    const previous = {
      cancel_at: subscription.cancel_at,
      cancel_at_period_end: subscription.cancel_at_period_end,
      canceled_at: subscription.canceled_at,
      cancellation_details: subscription.cancellation_details,
    };
    const periodEnd = Math.max(...subscription.items.data.map((i) => i.current_period_end));
    Object.assign(subscription, {
      cancel_at_period_end: end,
      cancel_at: end ? periodEnd : null,
      canceled_at: end ? now() : null,
      cancellation_details: end ? { comment: null, feedback: null, reason: 'cancellation_requested' } : null,
    });
    return [this.emit('customer.subscription.updated', subscription, cause, previous)];
  }

  cancelSubscription(subscriptionId: string, cause: EventCause, params: FormObject = {}): EventObject[] {
    onlyKnown(params, new Set(['cancellation_details', 'expand', 'invoice_now', 'prorate']));
    const subscription = this.get('subscription', subscriptionId);
    if (subscription.status === 'canceled') {
      throw failures.state('A canceled subscription can only update its cancellation_details and metadata.');
    }
    const at = now();
    Object.assign(subscription, {
      status: 'canceled',
      canceled_at: at,
      ended_at: at,
      cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' },
    });
    return [this.emit('customer.subscription.deleted', subscription, cause)];
  }

  createRefund(params: FormObject, cause: EventCause): { refund: RefundObject; events: EventObject[] } {
    onlyKnown(params, REFUND_PARAMS);
    const chargeId = text(params.charge, 'charge');
    const intentId = text(params.payment_intent, 'payment_intent');
    if (!chargeId && !intentId) {
      throw failures.state(
        'One of the following params should be provided for this request: payment_intent or charge.',
      );
    }
    let charge: ChargeObject;
    if (chargeId) {
      charge = this.get('charge', chargeId, 'charge');
    } else {
      const intent = this.get('payment_intent', intentId!, 'payment_intent');
      if (intent.status !== 'succeeded' || !intent.latest_charge) {
        throw failures.invalid(
          'payment_intent',
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        );
      }
      charge = this.get('charge', intent.latest_charge);
    }
    if (charge.disputed)
      throw failures.state(`Charge ${charge.id} has been charged back; cannot issue a refund.`, 'charge_disputed');
    if (charge.status !== 'succeeded')
      throw failures.state(`Charge ${charge.id} has not succeeded; cannot issue a refund.`);
    if (charge.refunded)
      throw failures.state(`Charge ${charge.id} has already been refunded.`, 'charge_already_refunded');
    const left = charge.amount_captured - charge.amount_refunded;
    const amount = integer(params.amount, 'amount', 1) ?? left;
    if (amount > left) {
      throw failures.invalid(
        'amount',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount_too_large',
      );
    }
    const reason = text(params.reason, 'reason') ?? null;
    if (reason !== null && !REFUND_REASONS.includes(reason)) {
      throw failures.invalid('reason', `Invalid reason: must be one of ${REFUND_REASONS.join(', ')}`);
    }
    return this.refundCharge(charge, amount, reason as RefundObject['reason'], metadata(params.metadata), cause);
  }

  refundCharge(
    charge: ChargeObject,
    amount: number,
    reason: RefundObject['reason'],
    meta: Record<string, string>,
    cause: EventCause,
  ): { refund: RefundObject; events: EventObject[] } {
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    const refund = this.put<RefundObject>({
      id: newId('re_'),
      object: 'refund',
      amount,
      balance_transaction: newId('txn_'),
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: meta,
      payment_intent: charge.payment_intent,
      reason,
      receipt_number: null,
      status: 'succeeded',
    });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount_captured;
    const events = [this.emit('refund.created', refund, cause), this.emit('charge.refunded', charge, cause, previous)];
    return { refund, events };
  }

  dispute(chargeId: string, reason: string): EventObject[] {
    const charge = this.get('charge', chargeId, 'charge');
    if (charge.status !== 'succeeded') throw new Error(`charge ${chargeId} is ${charge.status}`);
    if (charge.disputed) throw new Error(`charge ${chargeId} is already disputed`);
    charge.disputed = true;
    const created = now();
    const dispute = this.put<DisputeObject>({
      id: newId('dp_'),
      object: 'dispute',
      amount: charge.amount - charge.amount_refunded,
      balance_transactions: [],
      charge: charge.id,
      created,
      currency: charge.currency,
      evidence_details: { due_by: created + 7 * 24 * 3600, has_evidence: false, past_due: false, submission_count: 0 },
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: charge.payment_intent,
      reason,
      status: 'needs_response',
    });
    return [this.emit('charge.dispute.created', dispute, NO_CAUSE)];
  }
}
