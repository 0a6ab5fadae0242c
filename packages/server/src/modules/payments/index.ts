import type { ModuleHost, TillModule } from '../../http/module.js';
import type { PaymentsDeps } from './deps.js';
import type { StorePlatform } from './platform.js';
import { ProviderRegistry, type PaymentPorts } from './provider.js';
import { buildProviders } from './providers/index.js';

/**
 * The payment routes (one folder per provider under `providers/`) and the in-app store platforms.
 * The module starts payments and verifies what providers send; what that does to an order is the
 * flows layer's, reached through {@link PaymentPorts}.
 */
export class PaymentsModule implements TillModule {
  readonly name = 'payments';
  readonly providers: ProviderRegistry;
  private readonly platforms: Map<string, StorePlatform>;

  constructor(
    deps: PaymentsDeps,
    private readonly ports: PaymentPorts,
  ) {
    const built = buildProviders(deps);
    this.providers = new ProviderRegistry(built.providers);
    this.platforms = new Map(built.platforms.map((p) => [p.platform, p]));
  }

  /** Origins the web app may frame: the payment pages of the routes that are on. */
  frameOrigins(): string[] {
    return [...new Set(this.providers.list().flatMap((p) => p.frameOrigins ?? []))];
  }

  /** The validator of an in-app store platform, by the plugin's name for it. */
  platform(name: string): StorePlatform | undefined {
    return this.platforms.get(name);
  }

  /** The in-app store platform whose orders carry this provider, if one is on. */
  platformOf(provider: string): StorePlatform | undefined {
    return [...this.platforms.values()].find((p) => p.enabled && p.provider === provider);
  }

  /** The phone apps' in-app stores whose purchases this server verifies. */
  inAppStores(): ('appstore' | 'googleplay')[] {
    return (['appstore', 'googleplay'] as const).filter((store) => this.platformOf(store));
  }

  /** Each provider and store platform registers its own pages, webhooks and pingbacks. */
  async register(host: ModuleHost): Promise<void> {
    for (const provider of this.providers.list()) await provider.register?.(host, this.ports);
    for (const platform of this.platforms.values()) if (platform.enabled) await platform.register?.(host, this.ports);
  }
}

export type { PaymentsDeps } from './deps.js';
export { claimEvent, orderOfEvent } from './events.js';
export { linkRef, orderOfRef, refsOf, refsOfOrders } from './refs.js';
export type { RefusedPurchase, StorePlatform, VerifiedPurchase } from './platform.js';
export type {
  AppliedEvent,
  EventTarget,
  PayableLine,
  PayableOrder,
  PaymentPorts,
  PaymentProvider,
  ProviderEvent,
  ProviderEventKind,
  ProviderRegistry,
} from './provider.js';
