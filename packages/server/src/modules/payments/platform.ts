import type { Provider } from '@till/protocol';
import type { Outcome } from '../../errors.js';

/** A purchase an in-app store vouches for, once its transaction has been verified. */
export interface VerifiedPurchase {
  /** The store's own transaction id: a transaction is recorded once, for one buyer. */
  transactionId: string;
  /** The store's product ids bought, one entry per unit. */
  storeProductIds: string[];
}

/**
 * An in-app store's validator: it reads the transaction the store plugin reports for its platform
 * and says whether the store really took the money, without touching orders (the flows layer
 * records what it verified).
 */
export interface StorePlatform {
  /** The provider recorded on the orders it pays. */
  readonly provider: Provider;
  /** The plugin's name for the platform (`platform` in its transaction). */
  readonly platform: string;
  /** A known platform that is switched off here answers `platform_disabled` rather than `unsupported_platform`. */
  readonly enabled: boolean;
  /** 907 (`transactionData`) when the transaction is not shaped as this platform's. */
  verify(transaction: unknown): Promise<Outcome<VerifiedPurchase>>;
}
