import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SocialProviderKind } from '@till/protocol';
import { ConfigError } from '../../config.js';

/** Apple's client secret is a JWT signed with the team's Sign in with Apple key (`.p8`, ES256). */
export interface AppleKey {
  teamId: string;
  keyId: string;
  /** The key's PEM text. */
  privateKey: string;
}

/** One social sign-in provider, as configured. */
export interface SocialProviderConfig {
  /** `google`, `apple`, or the name given in `SOCIAL_OIDC_PROVIDERS`. */
  id: string;
  kind: SocialProviderKind;
  /** The name on the provider's button. */
  name: string;
  /** The issuer; its `/.well-known/openid-configuration` says the rest. */
  issuer: string;
  /** The web flow's client id (Google's web client, Apple's Services ID); no web flow without it. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The client ids the phone apps' ID tokens are issued to (Google's Android/iOS or web client, Apple's bundle id). */
  appClientIds: string[];
  apple: AppleKey | undefined;
}

/** Social sign-in: the providers that are on (none unless configured). */
export interface SocialConfig {
  providers: SocialProviderConfig[];
  /**
   * The phone apps' own URL scheme (`SOCIAL_APP_SCHEME`, the app id by default): where a flow the
   * apps run in the system browser comes back to (`<scheme>:/social/finish#...`).
   */
  appScheme: string;
  /**
   * Where Apple publishes the keys its server-to-server notifications are signed with
   * (`SOCIAL_APPLE_NOTIFICATION_KEYS_URL`, Apple's own by default).
   */
  appleNotificationKeys: string;
}

/** The app id, as the native projects name it (capacitor.config.ts `appId`). */
const APP_SCHEME = 'app.till.mobile';

const GOOGLE_ISSUER = 'https://accounts.google.com';
const APPLE_ISSUER = 'https://appleid.apple.com';
const APPLE_KEYS = 'https://appleid.apple.com/auth/keys';

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** An `https://` issuer; `http://` only for this machine outside production (a local test provider). */
function issuerOf(variable: string, value: string, production: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(variable, 'must be the issuer URL');
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local && !production)) {
    throw new ConfigError(variable, 'must be an https:// URL');
  }
  return value.replace(/\/+$/, '');
}

/** The `.p8` key itself (PEM, newlines written as `\n` allowed), or the path of the file; an EC P-256 key. */
function appleKeyOf(value: string): string {
  let pem = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : undefined;
  if (pem === undefined) {
    try {
      pem = readFileSync(value, 'utf8');
    } catch {
      pem = '';
    }
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return pem;
  } catch {
    // Named below.
  }
  throw new ConfigError(
    'SOCIAL_APPLE_PRIVATE_KEY',
    'must be the Sign in with Apple key (.p8, PEM) or the path of the file',
  );
}

function provider(
  env: Record<string, string | undefined>,
  prefix: string,
  base: { id: string; kind: SocialProviderKind; name: string; issuer: string },
  production: boolean,
): SocialProviderConfig | undefined {
  const clientId = env[`${prefix}_CLIENT_ID`] || undefined;
  const clientSecret = env[`${prefix}_CLIENT_SECRET`] || undefined;
  const appClientIds = list(env[`${prefix}_APP_CLIENT_IDS`]);
  if (!clientId && !appClientIds.length) {
    if (clientSecret) throw new ConfigError(`${prefix}_CLIENT_ID`, `is required when ${prefix}_CLIENT_SECRET is set`);
    return undefined;
  }
  const issuer = issuerOf(`${prefix}_ISSUER`, env[`${prefix}_ISSUER`] || base.issuer, production);
  return { ...base, issuer, clientId, clientSecret, appClientIds, apple: undefined };
}

/**
 * Reads the social sign-in variables (README, "Social sign-in"): `SOCIAL_GOOGLE_*`, `SOCIAL_APPLE_*`
 * and, for any OpenID Connect provider, `SOCIAL_OIDC_PROVIDERS` naming them and `SOCIAL_OIDC_<NAME>_*`.
 * A provider is on when its client id (web) or its app client ids (phones) are set.
 */
