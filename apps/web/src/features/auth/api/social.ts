import { queryOptions } from '@tanstack/react-query';
import type { SocialProvider } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import type { Till } from '@/lib/till';
import { getPlatform } from '@/platform/platform';

/** The providers the server offers; they change only with its configuration. */
export const socialProvidersQuery = (till: Till) =>
  queryOptions({
    queryKey: ['social', 'providers'],
    queryFn: async () => unwrap(await till.api.social.providers()).data.providers,
    staleTime: 10 * 60_000,
  });

/** The provider's page for a web sign-in; the caller sends the browser there. */
export async function startSocialSignIn(till: Till, provider: string, lang: string): Promise<string> {
  return unwrap(await till.api.social.start(provider, lang)).data.url;
}

/**
 * A phone app's sign-in: the provider's own sheet with a nonce from the server, its ID token
 * checked by the server. Undefined where the platform has no native sheet for the provider.
 */
export async function nativeSocialSignIn(till: Till, provider: SocialProvider, lang: string) {
  const platform = await getPlatform();
  if (platform.kind === 'web' || !provider.native) return undefined;
  const nonce = unwrap(await till.api.social.nonce(provider.id)).data.nonce;
  const answer = await platform.socialSignIn(provider, nonce);
  return unwrap(
    await till.api.social.idToken({
      provider: provider.id,
      idToken: answer.idToken,
      lang,
      ...(answer.name ? { name: answer.name } : {}),
    }),
  );
}

export async function finishSocialSignIn(till: Till, ticket: string) {
  return unwrap(await till.api.social.finish(ticket));
}

export async function linkWithPassword(till: Till, link: string, password: string) {
  return unwrap(await till.api.social.linkWithPassword(link, password));
}

export async function linkByMail(till: Till, link: string) {
  unwrap(await till.api.social.linkByMail(link));
}

export async function confirmSocialLink(till: Till, token: string) {
  return unwrap(await till.api.social.confirmLink(token)).data.provider;
}
