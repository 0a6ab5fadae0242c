import type { PaymentsDeps } from '../deps.js';
import type { StorePlatform } from '../platform.js';
import type { PaymentProvider } from '../provider.js';
import { AppStorePlatform } from './appstore/platform.js';
import { CardProvider } from './stripe/provider.js';
import { DefaultProvider } from './sandbox/provider.js';
import { PaywallProvider } from './paymentwall/provider.js';
import { GooglePlayPlatform } from './googleplay/platform.js';
import { TestPlatform } from './testplatform/platform.js';

/**
 * Every payment route and in-app store platform this server knows, each built from the
 * configuration: a route whose variables are not set is left out. A new provider is a folder
 * beside this file and a line here.
 */
export function buildProviders(deps: PaymentsDeps): { providers: PaymentProvider[]; platforms: StorePlatform[] } {
  // The sandbox provider and the TEST platform take no money: production never offers them.
  const sandbox = !deps.config.production;
  const { card, paywall, appstore, googleplay } = deps.config.payments;
  return {
    // The first is what doCheckout uses when the buyer names none.
    providers: [
      ...(sandbox ? [new DefaultProvider(deps.config)] : []),
      ...(card ? [new CardProvider(deps, card)] : []),
      ...(paywall ? [new PaywallProvider(paywall, deps)] : []),
    ],
    platforms: [
      new TestPlatform(sandbox),
      ...(appstore ? [new AppStorePlatform(deps, appstore)] : []),
      ...(googleplay ? [new GooglePlayPlatform(deps, googleplay)] : []),
    ],
  };
}
