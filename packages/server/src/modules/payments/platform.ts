import type { Provider } from '@till/protocol';
import type { Outcome } from '../../errors.js';
import type { ModuleHost } from '../../http/module.js';
import type { PaymentPorts } from './provider.js';

/** A purchase an in-app store vouches for, once its transaction has been verified. */
export interface VerifiedPurchase {
  /** The store's own transaction id: a transaction is recorded once, for one buyer. */
  transactionId: string;
  /** The store's product ids bought, one entry per unit. */
  storeProductIds: string[];
  /**
   * The store's references to keep with the order, so that the store's later notifications (a
   * renewal, a refund) find it: Apple's original transaction id, Google's purchase token.
   */
  refs?: { kind: string; ref: string }[];
  /** When the store says a subscription's current period ends (epoch ms): the entitlement follows it. */
  expiresAt?: number;
  /**
   * The store's id of the renewal this purchase's current period was paid by, when it is not
   * `transactionId` (Google's `GPA.…..0`): the store's renewal notification is applied under the
   * same key, so the period is granted once, by whichever of the two comes first.
   */
  renewalId?: string;
  /**
   * The time a later transaction of a subscription paid for (epoch ms), where the store may have
   * put it on the order the subscription's first transaction made (Apple's DID_RENEW): a refund of
   * this purchase's order ends that time there too.
   */
  paidTime?: { subscription: string; from: number; until: number };
  /**
   * A store's test purchase (Apple's sandbox, a Google Play license tester's): no money was taken,
   * and the order is marked so that administrators can tell it from a sale.
   */
  sandbox?: boolean;
}

/** A well-formed transaction the store does not vouch for: validatePurchase answers `result: 0, reason`. */
export interface RefusedPurchase {
  refused: string;
}

/**
 * An in-app store's validator: it reads the transaction the store plugin reports for its platform
 * and says whether the store really took the money, without touching orders (the flows layer
 * records what it verified, through {@link PaymentPorts} for notifications).
 */
export interface StorePlatform {
  /** The provider recorded on the orders it pays. */
  readonly provider: Provider;
  /** The plugin's name for the platform (`platform` in its transaction: `test`, `ios-appstore`, `android-playstore`). */
  readonly platform: string;
  /** A known platform that is switched off here answers `platform_disabled` rather than `unsupported_platform`. */
  readonly enabled: boolean;
  /**
   * 907 (`transactionData`) when the transaction is not shaped as this platform's; a refusal when it
   * is well formed but the store does not vouch for it (a bad signature, another app, not paid).
   */
  verify(transaction: unknown): Promise<Outcome<VerifiedPurchase | RefusedPurchase>>;
  /**
   * Runs once the purchase is recorded and granted (Google's acknowledge and consume); a failure here
   * is logged and left for the store's own retry, never undoing the grant.
   */
  afterGrant?(purchase: VerifiedPurchase): Promise<void>;
  /**
   * Asks the store for {@link VerifiedPurchase.paidTime} of a transaction recorded before orders
   * kept it; undefined when it is none (not a subscription's later transaction), 910 when the store
   * cannot answer now.
   */
  paidTimeOf?(transactionId: string): Promise<Outcome<VerifiedPurchase['paidTime']>>;
  /** Registers the store's notification endpoint, if it has one. */
  register?(host: ModuleHost, ports: PaymentPorts): Promise<void> | void;
}
