import type { SocialProvider } from '@till/protocol';

type Kind = 'web' | 'android' | 'ios';

/**
 * Whether the app signs in with the provider's own sheet on this platform: Google's on both
 * phones, Apple's on iOS (Android has none; `@capgo/capacitor-social-login` would show Apple's page
 * inside the app, which Apple refuses). Only where the server has the apps' client ids.
 */
export function hasNativeSheet(provider: SocialProvider, kind: Kind): boolean {
  if (kind === 'web' || !provider.native) return false;
  return provider.kind === 'google' || (provider.kind === 'apple' && kind === 'ios');
}

/**
 * The iOS app offers a third-party sign-in only next to Sign in with Apple (App Store guideline
 * 4.8): without Apple among `offered`, it offers none. Elsewhere the list stands.
 * docs/decisions/014-social-sign-in-in-the-apps.md.
 */
function appleWhereverAnother(offered: SocialProvider[], kind: Kind): SocialProvider[] {
  if (kind !== 'ios') return offered;
  return offered.some((p) => p.kind === 'apple') ? offered : [];
}

/**
 * The providers to sign in with on this platform: each with a native sheet here or a web flow (the
 * browser's own page, the phone apps' system browser). A provider with neither is left out; on iOS,
 * every one when Apple is not among them.
 */
export function offeredProviders(providers: readonly SocialProvider[], kind: Kind): SocialProvider[] {
  return appleWhereverAnother(
    providers.filter((p) => hasNativeSheet(p, kind) || p.web),
    kind,
  );
}

/**
 * The providers a signed-in account can connect on this platform: linking runs the web flow (the
 * phone apps' system browser included); on iOS only next to Apple, as for signing in.
 */
export function connectableProviders(providers: readonly SocialProvider[], kind: Kind): SocialProvider[] {
  return appleWhereverAnother(
    providers.filter((p) => p.web),
    kind,
  );
}

/** base64url of bytes, without padding. */
function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * A secret for a phone app's flow in the system browser and its challenge (base64url SHA-256): the
 * server sends the return to the app's scheme and takes its ticket only with the secret.
 */
export async function appFlowSecret(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}
