import type {
  CdvErrorLike,
  CdvOfferLike,
  CdvProductLike,
  CdvStoreLike,
  CdvTransactionLike,
  CdvWhenLike,
} from '../adapters/cdv-store.js';

// A scripted `CdvPurchase.store` for the plugin's native platforms (`ios-appstore`,
// `android-playstore`), which cannot run outside a phone. Its transactions have the structures
// cordova-plugin-purchase 13 builds (src/ts/platforms/apple-appstore/appstore-receipt.ts,
// src/ts/platforms/google-play/googleplay-adapter.ts and googleplay-bridge.ts): what the store
// "does" is scripted, what it reports is shaped as the plugin reports it.

/** The app receipt as the plugin's App Store bridge hands it over (`ApplicationReceipt`). */
export interface AppleApplicationReceipt {
  appStoreReceipt: string;
  bundleIdentifier: string;
  bundleShortVersion: string;
  bundleNumericVersion: number;
  bundleSignature: string;
}

/** What StoreKit reports for a purchase (the bridge's `purchased` callback's arguments). */
export interface AppleNativePurchase {
  transactionId: string;
  productId: string;
  originalTransactionId?: string;
  /** StoreKit 2 only: the transaction as Apple signed it. */
  jwsRepresentation?: string;
  quantity?: number;
}

/** The Billing library's purchase as the plugin's Google Play bridge reports it (`Bridge.Purchase`). */
export interface PlayNativePurchase {
  orderId?: string;
  packageName: string;
  productId: string;
  productIds: string[];
  purchaseTime: number;
  developerPayload: string;
  purchaseState: number;
  purchaseToken: string;
  quantity: number;
  acknowledged: boolean;
  consumed?: boolean;
  /** 1 purchased, 2 pending (`Bridge.PurchaseState`). */
  getPurchaseState: number;
  autoRenewing: boolean;
  signature: string;
  /** The purchase's original JSON, as Google signed it. */
  receipt: string;
  accountId: string;
  profileId: string;
}

/**
 * A Google Play purchase as the Billing library gives it: its original JSON is the `receipt`, and
 * the fields beside it repeat it.
 *
 * @example
 * playNativePurchase({ purchaseToken: 'tok', productId: 'till.credits100', packageName: 'com.example.till', orderId: 'GPA.1' });
 */
export function playNativePurchase(p: {
  purchaseToken: string;
  productId: string;
  packageName: string;
  orderId?: string;
  signature?: string;
}): PlayNativePurchase {
  const purchaseTime = Date.now();
  const original = {
    ...(p.orderId !== undefined ? { orderId: p.orderId } : {}),
    packageName: p.packageName,
    productId: p.productId,
    purchaseTime,
    purchaseState: 0,
    purchaseToken: p.purchaseToken,
    quantity: 1,
    acknowledged: false,
  };
  return {
    ...original,
    productIds: [p.productId],
    developerPayload: '',
    getPurchaseState: 1,
    autoRenewing: false,
    // Google signs the original JSON with the app's licensing key; the server does not rely on it.
    signature: p.signature ?? btoa(`signature of ${p.purchaseToken}`),
    receipt: JSON.stringify(original),
    accountId: '',
    profileId: '',
  };
}

type Platform = 'ios-appstore' | 'android-playstore';

interface ScriptedProduct extends CdvProductLike {
  type: string;
  platform: string;
}

/**
 * Options of {@link ScriptedCdvStore}: for each order, what the native store reports (an App Store
 * transaction or a Google Play purchase), or an error.
 */
export interface ScriptedCdvStoreOptions {
  platform: Platform;
  /** App Store: the app receipt (StoreKit 2 leaves `appStoreReceipt` empty). */
  appReceipt?: AppleApplicationReceipt;
  /**
   * App Store with StoreKit 1: the plugin then lists the app receipt as an approved transaction
   * `appstore.application` of its own.
   */
  needAppReceipt?: boolean;
  purchase: (productId: string) => AppleNativePurchase | PlayNativePurchase | CdvErrorLike;
}

/** A transaction with the plugin's fields; `finish` and `parentReceipt` are not enumerable, as in the plugin. */
function transaction(
  platform: Platform,
  fields: Omit<CdvTransactionLike, 'finish' | 'parentReceipt' | 'platform'> & Record<string, unknown>,
  parentReceipt: unknown,
  finish: (t: CdvTransactionLike) => Promise<void>,
): CdvTransactionLike {
  const t = { className: 'Transaction', platform, ...fields } as unknown as CdvTransactionLike;
  Object.defineProperty(t, 'finish', { enumerable: false, get: () => () => finish(t) });
  Object.defineProperty(t, 'parentReceipt', { enumerable: false, get: () => parentReceipt });
  return t;
}

/**
 * The scripted store. `finished` lists the transactions the app finished, `transactions` every one
 * reported.
 *
 * @example
 * const store = new ScriptedCdvStore({ platform: 'android-playstore', purchase: (id) => playNativePurchase({ ... }) });
 * new CdvPurchaseAdapter(store, { platform: CdvPlatform.GooglePlay });
 */
