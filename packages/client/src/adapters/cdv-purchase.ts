import { ProductType, type ProductTypeValue } from '@till/protocol';
import type {
  AdapterOrderResult,
  AdapterTransaction,
  StoreAdapter,
  StoreAdapterEvent,
  StoreProductDefinition,
} from '../store-adapter.js';
import type { CdvProductLike, CdvStoreLike, CdvTransactionLike } from './cdv-store.js';

/**
 * The plugin's product type for each of the protocol's (0 consumable, 1 non-consumable,
 * 2 subscription): the plugin names types with strings.
 *
 * @example
 * CDV_PRODUCT_TYPES[1]; // 'non consumable'
 */
export const CDV_PRODUCT_TYPES: Readonly<Record<ProductTypeValue, string>> = {
  [ProductType.Consumable]: 'consumable',
  [ProductType.NonConsumable]: 'non consumable',
  [ProductType.Subscription]: 'paid subscription',
};

/**
 * The plugin's platform names the app may choose from (`CdvPurchase.Platform`).
 *
 * @example
 * new CdvPurchaseAdapter(store, { platform: isAndroid ? CdvPlatform.GooglePlay : CdvPlatform.AppStore });
 */
export const CdvPlatform = {
  Test: 'test',
  GooglePlay: 'android-playstore',
  AppStore: 'ios-appstore',
} as const;

// CdvPurchase.ErrorCode.PAYMENT_CANCELLED (ERROR_CODES_BASE 6777000 + 6).
const PAYMENT_CANCELLED = 6777006;

/**
 * Options of {@link CdvPurchaseAdapter}.
 *
 * @example
 * const options: CdvPurchaseAdapterOptions = { platform: CdvPlatform.Test };
 */
export interface CdvPurchaseAdapterOptions {
  /** The plugin platform; default `test` (the TEST platform, which runs in a plain browser). */
  platform?: string;
  /** Options the platform takes at initialize (Google Play, App Store settings). */
  platformOptions?: unknown;
}

/**
 * A {@link StoreAdapter} over cordova-plugin-purchase v13 (`CdvPurchase.store`). With the default
 * `test` platform the whole purchase flow runs in a browser (the plugin asks through `prompt`).
 *
 * @example
 * const adapter = new CdvPurchaseAdapter(window.CdvPurchase.store, { platform: CdvPlatform.GooglePlay });
 * const flow = new PurchaseFlow({ adapter, store: till.store, onMessage, products });
 * await flow.start();
 */
export class CdvPurchaseAdapter implements StoreAdapter {
  private readonly store: CdvStoreLike;
  private readonly platform: string;
  private readonly platformOptions: unknown;
  private readonly products: StoreProductDefinition[] = [];
  private readonly listeners = new Set<(event: StoreAdapterEvent) => void>();
  private readonly ordering = new Set<string>();
  private readonly native = new Map<string, CdvTransactionLike>();
  private hooked = false;

  constructor(store: CdvStoreLike, options: CdvPurchaseAdapterOptions = {}) {
    this.store = store;
    this.platform = options.platform ?? CdvPlatform.Test;
    this.platformOptions = options.platformOptions;
  }

  register(products: readonly StoreProductDefinition[]): void {
    this.products.push(...products);
    this.store.register(products.map((p) => ({ id: p.id, type: CDV_PRODUCT_TYPES[p.type], platform: this.platform })));
  }

  async initialize(): Promise<void> {
    this.hook();
    const platform =
      this.platformOptions === undefined ? this.platform : { platform: this.platform, options: this.platformOptions };
    await this.store.initialize([platform]);
    this.announceProducts();
  }

  async refresh(): Promise<void> {
    await this.store.update();
    this.announceProducts();
  }

  async restore(): Promise<AdapterTransaction[]> {
    const error = await this.store.restorePurchases();
    if (error) throw new Error(error.message);
    // What the device's receipts hold after the restore, for this platform: finished purchases too,
    // which the plugin does not report as approved again. The server answers for any product.
    const owned = this.store.localTransactions.filter((t) => t.platform === this.platform && !isVirtual(t));
    for (const t of owned) this.native.set(t.transactionId, t);
    return owned.map(toTransaction);
  }

