import type { JWSTransactionDecodedPayload, ResponseBodyV2DecodedPayload } from '@apple/app-store-server-library';
import { z } from 'zod';
import { Failure, fail, type Outcome } from '../../../../errors.js';
import type { ModuleHost } from '../../../../http/module.js';
import type { PaymentsDeps } from '../../deps.js';
import type { RefusedPurchase, StorePlatform, VerifiedPurchase } from '../../platform.js';
import type { PaymentPorts } from '../../provider.js';
import { orderOfEvent } from '../../events.js';
import { orderOfRef } from '../../refs.js';
import type { AppStoreConfig } from './config.js';
import { AppleStore, NotFetched, NotVerified, type Verified } from './apple.js';
import { changeOf, eventOf, periodOf, refsToTry, type Change, type ReversalScope } from './events.js';
import { appStoreTransaction, evidenceOf, type Evidence } from './transaction.js';

/** Apple sells at most 10 of a consumable at once; anything far past that is not a real purchase. */
const MAX_QUANTITY = 50;

const notificationBody = z.object({ signedPayload: z.string().min(1).max(200_000) });

/**
 * The App Store (`ios-appstore` in cordova-plugin-purchase): validatePurchase trusts only what Apple
 * signed, checked by Apple's library against the configured root certificates, the bundle id, the
 * app's Apple id and the environment; App Store Server Notifications v2 keep the orders in step
 * (renewals, expiries, refunds).
 */
export class AppStorePlatform implements StorePlatform {
  readonly provider = 'appstore' as const;
  readonly platform = 'ios-appstore';
  readonly enabled = true;
  private readonly apple: AppleStore;

  constructor(
    private readonly deps: PaymentsDeps,
    config: AppStoreConfig,
  ) {
    this.apple = new AppleStore(config);
  }

  async verify(transaction: unknown): Promise<Outcome<VerifiedPurchase | RefusedPurchase>> {
    const parsed = appStoreTransaction.safeParse(transaction);
    const evidence = parsed.success ? evidenceOf(parsed.data) : undefined;
    if (!evidence) return fail.invalidInput('transactionData', 'invalid');
    let tx: Verified<JWSTransactionDecodedPayload> | undefined;
    try {
      tx = await this.read(evidence);
    } catch (error) {
      if (!(error instanceof NotVerified || error instanceof NotFetched)) throw error;
      const level = error.reason === 'store_unavailable' || error.reason === 'unverifiable' ? 'error' : 'warn';
      this.deps.log[level]({ reason: error.reason, ...fetchDetails(error) }, 'App Store purchase not verified');
      return { refused: error.reason };
    }
    if (!tx) return { refused: 'no_purchase' };
    return this.purchaseOf(tx);
  }

  async paidTimeOf(transactionId: string): Promise<Outcome<VerifiedPurchase['paidTime']>> {
    let tx: JWSTransactionDecodedPayload;
    try {
      tx = (await this.apple.fetchTransaction(transactionId)).payload;
    } catch (error) {
      if (!(error instanceof NotVerified || error instanceof NotFetched)) throw error;
      this.deps.log.warn({ reason: error.reason, ...fetchDetails(error) }, 'App Store transaction not fetched');
      return fail.paymentRejected('provider_error');
    }
    const period = periodOf(tx);
    const original = tx.originalTransactionId;
    return period && original && original !== tx.transactionId ? { subscription: original, ...period } : undefined;
  }

  /** Apple's transaction for the evidence: verified as sent, or fetched from Apple's API and verified. */
  private async read(evidence: Evidence): Promise<Verified<JWSTransactionDecodedPayload> | undefined> {
    if ('jws' in evidence) return this.apple.transaction(evidence.jws);
    const id =
      'transactionId' in evidence ? evidence.transactionId : await this.apple.transactionIdOfReceipt(evidence.receipt);
    return id === undefined ? undefined : this.apple.fetchTransaction(id);
  }

