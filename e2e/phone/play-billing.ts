import { randomBytes } from 'node:crypto';

/**
 * Google Play Billing on the stand-in phone: what capacitor-plugin-cdv-purchase's Android side
 * (`cc.fovea.iap.PurchasePlugin`, BillingClient 8) answers its JavaScript bridge with. The plugin's
 * bridge (`CdvPurchase.GooglePlay.Bridge.CapacitorBridge`) calls `init`, `getAvailableProducts`
 * (resolved with `{products}`), `getPurchases` (resolved at once; the purchases follow as the
 * `setPurchases` event), `buy` (the purchase arrives as `purchasesUpdated`, then the call resolves;
 * the sheet here always confirms), `consumePurchase` (`purchaseConsumed`, then
 * resolved) and `acknowledgePurchase`. Products and purchases are in the plugin's JSON:
 * `productDetailsToJson` (a one-time product's v11.0 format) and `purchaseToJson` (the purchase's
 * original JSON, the Billing library's fields over it, and that JSON again as `receipt`).
 */

/** A one-time product as the Play Console lists it, with the price Google localizes for the buyer. */
export interface PlayProduct {
  productId: string;
  title: string;
  description: string;
  /** The price string Google formats for the buyer's locale and currency (`2,29 €`). */
  formattedPrice: string;
  priceMicros: number;
  currency: string;
}

/** A purchase as the Billing library keeps it (`Purchase.getOriginalJson()` and the rest). */
export interface PlayPurchase {
  orderId: string;
  packageName: string;
  productId: string;
  purchaseTime: number;
  purchaseToken: string;
  quantity: number;
  acknowledged: boolean;
  signature: string;
}

/** One answer to the bridge: data to resolve with, or an error to reject with. */
export type BillingAnswer = { data?: unknown } | { error: { message: string; code?: string } };

/**
 * The Google account's purchases on Play and the catalog the Play Console holds: shared by every
 * phone signed in with that account, as Play keeps purchases per account, not per device.
 */
export class PlayAccount {
  /** Purchases not consumed (what `queryPurchasesAsync` lists), oldest first. */
  readonly owned: PlayPurchase[] = [];
  /** Every purchase made, consumed ones too. */
  readonly made: PlayPurchase[] = [];
  /** Called as each purchase is made: the test puts it where Google's servers keep it. */
  onPurchase: (purchase: PlayPurchase) => void = () => undefined;
  private seq = 0;

  constructor(
    readonly packageName: string,
    readonly products: readonly PlayProduct[],
  ) {}

  /** A purchase of one unit, as the sheet's confirmation makes it. */
  purchase(productId: string): PlayPurchase {
    this.seq += 1;
    const purchase: PlayPurchase = {
      orderId: `GPA.3391-${String(4000 + this.seq)}-${randomBytes(2).toString('hex')}-${String(10_000 + this.seq)}`,
      packageName: this.packageName,
      productId,
      purchaseTime: Date.now(),
      purchaseToken: `${randomBytes(24).toString('base64url')}.AO-J1O${this.seq}`,
      quantity: 1,
      acknowledged: false,
      signature: randomBytes(256).toString('base64'),
    };
    this.made.push(purchase);
    this.owned.push(purchase);
    this.onPurchase(purchase);
    return purchase;
  }
}

/** `Purchase.getOriginalJson()`: what Google signed. */
function originalJson(p: PlayPurchase): Record<string, unknown> {
  return {
    orderId: p.orderId,
    packageName: p.packageName,
    productId: p.productId,
    purchaseTime: p.purchaseTime,
    purchaseState: 0,
    purchaseToken: p.purchaseToken,
    quantity: p.quantity,
    acknowledged: p.acknowledged,
  };
}

/** `purchaseToJson`: the original JSON with the Billing library's getters over it. */
export function purchaseJson(p: PlayPurchase): Record<string, unknown> {
  const original = originalJson(p);
  return {
    ...original,
    productIds: [p.productId],
    orderId: p.orderId,
    // Purchase.PurchaseState.PURCHASED (the original JSON's 0 is the same state).
    getPurchaseState: 1,
    developerPayload: '',
    acknowledged: p.acknowledged,
    autoRenewing: false,
    accountId: null,
    profileId: null,
    signature: p.signature,
    receipt: JSON.stringify(original),
    quantity: p.quantity,
  };
}

