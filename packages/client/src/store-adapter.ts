import type { ProductTypeValue } from '@till/protocol';

/**
 * A product as the app registers it with the in-app store: its store id, the app's alias, and its
 * type (a `ProductType` of `@till/protocol`).
 *
 * @example
 * const p: StoreProductDefinition = { id: 'com.example.pro', alias: 'pro-unlock', type: ProductType.NonConsumable };
 */
export interface StoreProductDefinition {
  id: string;
  alias: string;
  type: ProductTypeValue;
}

/**
 * What the in-app store says about a product.
 *
 * @example
 * adapterListener({ type: 'product', product: { id: 'com.example.pro', loaded: true, valid: true, canPurchase: true } });
 */
export interface AdapterProductState {
  id: string;
  /** The store has answered about this product (found or not). */
  loaded: boolean;
  /** The store knows the product and can sell it on this device. */
  valid: boolean;
  /** It can be bought now (not owned already, no purchase under way). */
  canPurchase: boolean;
  owned?: boolean;
  title?: string;
  /** Price as the store formats it (the buyer's currency and locale). */
  price?: string;
  /** The same price in millionths of `currency` (to add prices up). */
  priceMicros?: number;
  /** The price's ISO 4217 currency. */
  currency?: string;
}

/**
 * An approved store transaction. `data` is what the validator receives as `transactionData`
 * (JSON text), so it must be plain JSON.
 *
 * @example
 * const tx: AdapterTransaction = { id: 't-1', productIds: ['com.example.pro'], platform: 'test', data: { platform: 'test', transactionId: 't-1', products: [{ id: 'com.example.pro' }] } };
 */
export interface AdapterTransaction {
  id: string;
  productIds: string[];
  platform: string;
  data: unknown;
}

/**
 * What an adapter reports. `approved` may come without a transaction when the store lost it; the
 * flow then reports that it could not verify the purchase.
 *
 * @example
 * listener({ type: 'approved', transaction: tx });
 */
export type StoreAdapterEvent =
  | { type: 'product'; product: AdapterProductState }
  | { type: 'approved'; transaction: AdapterTransaction | null; productId?: string }
  | { type: 'cancelled'; productId?: string }
  | { type: 'error'; message: string; code?: number; productId?: string };

/**
 * The outcome of asking the store to buy something: the purchase UI was opened (approval comes
 * later as an event), the user cancelled, or it failed.
 *
 * @example
 * return { ok: false, cancelled: true, message: 'Purchase cancelled' };
 */
export type AdapterOrderResult = { ok: true } | { ok: false; cancelled: boolean; message: string; code?: number };

/**
 * The narrow interface the {@link PurchaseFlow} drives: one per in-app store library. The SDK ships
 * {@link CdvPurchaseAdapter} (cordova-plugin-purchase v13, any platform including TEST) and
 * {@link FakeStoreAdapter} (scripted, for tests).
 *
 * @example
 * const flow = new PurchaseFlow({ adapter: new CdvPurchaseAdapter(window.CdvPurchase.store), store, onMessage });
 */
export interface StoreAdapter {
  /** Declares the products; called before {@link StoreAdapter.initialize}. */
  register(products: readonly StoreProductDefinition[]): void;
  /** Connects to the store and loads the products. */
  initialize(): Promise<void>;
  /** Reloads products and pending transactions (on app resume, say). */
  refresh(): Promise<void>;
  /** Opens the store's purchase for one product. */
  order(productId: string): Promise<AdapterOrderResult>;
  /**
   * Has the store restore the buyer's purchases (App Store's restore, Google Play's owned purchases)
   * and answers the transactions the buyer owns.
   */
  restore(): Promise<AdapterTransaction[]>;
  /** Tells the store a transaction is delivered (consumed, acknowledged). */
  finish(transaction: AdapterTransaction): Promise<void>;
  /** Calls `listener` with every event; answers a function that stops it. */
  subscribe(listener: (event: StoreAdapterEvent) => void): () => void;
}