export function loadSocialConfig(env: Record<string, string | undefined>, production: boolean): SocialConfig {
  const providers: SocialProviderConfig[] = [];
  const google = provider(
    env,
    'SOCIAL_GOOGLE',
    { id: 'google', kind: 'google', name: 'Google', issuer: GOOGLE_ISSUER },
    production,
  );
  if (google) {
    if (google.clientId && !google.clientSecret)
      throw new ConfigError('SOCIAL_GOOGLE_CLIENT_SECRET', 'is required when SOCIAL_GOOGLE_CLIENT_ID is set');
    providers.push(google);
  }
  const apple = provider(
    env,
    'SOCIAL_APPLE',
    { id: 'apple', kind: 'apple', name: 'Apple', issuer: APPLE_ISSUER },
    production,
  );
  if (apple) {
    if (apple.clientId) {
      for (const name of ['SOCIAL_APPLE_TEAM_ID', 'SOCIAL_APPLE_KEY_ID', 'SOCIAL_APPLE_PRIVATE_KEY'])
        if (!env[name]) throw new ConfigError(name, 'is required when SOCIAL_APPLE_CLIENT_ID is set');
      if (!/^[A-Z0-9]{10}$/.test(env.SOCIAL_APPLE_TEAM_ID ?? ''))
        throw new ConfigError('SOCIAL_APPLE_TEAM_ID', 'must be the 10-character team id');
      if (!/^[A-Z0-9]{10}$/.test(env.SOCIAL_APPLE_KEY_ID ?? ''))
        throw new ConfigError('SOCIAL_APPLE_KEY_ID', 'must be the 10-character key id');
      apple.apple = {
        teamId: env.SOCIAL_APPLE_TEAM_ID ?? '',
        keyId: env.SOCIAL_APPLE_KEY_ID ?? '',
        privateKey: appleKeyOf(env.SOCIAL_APPLE_PRIVATE_KEY ?? ''),
      };
    }
    providers.push(apple);
  }
  for (const id of list(env.SOCIAL_OIDC_PROVIDERS)) {
    if (!/^[a-z][a-z0-9-]{1,31}$/.test(id) || id === 'google' || id === 'apple')
      throw new ConfigError('SOCIAL_OIDC_PROVIDERS', `${id} must be a lower-case name other than google and apple`);
    const prefix = `SOCIAL_OIDC_${id.toUpperCase().replace(/-/g, '_')}`;
    const issuer = env[`${prefix}_ISSUER`];
    if (!issuer) throw new ConfigError(`${prefix}_ISSUER`, `is required when SOCIAL_OIDC_PROVIDERS names ${id}`);
    const oidc = provider(env, prefix, { id, kind: 'oidc', name: env[`${prefix}_NAME`] || id, issuer }, production);
    if (!oidc) throw new ConfigError(`${prefix}_CLIENT_ID`, `is required when SOCIAL_OIDC_PROVIDERS names ${id}`);
    providers.push(oidc);
  }
  // The App Store takes an app that offers a third-party sign-in only if it offers Sign in with
  // Apple too (guideline 4.8): phone apps that sign in with another provider need Apple's sheet
  // (the bundle id) as well. The iOS app hides the others when Apple is missing; a production
  // server does not start so. docs/decisions/014-social-sign-in-in-the-apps.md.
  const forApps = providers.filter((p) => p.kind !== 'apple' && p.appClientIds.length > 0);
  const appleForApps = providers.some((p) => p.kind === 'apple' && p.appClientIds.length > 0);
  if (production && forApps.length && !appleForApps)
    throw new ConfigError(
      'SOCIAL_APPLE_APP_CLIENT_IDS',
      `is required in production when the phone apps sign in with ${forApps.map((p) => p.name).join(', ')}: the App Store asks for Sign in with Apple wherever another sign-in is offered`,
    );
  const appScheme = env.SOCIAL_APP_SCHEME || APP_SCHEME;
  // A reverse domain name, as RFC 8252 asks of an app's private-use scheme.
  if (!/^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/.test(appScheme))
    throw new ConfigError('SOCIAL_APP_SCHEME', 'must be a reverse domain name such as app.till.mobile');
  const keysVariable = 'SOCIAL_APPLE_NOTIFICATION_KEYS_URL';
  const appleNotificationKeys = issuerOf(keysVariable, env[keysVariable] || APPLE_KEYS, production);
  return { providers, appScheme, appleNotificationKeys };
}