  async order(productId: string): Promise<AdapterOrderResult> {
    const offer = this.store.get(productId, this.platform)?.getOffer();
    if (!offer) return { ok: false, cancelled: false, message: 'This product cannot be bought here' };
    this.ordering.add(productId);
    try {
      const error = await this.store.order(offer);
      if (!error) return { ok: true };
      return { ok: false, cancelled: error.code === PAYMENT_CANCELLED, message: error.message, code: error.code };
    } finally {
      this.ordering.delete(productId);
    }
  }

  async finish(transaction: AdapterTransaction): Promise<void> {
    const native = this.native.get(transaction.id);
    if (!native) throw new Error(`Unknown transaction ${transaction.id}`);
    await native.finish();
  }

  subscribe(listener: (event: StoreAdapterEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private hook(): void {
    if (this.hooked) return;
    this.hooked = true;
    this.store
      .when()
      .productUpdated((p) => {
        if (this.products.some((d) => d.id === p.id)) this.emit({ type: 'product', product: this.stateOf(p.id, p) });
      })
      .approved((t) => {
        if (t.platform !== this.platform || isVirtual(t)) return;
        this.native.set(t.transactionId, t);
        this.emit({ type: 'approved', transaction: toTransaction(t) });
      });
    this.store.error((error) => {
      // The plugin reports an order's failure both as order()'s answer and as an error event; the
      // flow hears of it once, through order().
      if (error.productId && this.ordering.has(error.productId)) return;
      this.emit({
        type: 'error',
        message: error.message,
        code: error.code,
        ...(error.productId ? { productId: error.productId } : {}),
      });
    });
  }

  // After initialize or update every registered product has been answered for: the ones the store
  // does not know are loaded but not valid.
  private announceProducts(): void {
    for (const d of this.products)
      this.emit({ type: 'product', product: this.stateOf(d.id, this.store.get(d.id, this.platform)) });
  }

  private stateOf(id: string, p: CdvProductLike | undefined) {
    const valid = !!p?.getOffer();
    return {
      id,
      loaded: true,
      valid,
      canPurchase: valid && !!p?.canPurchase,
      owned: !!p?.owned,
      ...(p?.title ? { title: p.title } : {}),
      ...(p?.pricing?.price ? { price: p.pricing.price } : {}),
      ...(typeof p?.pricing?.priceMicros === 'number' && p.pricing.currency
        ? { priceMicros: p.pricing.priceMicros, currency: p.pricing.currency }
        : {}),
    };
  }

  private emit(event: StoreAdapterEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

// The App Store adapter (StoreKit 1) lists the app receipt itself as an approved transaction
// `appstore.application` (its product id is the bundle id), and keeps `virtual.<productId>` stand-ins
// while a purchase is under way. Neither is a purchase: the server has nothing to grant for them.
const APPLE_VIRTUAL_TRANSACTION = /^(appstore\.application$|virtual\.)/;

function isVirtual(t: CdvTransactionLike): boolean {
  return t.platform === CdvPlatform.AppStore && APPLE_VIRTUAL_TRANSACTION.test(t.transactionId);
}

/**
 * The JSON the validator receives for a plugin transaction (never the plugin object itself, which is
 * cyclic): the transaction's own fields, and what the server needs to prove it: on `ios-appstore`
 * the StoreKit 2 `jwsRepresentation` (Apple's signed transaction) and the app receipt as
 * `appStoreReceipt`; on `android-playstore` the Billing library's purchase as `nativePurchase`.
 */
export function toTransaction(t: CdvTransactionLike): AdapterTransaction {
  const purchaseDate = t.purchaseDate ? new Date(t.purchaseDate) : undefined;
  const appStoreReceipt = t.parentReceipt?.nativeData?.appStoreReceipt;
  const data = {
    platform: t.platform,
    transactionId: t.transactionId,
    state: t.state,
    products: t.products.map((p) => ({ id: p.id, ...(p.offerId ? { offerId: p.offerId } : {}) })),
    // An unreadable date is left out rather than failing the whole transaction.
    ...(purchaseDate && !Number.isNaN(purchaseDate.getTime()) ? { purchaseDate: purchaseDate.toISOString() } : {}),
    ...(t.originalTransactionId ? { originalTransactionId: t.originalTransactionId } : {}),
    ...(t.jwsRepresentation ? { jwsRepresentation: t.jwsRepresentation } : {}),
    ...(t.nativePurchase !== undefined ? { nativePurchase: t.nativePurchase } : {}),
    ...(appStoreReceipt ? { appStoreReceipt } : {}),
  };
  return { id: t.transactionId, productIds: t.products.map((p) => p.id), platform: t.platform, data };
}
