import type { FastifyReply } from 'fastify';
import { Failure, fail, type Outcome } from '../../../../errors.js';
import type { ModuleHost } from '../../../../http/module.js';
import type { PaymentsDeps } from '../../deps.js';
import type { RefusedPurchase, StorePlatform, VerifiedPurchase } from '../../platform.js';
import type { PaymentPorts, ProviderEvent } from '../../provider.js';
import type { GooglePlayConfig } from './config.js';
import {
  REFUND_PARTIAL,
  SubscriptionNotification as N,
  VOIDED_CHARGEBACK,
  pushMessage,
  readNotification,
  type DeveloperNotification,
} from './events.js';
import { PlayApi, PlayApiError, type SubscriptionPurchase } from './play-api.js';
import { PushAuth } from './push-auth.js';
import { playTransaction, purchaseOf } from './transaction.js';

/** The product types of the catalogue (protocol: 0 consumable, 1 non-consumable, 2 subscription). */
const CONSUMABLE = 0;
const SUBSCRIPTION = 2;

/** Subscription states in which the buyer has paid for the current period. */
const PAID_STATES = new Set(['SUBSCRIPTION_STATE_ACTIVE', 'SUBSCRIPTION_STATE_IN_GRACE_PERIOD']);

/** What afterGrant needs of a verified purchase, kept beside it from verify. */
interface PlayPurchase {
  subscription: boolean;
  productId: string;
  token: string;
  acknowledged: boolean;
  /** A consumable not consumed yet: consumed after the grant, so that the buyer can buy it again. */
  consume: boolean;
}

/** Something for the webhook to apply, or why it applies nothing. */
type Change = { event: ProviderEvent } | { ignored: string };

/**
 * Google Play (the store plugin's `android-playstore` platform). A purchase is what the Play
 * Developer API says of its token, never what the device says; a granted purchase is then
 * acknowledged (Google refunds one left unacknowledged for three days) and a consumable consumed.
 * Real-time developer notifications arrive as Pub/Sub pushes and are checked with the API again.
 */
export class GooglePlayPlatform implements StorePlatform {
  readonly provider = 'googleplay' as const;
  readonly platform = 'android-playstore';
  readonly enabled = true;
  private readonly api: PlayApi;
  private readonly pushAuth: PushAuth;
  private readonly verified = new WeakMap<VerifiedPurchase, PlayPurchase>();

  constructor(
    private readonly deps: PaymentsDeps,
    private readonly config: GooglePlayConfig,
  ) {
    this.api = new PlayApi(config);
    this.pushAuth = new PushAuth(config);
  }

  async verify(transaction: unknown): Promise<Outcome<VerifiedPurchase | RefusedPurchase>> {
    const parsed = playTransaction.safeParse(transaction);
    if (!parsed.success) return fail.invalidInput('transactionData', 'invalid');
    const asked = purchaseOf(parsed.data);
    if (!asked) return fail.invalidInput('transactionData', 'invalid');
    if (asked.packageName !== this.config.packageName) return { refused: 'wrong_package' };
    // One product per purchase: only a subscription bundle names several, and this store sells none.
    const [productId] = asked.productIds;
    if (!productId || asked.productIds.length > 1) return { refused: 'unsupported_purchase' };
    const type = await this.productType(productId);
    if (type === undefined) return { refused: 'unknown_product' };
    try {
      // Awaited here, so that the API's refusal is caught below.
      return type === SUBSCRIPTION
        ? await this.verifySubscription(productId, asked.purchaseToken)
        : await this.verifyProduct(productId, asked.purchaseToken, type === CONSUMABLE);
    } catch (error) {
      if (!(error instanceof PlayApiError)) throw error;
      if (error.kind === 'unknown') return { refused: 'unknown_purchase' };
      this.deps.log.warn({ status: error.status, err: error.message }, 'Play Developer API unavailable');
      return fail.paymentRejected('provider_error');
    }
  }

  private async verifyProduct(productId: string, token: string, consumable: boolean) {
    const p = await this.api.product(productId, token);
    if (p.purchaseState === 2) return { refused: 'pending' };
    if (p.purchaseState !== 0) return { refused: 'cancelled' };
    const quantity = Math.min(Math.max(p.quantity ?? 1, 1), 20);
    const purchase: VerifiedPurchase = {
      // A promotional code's purchase has no order id: its token is then the transaction's key.
      transactionId: p.orderId ?? `token:${token}`,
      storeProductIds: Array.from({ length: quantity }, () => productId),
      refs: [{ kind: 'purchase', ref: token }],
      // A license tester's purchase (`purchaseType` 0) takes no money.
      ...(p.purchaseType === 0 ? { sandbox: true } : {}),
    };
    this.verified.set(purchase, {
      subscription: false,
      productId,
      token,
      acknowledged: p.acknowledgementState === 1,
      consume: consumable && p.consumptionState !== 1,
    });
    return purchase;
  }

