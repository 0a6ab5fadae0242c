import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/*
 * The objects the fake keeps, as Stripe's API reference describes them. Each type picks its fields
 * from the library's own declarations, so a field the fake writes has the name and type the library
 * reads; the fake models only the fields a Checkout integration looks at.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id in Stripe's style: a prefix and random letters and digits. */
export function newId(prefix: string, length = 24): string {
  let out = prefix;
  for (const b of randomBytes(length)) out += ALPHABET[b % ALPHABET.length];
  return out;
}

export const now = (): number => Math.floor(Date.now() / 1000);

export interface ListObject<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export const list = <T>(data: T[], url: string): ListObject<T> => ({ object: 'list', data, has_more: false, url });

export interface Recurring {
  interval: 'day' | 'week' | 'month' | 'year';
  interval_count: number;
}

export type PriceObject = Pick<
  Stripe.Price,
  'id' | 'object' | 'active' | 'currency' | 'created' | 'livemode' | 'product' | 'unit_amount' | 'type' | 'metadata'
> & { recurring: (Recurring & { usage_type: 'licensed' }) | null };

export type LineItemObject = Pick<
  Stripe.LineItem,
  'id' | 'object' | 'amount_discount' | 'amount_subtotal' | 'amount_tax' | 'amount_total' | 'currency' | 'description'
> & { price: PriceObject; quantity: number; metadata: Record<string, string> };

export type SessionObject = Pick<
  Stripe.Checkout.Session,
  | 'id'
  | 'object'
  | 'amount_subtotal'
  | 'amount_total'
  | 'cancel_url'
  | 'client_reference_id'
  | 'created'
  | 'currency'
  | 'customer_creation'
  | 'customer_email'
  | 'expires_at'
  | 'livemode'
  | 'locale'
  | 'metadata'
  | 'mode'
  | 'payment_method_types'
  | 'payment_status'
  | 'status'
  | 'success_url'
  | 'url'
  | 'ui_mode'
  | 'client_secret'
> & {
  customer: string | null;
  customer_details: {
    email: string | null;
    name: string | null;
    phone: string | null;
    address: null;
    tax_exempt: 'none';
    tax_ids: [];
  } | null;
  invoice: string | null;
  payment_intent: string | null;
  subscription: string | null;
};

export type CustomerObject = Pick<
  Stripe.Customer,
  | 'id'
  | 'object'
  | 'balance'
  | 'created'
  | 'default_source'
  | 'description'
  | 'email'
  | 'livemode'
  | 'metadata'
  | 'name'
>;

export type PaymentIntentObject = Pick<
  Stripe.PaymentIntent,
  | 'id'
  | 'object'
  | 'amount'
  | 'amount_capturable'
  | 'amount_received'
  | 'canceled_at'
  | 'cancellation_reason'
  | 'capture_method'
  | 'client_secret'
  | 'confirmation_method'
  | 'created'
  | 'currency'
  | 'description'
  | 'livemode'
  | 'metadata'
  | 'next_action'
  | 'payment_method_types'
  | 'status'
> & {
  customer: string | null;
  latest_charge: string | null;
  payment_method: string | null;
  last_payment_error: { code: string; message: string; type: 'card_error' | 'invalid_request_error' } | null;
};

export type ChargeObject = Pick<
  Stripe.Charge,
  | 'id'
  | 'object'
  | 'amount'
  | 'amount_captured'
  | 'amount_refunded'
  | 'captured'
  | 'created'
  | 'currency'
  | 'description'
  | 'disputed'
  | 'failure_code'
  | 'failure_message'
  | 'livemode'
  | 'metadata'
  | 'paid'
  | 'receipt_url'
  | 'refunded'
  | 'status'
> & {
  balance_transaction: string | null;
  customer: string | null;
  payment_intent: string | null;
  payment_method: string | null;
  billing_details: { email: string | null; name: string | null; phone: string | null; address: null };
  payment_method_details: { type: string };
};

