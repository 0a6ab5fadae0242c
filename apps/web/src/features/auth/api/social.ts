import { queryOptions } from '@tanstack/react-query';
import type { SocialProvider } from '@till/protocol';
import { unwrap } from '@/lib/api-error';
import type { Till } from '@/lib/till';
import { appFlowSecret, hasNativeSheet } from '@/lib/social-providers';
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

/** Where a phone app keeps the secret of its flow in the system browser until the return comes. */
const APP_VERIFIER = 'till.social.appVerifier';

/**
 * A phone app's sign-in with a provider it has no sheet for: the provider's page in the system
 * browser, its return coming back through the app's URL scheme to the finish page, whose ticket
 * signs in only with the secret kept here.
 */
export async function startInSystemBrowser(till: Till, provider: SocialProvider, lang: string): Promise<void> {
  const platform = await getPlatform();
  const { verifier, challenge } = await appFlowSecret();
  const url = unwrap(await till.api.social.start(provider.id, lang, challenge)).data.url;
  sessionStorage.setItem(APP_VERIFIER, verifier);
  await platform.openSignInPage(url);
}

/**
 * A phone app's sign-in: the provider's own sheet with a nonce from the server, its ID token
 * checked by the server. Undefined where the platform has no native sheet for the provider.
 */
export async function nativeSocialSignIn(till: Till, provider: SocialProvider, lang: string) {
  const platform = await getPlatform();
  if (!hasNativeSheet(provider, platform.kind)) return undefined;
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
  // A phone app's return: the secret its flow started with goes along (once).
  const verifier = sessionStorage.getItem(APP_VERIFIER) ?? undefined;
  sessionStorage.removeItem(APP_VERIFIER);
  return unwrap(await till.api.social.finish(ticket, verifier));
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