  private async verifySubscription(productId: string, token: string) {
    const s = await this.api.subscription(token);
    const line = s.lineItems?.find((l) => l.productId === productId);
    if (!line) return { refused: 'unknown_purchase' };
    if (s.subscriptionState === 'SUBSCRIPTION_STATE_PENDING') return { refused: 'pending' };
    const expiresAt = line.expiryTime ? Date.parse(line.expiryTime) : NaN;
    if (!PAID_STATES.has(s.subscriptionState ?? '') || !Number.isFinite(expiresAt)) {
      return { refused: s.subscriptionState === 'SUBSCRIPTION_STATE_EXPIRED' ? 'expired' : 'not_active' };
    }
    const order = line.latestSuccessfulOrderId;
    const renewalId = renewalOrderId(order);
    const purchase: VerifiedPurchase = {
      // Each renewal's order id is the first one with `..N` added: the first one names the whole
      // subscription, so validating it again after a renewal is the same transaction.
      transactionId: order ? order.replace(/\.\.\d+$/, '') : `token:${token}`,
      storeProductIds: [productId],
      refs: [{ kind: 'subscription', ref: token }],
      expiresAt,
      // First reported after a renewal: the renewal's push must not grant the period again.
      ...(renewalId ? { renewalId } : {}),
      // The v2 resource carries `testPurchase` (an empty object) only for a license tester's purchase.
      ...(s.testPurchase ? { sandbox: true } : {}),
    };
    this.verified.set(purchase, {
      subscription: true,
      productId,
      token,
      acknowledged: s.acknowledgementState === 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED',
      consume: false,
    });
    return purchase;
  }

  /** Acknowledges (and consumes) only what verify saw unacknowledged (and unconsumed), once, after the grant. */
  async afterGrant(purchase: VerifiedPurchase): Promise<void> {
    const p = this.verified.get(purchase);
    if (!p) return;
    this.verified.delete(purchase);
    if (!p.acknowledged) {
      if (p.subscription) await this.api.acknowledgeSubscription(p.productId, p.token);
      else await this.api.acknowledgeProduct(p.productId, p.token);
    }
    if (p.consume) await this.api.consume(p.productId, p.token);
  }

  /** The catalogue's type of the product this Google Play id names, asked of the store. */
  private async productType(storeId: string): Promise<number | undefined> {
    return this.deps.catalog?.typeOfStoreId(storeId, 'googleplay');
  }

  register({ app }: ModuleHost, ports: PaymentPorts): void {
    app.post('/api/payments/webhook/google', async (request, reply) => {
      const query = request.query as Record<string, unknown> | undefined;
      const secret = typeof query?.token === 'string' ? query.token : undefined;
      const auth = await this.pushAuth.check(request.headers.authorization, secret);
      if (auth === 'missing') return reply.status(401).send({ error: 'unauthenticated' });
      if (auth !== 'ok') {
        // The subscription's audience or service account not matching the configuration shows here.
        const { refused: reason, ...claims } = auth;
        this.deps.log.warn({ reason, ...claims }, 'Google push refused');
        return reply.status(403).send({ error: 'forbidden' });
      }
      const push = pushMessage.safeParse(request.body);
      if (!push.success) return reply.status(400).send({ error: 'not_a_push_message' });
      const notification = readNotification(push.data.message.data);
      // Pub/Sub would send an unreadable message again and again: it is taken, and logged.
      if (!notification) {
        this.deps.log.warn({ messageId: push.data.message.messageId }, 'Google push without a notification');
        return { received: true, ignored: 'unreadable' };
      }
      if (notification.packageName !== this.config.packageName) return { received: true, ignored: 'other_package' };
      let change: Change;
      try {
        change = await this.changeOf(notification, push.data.message.messageId);
      } catch (error) {
        if (!(error instanceof PlayApiError)) throw error;
        if (error.kind === 'unknown') return { received: true, ignored: 'unknown_purchase' };
        this.deps.log.warn({ status: error.status, err: error.message }, 'Play Developer API unavailable');
        return this.retryLater(reply);
      }
      if ('ignored' in change) return { received: true, ignored: change.ignored };
      const applied = await ports.applyEvent(this.provider, change.event);
      if (applied instanceof Failure) {
        // Not yet applicable: Pub/Sub sends it again.
        if (applied.body.code === 912) return reply.status(409).send({ error: 'not_yet' });
        // A purchase never validated here, or an event that can never apply: retrying changes nothing.
        return { received: true, refused: applied.body.code };
      }
      return { received: true, applied: applied.applied };
    });
  }

