import { SocialLogin } from '@capgo/capacitor-social-login';
import type { SocialProvider } from '@till/protocol';
import type { NativeSocialAnswer } from '../types';

const started = new Map<string, Promise<void>>();

/** Sets the plugin up once per provider with the client ids the server names (public values). */
function initialize(provider: SocialProvider, ios: boolean): Promise<void> {
  let done = started.get(provider.id);
  if (!done) {
    const [first, second] = provider.appClientIds;
    done =
      provider.kind === 'google'
        ? // Android asks for tokens for the (web) client id named first; iOS for its own, named second.
          SocialLogin.initialize({ google: { webClientId: first, iOSClientId: second ?? first, mode: 'online' } })
        : // iOS's own sheet needs no redirect; the audience of its tokens is the bundle id.
          SocialLogin.initialize({ apple: { clientId: first, redirectUrl: ios ? '' : undefined } });
    done.catch(() => started.delete(provider.id));
    started.set(provider.id, done);
  }
  return done;
}

/**
 * Google's and Apple's own sign-in sheets through `@capgo/capacitor-social-login`, with the
 * server's nonce; answers the ID token for the server to verify. Apple gives the name only on the
 * first sign-in, to the app: it goes along.
 */
export async function signInNatively(
  provider: SocialProvider,
  nonce: string,
  ios: boolean,
): Promise<NativeSocialAnswer> {
  await initialize(provider, ios);
  if (provider.kind === 'google') {
    const { result } = await SocialLogin.login({
      provider: 'google',
      options: { scopes: ['email', 'profile'], nonce },
    });
    const idToken = 'idToken' in result ? result.idToken : null;
    if (!idToken) throw new Error('Google answered no ID token');
    return { idToken };
  }
  if (provider.kind === 'apple') {
    const { result } = await SocialLogin.login({ provider: 'apple', options: { scopes: ['email', 'name'], nonce } });
    if (!result.idToken) throw new Error('Apple answered no ID token');
    const name = [result.profile.givenName, result.profile.familyName].filter(Boolean).join(' ');
    return name ? { idToken: result.idToken, name } : { idToken: result.idToken };
  }
  throw new Error(`no native sheet for ${provider.name}`);
}