export type RefundObject = Pick<
  Stripe.Refund,
  'id' | 'object' | 'amount' | 'created' | 'currency' | 'metadata' | 'reason' | 'receipt_number' | 'status'
> & { balance_transaction: string | null; charge: string; payment_intent: string | null };

export type DisputeObject = Pick<
  Stripe.Dispute,
  | 'id'
  | 'object'
  | 'amount'
  | 'created'
  | 'currency'
  | 'is_charge_refundable'
  | 'livemode'
  | 'metadata'
  | 'reason'
  | 'status'
> & {
  charge: string;
  payment_intent: string | null;
  balance_transactions: [];
  evidence_details: { due_by: number; has_evidence: boolean; past_due: boolean; submission_count: number };
};

export type SubscriptionItemObject = Pick<
  Stripe.SubscriptionItem,
  'id' | 'object' | 'created' | 'current_period_end' | 'current_period_start' | 'metadata' | 'subscription'
> & { price: PriceObject; quantity: number };

export type SubscriptionObject = Pick<
  Stripe.Subscription,
  | 'id'
  | 'object'
  | 'billing_cycle_anchor'
  | 'cancel_at'
  | 'cancel_at_period_end'
  | 'canceled_at'
  | 'collection_method'
  | 'created'
  | 'currency'
  | 'description'
  | 'ended_at'
  | 'livemode'
  | 'metadata'
  | 'start_date'
  | 'status'
  | 'trial_end'
  | 'trial_start'
> & {
  customer: string;
  latest_invoice: string | null;
  items: ListObject<SubscriptionItemObject>;
  cancellation_details: { comment: null; feedback: null; reason: 'cancellation_requested' } | null;
};

export interface InvoiceLineObject {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string | null;
  invoice: string;
  livemode: false;
  metadata: Record<string, string>;
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string }; unit_amount_decimal: string };
  quantity: number;
  subscription: string;
  subtotal: number;
}

export type InvoiceObject = Pick<
  Stripe.Invoice,
  | 'id'
  | 'object'
  | 'amount_due'
  | 'amount_overpaid'
  | 'amount_paid'
  | 'amount_remaining'
  | 'attempt_count'
  | 'attempted'
  | 'billing_reason'
  | 'collection_method'
  | 'created'
  | 'currency'
  | 'customer_email'
  | 'hosted_invoice_url'
  | 'livemode'
  | 'metadata'
  | 'number'
  | 'period_end'
  | 'period_start'
  | 'status'
  | 'subtotal'
  | 'total'
> & {
  customer: string;
  lines: ListObject<InvoiceLineObject>;
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { subscription: string; metadata: Record<string, string> };
  };
  status_transitions: { finalized_at: number; paid_at: number | null; marked_uncollectible_at: null; voided_at: null };
};

export type EventObject = Pick<
  Stripe.Event,
  'id' | 'object' | 'api_version' | 'created' | 'livemode' | 'pending_webhooks'
> & {
  type: string;
  data: { object: StoredObject; previous_attributes?: Record<string, unknown> };
  request: { id: string | null; idempotency_key: string | null };
};

export type StoredObject =
  | SessionObject
  | CustomerObject
  | PaymentIntentObject
  | ChargeObject
  | RefundObject
  | DisputeObject
  | SubscriptionObject
  | InvoiceObject
  | EventObject;

export type ObjectKind = StoredObject['object'];
export type ObjectOf<K extends ObjectKind> = Extract<StoredObject, { object: K }>;

/** The end of a billing period that starts at `start` (epoch seconds), in calendar terms as Stripe bills. */
export function periodEnd(start: number, recurring: Recurring): number {
  const d = new Date(start * 1000);
  const n = recurring.interval_count;
  if (recurring.interval === 'day') d.setUTCDate(d.getUTCDate() + n);
  if (recurring.interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * n);
  if (recurring.interval === 'month') d.setUTCMonth(d.getUTCMonth() + n);
  if (recurring.interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + n);
  return Math.floor(d.getTime() / 1000);
}
