// The slice of cordova-plugin-purchase v13 (`CdvPurchase.store`, also shipped for Capacitor as
// capacitor-plugin-cdv-purchase) that the adapter uses. Structural, so that the SDK never loads the
// plugin itself: the app passes `window.CdvPurchase.store`.

/**
 * An offer of a product (what `order` buys).
 *
 * @example
 * const offer: CdvOfferLike | undefined = store.get('com.example.pro')?.getOffer();
 */
export interface CdvOfferLike {
  id: string;
  productId: string;
}

/**
 * A product as the plugin holds it.
 *
 * @example
 * const product: CdvProductLike | undefined = window.CdvPurchase.store.get('com.example.pro', 'test');
 */
export interface CdvProductLike {
  id: string;
  title?: string;
  canPurchase: boolean;
  owned: boolean;
  /** The first offer's price as the store formats it for the buyer, in micro-units of its ISO 4217 currency. */
  pricing?: { price?: string; priceMicros?: number; currency?: string } | undefined;
  getOffer(id?: string): CdvOfferLike | undefined;
}

/**
 * A transaction as the plugin holds it.
 *
 * @example
 * store.when().approved((t: CdvTransactionLike) => console.log(t.transactionId));
 */
export interface CdvTransactionLike {
  platform: string;
  transactionId: string;
  state?: string;
  purchaseDate?: Date;
  products: { id: string; offerId?: string }[];
  finish(): Promise<void>;
  /**
   * Google Play: the Billing library's purchase (`purchaseToken`, `packageName`, `productIds`,
   * `orderId`, `signature`, and its original JSON as `receipt`), plain JSON.
   */
  nativePurchase?: unknown;
  /** App Store: the transaction that started a subscription. */
  originalTransactionId?: string;
  /** App Store with StoreKit 2: the transaction as Apple signed it (a compact JWS). */
  jwsRepresentation?: string;
  /** App Store: the receipt this transaction belongs to; `appStoreReceipt` is the app receipt (base64, empty with StoreKit 2). */
  parentReceipt?: { nativeData?: { appStoreReceipt?: string; bundleIdentifier?: string } };
}

/**
 * An error the plugin reports.
 *
 * @example
 * store.error((e: CdvErrorLike) => console.warn(e.code, e.message));
 */
export interface CdvErrorLike {
  code: number;
  message: string;
  productId?: string | null;
}

/**
 * The plugin's `store.when()` chain.
 *
 * @example
 * const when: CdvWhenLike = store.when().productUpdated(render);
 */
export interface CdvWhenLike {
  productUpdated(cb: (product: CdvProductLike) => void): CdvWhenLike;
  approved(cb: (transaction: CdvTransactionLike) => void): CdvWhenLike;
}

/**
 * The shape of `CdvPurchase.store` the adapter needs.
 *
 * @example
 * const store: CdvStoreLike = window.CdvPurchase.store;
 */
export interface CdvStoreLike {
  register(products: { id: string; type: string; platform: string }[]): unknown;
  initialize(platforms?: (string | { platform: string; options?: unknown })[]): Promise<unknown>;
  update(): Promise<unknown>;
  /** Replays the buyer's transactions from the store; answers an error, or nothing. */
  restorePurchases(): Promise<CdvErrorLike | undefined>;
  /** Every transaction of the receipts on the device. */
  readonly localTransactions: CdvTransactionLike[];
  get(productId: string, platform?: string): CdvProductLike | undefined;
  order(offer: CdvOfferLike, additionalData?: unknown): Promise<CdvErrorLike | undefined>;
  when(): CdvWhenLike;
  error(cb: (error: CdvErrorLike) => void): unknown;
  off(cb: (...args: never[]) => void): void;
}
