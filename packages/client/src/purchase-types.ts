import type { ValidatePurchaseData } from '@till/protocol';
import type { DataAnswer } from './answers.js';
import type { AdapterTransaction, StoreAdapter, StoreProductDefinition } from './store-adapter.js';

/**
 * A product the flow sells, kept current from the store's updates.
 *
 * @example
 * flow.products.filter((p) => p.canPurchase).map((p) => p.alias);
 */
export interface PurchaseProduct extends StoreProductDefinition {
  loaded: boolean;
  valid: boolean;
  canPurchase: boolean;
  owned: boolean;
  title?: string;
  /** Price as the store formats it (the buyer's currency and locale). */
  price?: string;
  priceMicros?: number;
  currency?: string;
}

/**
 * A product to sell, with what to do once the server has verified a purchase of it.
 *
 * @example
 * const p: PurchaseProductInput = { id: 'com.example.pro', alias: 'pro-unlock', type: ProductType.NonConsumable, callback: () => unlockPro() };
 */
export interface PurchaseProductInput extends StoreProductDefinition {
  callback?: (product: PurchaseProduct, transaction: AdapterTransaction) => void;
}

/**
 * What the flow tells its parent: the store messages 799 (ordered), 801 (approved), 800 (finished),
 * 804 (order error, with `{}`), and the user cancelling or the store failing.
 *
 * @example
 * onMessage: (m) => { if (m.code === 800) say('Thank you!'); else if (m.type === 'error') say(m.data.message); }
 */
export type StoreMessage =
  | { type: 'ordered'; code: 799; data: { productId: string } }
  | { type: 'approved'; code: 801; data: { productId: string; transactionId: string } }
  | { type: 'finished'; code: 800; data: { productId: string; transactionId: string } }
  | { type: 'orderError'; code: 804; data: Record<string, never> }
  | { type: 'cancelled'; code?: undefined; data: { productId?: string } }
  | { type: 'error'; code?: undefined; data: { message: string; productId?: string; code?: number } };

/**
 * What {@link PurchaseFlow.purchase} did: how many units were bought and the flow's last message
 * (null when nothing was ordered). `refused: 'onlyOne'` says more than one unit of a non-consumable
 * or subscription was asked for, and nothing was ordered.
 *
 * @example
 * const { bought, message, refused } = await flow.purchase('credits-100', 2);
 */
export interface PurchaseResult {
  bought: number;
  message: StoreMessage | null;
  refused?: 'onlyOne';
}

/**
 * What {@link PurchaseFlow.restore} found: each owned transaction the store restored, and whether
 * the server verified it again (`products`: the products it answered for).
 *
 * @example
 * const { restored } = await flow.restore();
 * restored.filter((r) => r.verified).map((r) => r.productId);
 */
export interface RestoreResult {
  restored: { productId: string; transactionId: string; verified: boolean; products: string[] }[];
}

/**
 * The validator the flow calls: {@link StoreClient.validatePurchase} fits.
 *
 * @example
 * const validatePurchase: PurchaseValidator = (tx, path) => till.store.validatePurchase(tx, path);
 */
export type PurchaseValidator = (
  transaction: unknown,
  validatorPath: string,
) => Promise<DataAnswer<ValidatePurchaseData>>;

/**
 * Options of {@link PurchaseFlow}.
 *
 * @example
 * const options: PurchaseFlowOptions = { adapter, store: till.store, onMessage: (m) => console.log(m), forceVerify: true };
 */
export interface PurchaseFlowOptions {
  adapter: StoreAdapter;
  /** Where approved transactions are verified; pass the `StoreClient` (or its `validatePurchase`). */
  store: { validatePurchase: PurchaseValidator };
  /** The parent: receives every {@link StoreMessage}. */
  onMessage: (message: StoreMessage) => void;
  products?: readonly PurchaseProductInput[];
  /** Called whenever a product's state changes. */
  onProductsChange?: (products: readonly PurchaseProduct[]) => void;
  /** Verify approved transactions on the server before finishing them; default true. */
  forceVerify?: boolean;
  /** Validator path; default `api/store/validatePurchase`. */
  validatorPath?: string;
  /**
   * The callback variant of validation: receives the validator's `data`, and the transaction is
   * finished only when `data.result` is 1 (product callbacks are then the app's business).
   */
  onValidation?: (data: ValidatePurchaseData, transaction: AdapterTransaction) => void;
  /** Subscribes to the app's resume event (Capacitor `App`, `visibilitychange`); the flow refreshes the store on it. */
  onResume?: (listener: () => void) => () => void;
}