export class ScriptedCdvStore implements CdvStoreLike {
  readonly products: ScriptedProduct[] = [];
  readonly transactions: CdvTransactionLike[] = [];
  readonly finished: CdvTransactionLike[] = [];
  private readonly approvedListeners: ((t: CdvTransactionLike) => void)[] = [];
  private readonly productListeners: ((p: CdvProductLike) => void)[] = [];
  private readonly errorListeners: ((e: CdvErrorLike) => void)[] = [];
  private readonly receipt: { platform: Platform; nativeData?: AppleApplicationReceipt; transactions: unknown[] };

  constructor(private readonly options: ScriptedCdvStoreOptions) {
    this.receipt = {
      platform: options.platform,
      ...(options.appReceipt ? { nativeData: options.appReceipt } : {}),
      transactions: this.transactions,
    };
  }

  register(products: { id: string; type: string; platform: string }[]): unknown {
    for (const p of products) {
      const product: ScriptedProduct = {
        ...p,
        title: p.id,
        canPurchase: true,
        owned: false,
        pricing: { price: '$1.99' },
        getOffer: () => ({ id: `${p.id}@offer`, productId: p.id }),
      };
      this.products.push(product);
    }
    return undefined;
  }

  async initialize(): Promise<unknown> {
    await tick();
    for (const p of this.products) this.productListeners.forEach((l) => l(p));
    if (this.options.platform === 'ios-appstore' && this.options.needAppReceipt && this.options.appReceipt) {
      const app = transaction(
        'ios-appstore',
        {
          transactionId: 'appstore.application',
          state: 'approved',
          products: [{ id: this.options.appReceipt.bundleIdentifier }],
        },
        this.receipt,
        (t) => this.finish(t),
      );
      this.report(app);
    }
    return [];
  }

  async update(): Promise<unknown> {
    await tick();
    // The plugin reports transactions still approved (not finished) again on every refresh.
    for (const t of this.transactions) if (t.state === 'approved') this.approvedListeners.forEach((l) => l(t));
    return undefined;
  }

  /** Every transaction the device's receipt holds, as the plugin's `localTransactions`. */
  get localTransactions(): CdvTransactionLike[] {
    return [...this.transactions];
  }

  /** The plugin replays the receipt's transactions; those still approved are reported again. */
  async restorePurchases(): Promise<CdvErrorLike | undefined> {
    await this.update();
    return undefined;
  }

  get(productId: string, platform?: string): CdvProductLike | undefined {
    return this.products.find((p) => p.id === productId && (platform === undefined || p.platform === platform));
  }

  async order(offer: CdvOfferLike): Promise<CdvErrorLike | undefined> {
    const native = this.options.purchase(offer.productId);
    if ('code' in native) {
      this.errorListeners.forEach((l) => l(native));
      return native;
    }
    // The purchase sheet closes first; the transaction arrives afterwards, as on a phone.
    setTimeout(() => this.report(this.transactionOf(native)), 5);
    return undefined;
  }

  when(): CdvWhenLike {
    const when: CdvWhenLike = {
      productUpdated: (cb) => {
        this.productListeners.push(cb);
        return when;
      },
      approved: (cb) => {
        this.approvedListeners.push(cb);
        return when;
      },
    };
    return when;
  }

  error(cb: (error: CdvErrorLike) => void): unknown {
    this.errorListeners.push(cb);
    return undefined;
  }

  off(): void {}

  private transactionOf(native: AppleNativePurchase | PlayNativePurchase): CdvTransactionLike {
    const finish = (t: CdvTransactionLike) => this.finish(t);
    if ('purchaseToken' in native) {
      // GooglePlay.Transaction.refresh: the order id, or the token when there is none.
      return transaction(
        'android-playstore',
        {
          transactionId: `${native.orderId || native.purchaseToken}`,
          purchaseId: native.purchaseToken,
          products: native.productIds.map((id) => ({ id })),
          purchaseDate: new Date(native.purchaseTime),
          isPending: native.getPurchaseState === 2,
          isAcknowledged: native.acknowledged,
          renewalIntent: native.autoRenewing ? 'Renew' : 'Lapse',
          quantity: native.quantity,
          state: 'approved',
          nativePurchase: native,
        },
        this.receipt,
        finish,
      );
    }
    // SKTransaction.refresh, in the App Store adapter's receipt.
    return transaction(
      'ios-appstore',
      {
        transactionId: native.transactionId,
        state: 'approved',
        products: [{ id: native.productId, offerId: undefined }],
        purchaseDate: new Date(),
        ...(native.originalTransactionId ? { originalTransactionId: native.originalTransactionId } : {}),
        ...(native.jwsRepresentation ? { jwsRepresentation: native.jwsRepresentation } : {}),
        ...(native.quantity !== undefined ? { quantity: native.quantity } : {}),
      },
      this.receipt,
      finish,
    );
  }

  private report(t: CdvTransactionLike): void {
    this.transactions.push(t);
    this.approvedListeners.forEach((l) => l(t));
  }

  private async finish(t: CdvTransactionLike): Promise<void> {
    await tick();
    t.state = 'finished';
    this.finished.push(t);
    for (const { id } of t.products) {
      const p = this.products.find((x) => x.id === id);
      // A consumable is used up when finished; anything else is owned from then on.
      if (p && p.type !== 'consumable') {
        p.owned = true;
        p.canPurchase = false;
        this.productListeners.forEach((l) => l(p));
      }
    }
  }
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