  /** What a verified transaction bought, or why it does not count (revoked, an expired subscription). */
  private async purchaseOf({
    payload: tx,
    sandbox,
  }: Verified<JWSTransactionDecodedPayload>): Promise<VerifiedPurchase | RefusedPurchase> {
    const { Type } = await this.apple.library();
    const { transactionId, originalTransactionId, productId } = tx;
    if (!transactionId || !productId) return { refused: 'invalid_transaction' };
    if (tx.revocationDate !== undefined) return { refused: 'revoked' };
    const quantity = tx.quantity ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) return { refused: 'quantity' };
    const refs = [{ kind: 'transaction', ref: transactionId }];
    const purchase: VerifiedPurchase = {
      transactionId,
      storeProductIds: Array.from({ length: quantity }, () => productId),
      refs,
      ...(sandbox ? { sandbox } : {}),
    };
    if (tx.type === Type.AUTO_RENEWABLE_SUBSCRIPTION) {
      if (tx.expiresDate === undefined || tx.expiresDate <= this.deps.now()) return { refused: 'expired' };
      purchase.expiresAt = tx.expiresDate;
      // The subscription's notifications name its original transaction: it leads to this order.
      if (originalTransactionId) {
        if (originalTransactionId === transactionId) refs.length = 0;
        refs.unshift({ kind: 'subscription', ref: originalTransactionId });
        const period = periodOf(tx);
        if (originalTransactionId !== transactionId && period) {
          purchase.paidTime = { subscription: originalTransactionId, ...period };
        }
      }
    }
    return purchase;
  }

  /**
   * App Store Server Notifications v2 at `POST /api/payments/webhook/apple`. Apple resends anything
   * not answered 2xx, so: 400 for a payload that does not verify, 503 when it could not be checked
   * now (a revocation check that did not answer), 409 for an event that cannot apply yet, and 200 for
   * everything accepted, repeated or ignored. Each notification (its `notificationUUID`) is applied
   * once.
   */
  register({ app }: ModuleHost, ports: PaymentPorts): void {
    app.post('/api/payments/webhook/apple', async (request, reply) => {
      const body = notificationBody.safeParse(request.body);
      if (!body.success) return reply.status(400).send({ error: 'invalid' });
      let notification: ResponseBodyV2DecodedPayload;
      let tx: JWSTransactionDecodedPayload | undefined;
      try {
        notification = (await this.apple.notification(body.data.signedPayload)).payload;
        // The transaction inside is signed on its own, and verified as such.
        const signed = notification.data?.signedTransactionInfo;
        tx = signed ? (await this.apple.transaction(signed)).payload : undefined;
      } catch (error) {
        if (!(error instanceof NotVerified)) throw error;
        this.deps.log.warn({ reason: error.reason }, 'App Store notification not verified');
        return reply.status(error.reason === 'unverifiable' ? 503 : 400).send({ error: error.reason });
      }
      const answer = await this.apply(notification, tx, ports);
      return reply.status(answer.status).send(answer.body);
    });
  }

  private async apply(
    n: ResponseBodyV2DecodedPayload,
    tx: JWSTransactionDecodedPayload | undefined,
    ports: PaymentPorts,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const type = n.notificationType ?? 'unknown';
    const change = tx && changeOf(n, tx);
    if (!tx || !change || !n.notificationUUID) return { status: 200, body: { received: true, ignored: type } };
    const target = await this.targetOf(change, tx, n.notificationUUID);
    // No order: the app never reported this purchase here, so nothing was granted to change.
    const order = target ? await ports.findOrder(target.orderId) : undefined;
    if (!target || !order) return { status: 200, body: { received: true, ignored: type } };
    const applied = await ports.applyEvent(
      this.provider,
      eventOf(change, target.eventId, order.iden, order.total, target.scope),
    );
    if (applied instanceof Failure) {
      if (applied.body.code === 912) return { status: 409, body: { error: 'not_yet' } };
      return { status: 200, body: { received: true, refused: applied.body.code } };
    }
    return { status: 200, body: { received: true, applied: applied.applied } };
  }

  /**
   * The order a change applies to and the key it is applied under. A renewal is keyed by its
   * transaction id, as validatePurchase keys the app's report of it, so that the renewal is granted
   * once whichever comes first. A refunded transaction with no order of its own is a renewal
   * DID_RENEW applied to the subscription's first order: only its period (and, when it was applied
   * under its transaction id, its credits) is taken back there, once per transaction.
   */
  private async targetOf(
    change: Change,
    tx: JWSTransactionDecodedPayload,
    notificationId: string,
  ): Promise<{ orderId: string; eventId: string; scope?: ReversalScope } | undefined> {
    const own = tx.transactionId;
    const original = tx.originalTransactionId;
    if (change.kind === 'reversed' && own && original && own !== original) {
      const ownOrder = await orderOfRef(this.deps.db, this.provider, own);
      if (ownOrder) return { orderId: ownOrder, eventId: notificationId, scope: await this.paidTime(tx) };
      const period = periodOf(tx);
      const renewedOn = await orderOfEvent(this.deps.db, this.provider, own);
      const orderId = renewedOn ?? (await orderOfRef(this.deps.db, this.provider, original));
      if (!orderId || !period) return undefined;
      return { orderId, eventId: `reversed:${own}`, scope: { renewal: { ...period, credits: !!renewedOn } } };
    }
    for (const ref of refsToTry(change, tx)) {
      const orderId = await orderOfRef(this.deps.db, this.provider, ref);
      if (!orderId) continue;
      if (change.kind === 'renewed') return { orderId, eventId: own ?? notificationId };
      if (change.kind === 'reversed') return { orderId, eventId: notificationId, scope: await this.paidTime(tx) };
      return { orderId, eventId: notificationId };
    }
    return undefined;
  }

  /**
   * Where a refunded subscription transaction's time sits: a renewal Apple announced was applied to
   * the order its original transaction started, whichever order the app's report of it made.
   */
  private async paidTime(tx: JWSTransactionDecodedPayload): Promise<ReversalScope> {
    const period = periodOf(tx);
    const original = tx.originalTransactionId;
    if (!period || !original) return {};
    const subscriptionOrder = await orderOfRef(this.deps.db, this.provider, original);
    return subscriptionOrder ? { paidTime: { orderIds: [subscriptionOrder], ...period } } : {};
  }
}

function fetchDetails(error: NotVerified | NotFetched): Record<string, unknown> {
  return error instanceof NotFetched ? { status: error.status, apiError: error.apiError } : {};
}
