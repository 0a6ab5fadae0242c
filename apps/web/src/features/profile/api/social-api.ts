import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-error';
import type { Till } from '@/lib/till';

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

/** The provider's page to link it to this account (after a step-up when the account has a password). */
export async function startConnect(till: Till, provider: string, lang: string): Promise<string> {
  return unwrap(await till.api.social.connect(provider, lang)).data.url;
}

/** Links the provider account the connect flow came back with. */
export async function finishConnect(till: Till, ticket: string) {
  return unwrap(await till.api.social.connectFinish(ticket)).data.identity;
}

/**
 * What the provider's return left in the profile's fragment (`#connectTicket=` or `#connectError=`),
 * taken off the address at once so that a reload or a shared link does not carry it.
 */
export function takeConnectReturn(): { ticket: string | null; error: string | null } {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const ticket = params.get('connectTicket');
  const error = params.get('connectError');
  if (ticket || error) window.history.replaceState(window.history.state, '', window.location.pathname);
  return { ticket, error };
}
