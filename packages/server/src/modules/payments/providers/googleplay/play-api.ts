import type { androidpublisher_v3 } from '@googleapis/androidpublisher';
import type { GooglePlayConfig } from './config.js';

/** The scope the Play Developer API's purchase calls need. */
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
/** Where the auth library sends its JWT bearer grant (fixed in the library; rerouted for a local endpoint). */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** Google keeps voided purchases listed for 30 days. */
const VOIDED_LOOKBACK_MS = 30 * 24 * 3600 * 1000;

export type ProductPurchase = androidpublisher_v3.Schema$ProductPurchase;
export type SubscriptionPurchase = androidpublisher_v3.Schema$SubscriptionPurchaseV2;
export type VoidedPurchase = androidpublisher_v3.Schema$VoidedPurchase;

/**
 * A failure of the Play Developer API: `unknown` when Google says the purchase does not exist for
 * this app (a bad or foreign token: 400, 404, 410), `unavailable` for anything a retry may mend
 * (our credentials, Google's outage, the network).
 */
export class PlayApiError extends Error {
  constructor(
    readonly kind: 'unknown' | 'unavailable',
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'PlayApiError';
  }
}

/**
 * The Play Developer API's purchase calls, through Google's own client, authenticated as the
 * configured service account (a JWT bearer grant at Google's token endpoint). The library is loaded
 * on first use, so a server without Google Play never holds it.
 */
export class PlayApi {
  private client: Promise<androidpublisher_v3.Androidpublisher> | undefined;

  constructor(private readonly config: GooglePlayConfig) {}

  private api(): Promise<androidpublisher_v3.Androidpublisher> {
    this.client ??= (async () => {
      const [{ androidpublisher }, { JWT }] = await Promise.all([
        import('@googleapis/androidpublisher'),
        import('google-auth-library'),
      ]);
      const auth = new JWT({
        email: this.config.serviceAccount.clientEmail,
        key: this.config.serviceAccount.privateKey,
        scopes: [SCOPE],
      });
      const tokenUrl = this.config.tokenUrl;
      if (tokenUrl) {
        // The grant's endpoint is fixed inside the library; the assertion's audience stays Google's
        // token URL, as Google requires, and only where it is posted changes.
        auth.transporter.interceptors.request.add({
          resolved: (options) => {
            if (String(options.url) === GOOGLE_TOKEN_URL) options.url = new URL(tokenUrl);
            return Promise.resolve(options);
          },
        });
      }
      return androidpublisher({
        version: 'v3',
        auth,
        timeout: 20_000,
        ...(this.config.apiUrl ? { rootUrl: this.config.apiUrl.replace(/\/*$/, '/') } : {}),
      });
    })();
    return this.client;
  }

  private async call<T>(what: string, run: (api: androidpublisher_v3.Androidpublisher) => Promise<{ data: T }>) {
    const api = await this.api();
    try {
      return (await run(api)).data;
    } catch (error) {
      const e = error as { status?: number; response?: { status?: number }; message?: string };
      const status = e.status ?? e.response?.status;
      const unknown = status === 400 || status === 404 || status === 410;
      throw new PlayApiError(unknown ? 'unknown' : 'unavailable', status, `${what}: ${e.message ?? 'failed'}`);
    }
  }

  product(productId: string, token: string): Promise<ProductPurchase> {
    const packageName = this.config.packageName;
    return this.call('purchases.products.get', (api) => api.purchases.products.get({ packageName, productId, token }));
  }

  subscription(token: string): Promise<SubscriptionPurchase> {
    const packageName = this.config.packageName;
    return this.call('purchases.subscriptionsv2.get', (api) =>
      api.purchases.subscriptionsv2.get({ packageName, token }),
    );
  }

  async acknowledgeProduct(productId: string, token: string): Promise<void> {
    const packageName = this.config.packageName;
    await this.call('purchases.products.acknowledge', (api) =>
      api.purchases.products.acknowledge({ packageName, productId, token, requestBody: {} }),
    );
  }

  async acknowledgeSubscription(subscriptionId: string, token: string): Promise<void> {
    const packageName = this.config.packageName;
    await this.call('purchases.subscriptions.acknowledge', (api) =>
      api.purchases.subscriptions.acknowledge({ packageName, subscriptionId, token, requestBody: {} }),
    );
  }

  async consume(productId: string, token: string): Promise<void> {
    const packageName = this.config.packageName;
    await this.call('purchases.products.consume', (api) =>
      api.purchases.products.consume({ packageName, productId, token }),
    );
  }

  /** The voided purchase of this token, if Google lists one (subscriptions included), searched page by page. */
  async voided(token: string, now: number): Promise<VoidedPurchase | undefined> {
    const packageName = this.config.packageName;
    let pageToken: string | undefined;
    for (let page = 0; page < 50; page++) {
      const list = await this.call('purchases.voidedpurchases.list', (api) =>
        api.purchases.voidedpurchases.list({
          packageName,
          startTime: String(now - VOIDED_LOOKBACK_MS),
          type: 1,
          maxResults: 1000,
          ...(pageToken ? { token: pageToken } : {}),
        }),
      );
      const found = list.voidedPurchases?.find((v) => v.purchaseToken === token);
      if (found) return found;
      pageToken = list.tokenPagination?.nextPageToken ?? undefined;
      if (!pageToken) return undefined;
    }
    return undefined;
  }
}
