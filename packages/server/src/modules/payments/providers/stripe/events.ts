import type Stripe from 'stripe';
import type { ProviderEvent } from '../../provider.js';

/** Finds the order a payment belongs to when the event names only the payment. */
export interface PaymentLookup {
  /** By payment intent (linked at payment, or read from the intent's own metadata). */
  orderOfPaymentIntent(paymentIntent: string): Promise<string | undefined>;
}

const idOf = (x: string | { id: string } | null | undefined): string | undefined =>
  typeof x === 'string' ? x : (x?.id ?? undefined);

/** The session's references worth keeping: later events name only these. */
function sessionRefs(s: Stripe.Checkout.Session): { kind: string; ref: string }[] {
  const refs: { kind: string; ref: string }[] = [];
  const payment = idOf(s.payment_intent);
  const subscription = idOf(s.subscription);
  if (payment) refs.push({ kind: 'payment', ref: payment });
  if (subscription) refs.push({ kind: 'subscription', ref: subscription });
  return refs;
}

function paidSession(event: Stripe.Event, s: Stripe.Checkout.Session): ProviderEvent | undefined {
  const iden = s.client_reference_id ?? s.metadata?.iden;
  if (!iden) return undefined;
  return {
    kind: 'paid',
    eventId: event.id,
    orderId: iden,
    amount: s.amount_total ?? 0,
    currency: (s.currency ?? '').toUpperCase(),
    refs: sessionRefs(s),
  };
}

async function chargeTarget(
  charge: { payment_intent: string | { id: string } | null; metadata?: Stripe.Metadata | null },
  lookup: PaymentLookup,
): Promise<{ orderId: string } | undefined> {
  const fromMeta = charge.metadata?.iden;
  if (fromMeta) return { orderId: fromMeta };
  const intent = idOf(charge.payment_intent);
  const orderId = intent ? await lookup.orderOfPaymentIntent(intent) : undefined;
  return orderId ? { orderId } : undefined;
}

/**
 * What a Stripe event means for an order, as one of the server's event kinds; undefined for an
 * event that changes nothing here (acknowledged and ignored). Stripe's events map as:
 * - `checkout.session.completed` with `payment_status` paid (or nothing to pay), and
 *   `checkout.session.async_payment_succeeded`: paid, with the amount Stripe took;
 * - `checkout.session.async_payment_failed` and `checkout.session.expired`: failed;
 * - `invoice.paid` for a renewal (`billing_reason: subscription_cycle`): renewed;
 * - `customer.subscription.deleted`: ended;
 * - `charge.refunded` once the whole charge is refunded: reversed (refund); a partial refund changes
 *   no status;
 * - `charge.dispute.created`: reversed (chargeback).
 */
export async function toProviderEvent(event: Stripe.Event, lookup: PaymentLookup): Promise<ProviderEvent | undefined> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = event.data.object;
      return s.payment_status === 'unpaid' ? undefined : paidSession(event, s);
    }
    case 'checkout.session.async_payment_succeeded':
      return paidSession(event, event.data.object);
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const s = event.data.object;
      const iden = s.client_reference_id ?? s.metadata?.iden;
      return iden ? { kind: 'failed', eventId: event.id, orderId: iden } : undefined;
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      if (invoice.billing_reason !== 'subscription_cycle') return undefined;
      const details = invoice.parent?.subscription_details;
      const subscription = idOf(details?.subscription);
      const iden = details?.metadata?.iden;
      const target = iden ? { orderId: iden } : subscription ? { ref: subscription } : undefined;
      if (!target) return undefined;
      return {
        kind: 'renewed',
        eventId: event.id,
        ...target,
        amount: invoice.amount_paid,
        currency: invoice.currency.toUpperCase(),
      };
    }
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      const iden = sub.metadata?.iden;
      return { kind: 'ended', eventId: event.id, ...(iden ? { orderId: iden } : { ref: sub.id }) };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      if (!charge.refunded) return undefined;
      const target = await chargeTarget(charge, lookup);
      return target && { kind: 'reversed', reason: 'refund', eventId: event.id, ...target };
    }
    case 'charge.dispute.created': {
      const dispute = event.data.object;
      const target = await chargeTarget({ payment_intent: dispute.payment_intent, metadata: null }, lookup);
      return target && { kind: 'reversed', reason: 'chargeback', eventId: event.id, ...target };
    }
    default:
      return undefined;
  }
}
