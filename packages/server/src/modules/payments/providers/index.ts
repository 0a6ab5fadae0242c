import type { PaymentsDeps } from '../deps.js';
import type { StorePlatform } from '../platform.js';
import type { PaymentProvider } from '../provider.js';
import { DefaultProvider } from './default/provider.js';
import { PaywallProvider } from './paywall/provider.js';
import { TestPlatform } from './test/platform.js';

/**
 * Every payment route and in-app store platform this server knows, each built from the
 * configuration: a route whose variables are not set is left out. A new provider is a folder
 * beside this file and a line here.
 */
export function buildProviders(deps: PaymentsDeps): { providers: PaymentProvider[]; platforms: StorePlatform[] } {
  // The sandbox provider and the TEST platform take no money: production never offers them.
  const sandbox = !deps.config.production;
  return {
    providers: [
      ...(sandbox ? [new DefaultProvider(deps.config)] : []),
      ...(deps.config.payments.paywall ? [new PaywallProvider(deps.config.payments.paywall, deps)] : []),
    ],
    platforms: [new TestPlatform(sandbox)],
  };
}