  private retryLater(reply: FastifyReply) {
    return reply.status(503).send({ error: 'unavailable' });
  }

  /**
   * What a notification does, from what the API says now (the push's content alone is never
   * trusted): each Pub/Sub message is one event, keyed by its message id.
   */
  private async changeOf(n: DeveloperNotification, messageId: string): Promise<Change> {
    const eventId = `pubsub:${messageId}`;
    if (n.voidedPurchaseNotification) {
      const v = n.voidedPurchaseNotification;
      // Only a whole purchase given back is reversed; a partial refund changes no status, as a
      // partial refund made in Stripe's dashboard does not.
      if (v.refundType === REFUND_PARTIAL) return { ignored: 'partial_refund' };
      const voided = await this.api.voided(v.purchaseToken, this.deps.now());
      if (!voided) return { ignored: 'not_voided' };
      const reason = voided.voidedReason === VOIDED_CHARGEBACK ? 'chargeback' : 'refund';
      return { event: { kind: 'reversed', reason, eventId, ref: v.purchaseToken } };
    }
    if (n.subscriptionNotification) {
      const { notificationType: type, purchaseToken: ref } = n.subscriptionNotification;
      switch (type) {
        case N.RENEWED:
        case N.RECOVERED:
        case N.DEFERRED: {
          const s = await this.api.subscription(ref);
          const expiresAt = paidUntil(s, this.deps.now());
          if (expiresAt === undefined) return { ignored: 'not_active' };
          // Keyed by the renewal's order id, as validatePurchase keys a purchase first reported
          // after that renewal: the period is granted once, whichever comes first.
          const renewalId = renewalOrderId(latestLine(s)?.latestSuccessfulOrderId);
          return { event: { kind: 'renewed', eventId: renewalId ?? eventId, ref, expiresAt } };
        }
        case N.EXPIRED: {
          const s = await this.api.subscription(ref);
          if (s.subscriptionState !== 'SUBSCRIPTION_STATE_EXPIRED') return { ignored: 'not_expired' };
          return { event: { kind: 'ended', eventId, ref } };
        }
        case N.REVOKED: {
          // Revoked is refunded and ended at once: Google no longer lists it as paid.
          const s = await this.api.subscription(ref);
          if (PAID_STATES.has(s.subscriptionState ?? '')) return { ignored: 'not_revoked' };
          return { event: { kind: 'reversed', reason: 'refund', eventId, ref } };
        }
        default:
          // CANCELED turns auto-renewal off: the paid time stays until it runs out, and EXPIRED
          // follows. PURCHASED is recorded by validatePurchase (only the app knows the buyer);
          // grace, hold, pause and restart change no paid time here.
          return { ignored: `subscription_${type}` };
      }
    }
    // One-time products: a purchase is recorded by validatePurchase; a cancelled pending one was
    // never granted. Their refunds come as voided purchases.
    if (n.oneTimeProductNotification) return { ignored: `one_time_${n.oneTimeProductNotification.notificationType}` };
    if (n.testNotification) return { ignored: 'test' };
    return { ignored: 'unknown_notification' };
  }
}

/** When a subscription the API calls paid runs out (its latest line's expiry), if it is paid and runs on. */
function paidUntil(s: SubscriptionPurchase, now: number): number | undefined {
  if (!PAID_STATES.has(s.subscriptionState ?? '')) return undefined;
  const ends = (s.lineItems ?? []).map((l) => (l.expiryTime ? Date.parse(l.expiryTime) : NaN)).filter(Number.isFinite);
  const latest = Math.max(...ends);
  return ends.length && latest > now ? latest : undefined;
}

/** The line that runs longest: the one whose latest order paid the current period. */
function latestLine(s: SubscriptionPurchase) {
  const end = (l: { expiryTime?: string | null }) => (l.expiryTime ? Date.parse(l.expiryTime) : -Infinity);
  return (s.lineItems ?? []).reduce<(typeof s.lineItems & object)[number] | undefined>(
    (best, l) => (!best || end(l) > end(best) ? l : best),
    undefined,
  );
}

/** A renewal's order id (`GPA.…..N`); undefined for the first order of a subscription, or none. */
function renewalOrderId(order: string | null | undefined): string | undefined {
  return order && /\.\.\d+$/.test(order) ? order : undefined;
}