/** `productDetailsToJson` for a one-time product with one offer (the v11.0 format). */
function productJson(p: PlayProduct): Record<string, unknown> {
  return {
    productId: p.productId,
    title: `${p.title} (Till)`,
    name: p.title,
    description: p.description,
    product_type: 'inapp',
    product_format: 'v11.0',
    formatted_price: p.formattedPrice,
    price_amount_micros: p.priceMicros,
    price_currency_code: p.currency,
  };
}

/** The plugin's methods on Android (its `@PluginMethod`s), for the bridge's plugin headers. */
export const PURCHASE_PLUGIN_METHODS = [
  'init',
  'getAvailableProducts',
  'getPurchases',
  'buy',
  'subscribe',
  'consumePurchase',
  'acknowledgePurchase',
  'finish',
  'manageSubscriptions',
  'manageBilling',
  'launchPriceChangeConfirmationFlow',
  'getStorefront',
];

/** One phone's BillingClient: answers the plugin's calls and sends its events. */
export class PlayBilling {
  /** Product ids the app asked details of, per call. */
  readonly queried: string[][] = [];

  constructor(
    readonly account: PlayAccount,
    private readonly notify: (eventName: string, data: unknown) => Promise<void>,
  ) {}

  async answer(method: string, o: Record<string, unknown>): Promise<BillingAnswer> {
    switch (method) {
      case 'init':
        return {};
      case 'getAvailableProducts': {
        const asked = [...((o.inAppSkus as string[]) ?? []), ...((o.subsSkus as string[]) ?? [])];
        this.queried.push(asked);
        // Play answers the products it has among those asked; unknown ids are simply missing.
        const inApp = new Set((o.inAppSkus as string[]) ?? []);
        return { data: { products: this.account.products.filter((p) => inApp.has(p.productId)).map(productJson) } };
      }
      case 'getPurchases':
        // As PurchasePlugin.onQueryPurchasesFinished does: the list goes to the listener first
        // (`setPurchases`), then the call is answered. Answering first let a restore read the
        // device's purchases before they came, and say there were none.
        await this.notify('setPurchases', { purchases: this.account.owned.map(purchaseJson) });
        return {};
      case 'buy': {
        // The bridge sends `productId@offerToken` when the offer has a token; one-time v11 offers have none.
        const productId = String(o.productId).split('@')[0] ?? '';
        if (!this.account.products.some((p) => p.productId === productId))
          return { error: { message: 'ITEM_UNAVAILABLE', code: '4' } };
        if (this.account.owned.some((p) => p.productId === productId))
          return { error: { message: 'ITEM_ALREADY_OWNED', code: '7' } };
        const purchase = this.account.purchase(productId);
        // onPurchasesUpdated: the event first, then the pending buy call resolves.
        await this.notify('purchasesUpdated', { purchases: [purchaseJson(purchase)] });
        return {};
      }
      case 'consumePurchase': {
        const i = this.account.owned.findIndex((p) => p.purchaseToken === o.purchaseToken);
        if (i < 0) return { error: { message: 'Item not owned' } };
        const [purchase] = this.account.owned.splice(i, 1);
        await this.notify('purchaseConsumed', { purchase: purchaseJson(purchase!) });
        return {};
      }
      case 'acknowledgePurchase':
      case 'finish': {
        const token = method === 'finish' ? o.transactionId : o.purchaseToken;
        const purchase = this.account.owned.find((p) => p.purchaseToken === token);
        if (!purchase) return { error: { message: 'Item not owned' } };
        purchase.acknowledged = true;
        return {};
      }
      case 'getStorefront':
        return { data: { countryCode: 'DE' } };
      case 'manageSubscriptions':
      case 'manageBilling':
      case 'launchPriceChangeConfirmationFlow':
        return {};
      default:
        return {
          error: { message: `PurchasePlugin.${method} is not answered by the stand-in`, code: 'UNIMPLEMENTED' },
        };
    }
  }
}
