import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import type { Till } from '@/lib/till';
import { getPlatform, isNativeShell } from '@/platform/platform';

export const linkedKey = ['social', 'linked'] as const;

export const linkedQuery = (till: Till) =>
  queryOptions({ queryKey: linkedKey, queryFn: async () => unwrap(await till.api.social.list()).data });

/** The providers the server offers (the same list the sign-in page shows). */
export const providersQuery = (till: Till) =>
  queryOptions({
    queryKey: ['social', 'providers'],
    queryFn: async () => unwrap(await till.api.social.providers()).data.providers,
    staleTime: 10 * 60_000,
  });

/**
 * Leaves for the provider's page to link it to this account (after a step-up when the account has a
 * password): the browser goes there; a phone app opens it in the system browser, and the return
 * comes back through the app's URL scheme to the profile.
 */
export async function startConnect(till: Till, provider: string, lang: string): Promise<void> {
  const app = isNativeShell();
  const url = unwrap(await till.api.social.connect(provider, lang, app)).data.url;
  await (await getPlatform()).openSignInPage(url);
}

/** Links the provider account the connect flow came back with. */
export async function finishConnect(till: Till, ticket: string) {
  return unwrap(await till.api.social.connectFinish(ticket)).data.identity;
}

/** What the provider's return left in the profile's fragment: `#connectTicket=` or `#connectError=`. */
export function readConnectReturn(hash: string): { ticket: string | null; error: string | null } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { ticket: params.get('connectTicket'), error: params.get('connectError') };
}

/** Takes the return off the address, so that a reload or a shared link does not carry it. */
export function forgetConnectReturn(): void {
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
}
