import * as oidc from 'openid-client';
import { createRemoteJWKSet, importPKCS8, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { SocialProvider } from '@till/protocol';
import type { SocialProviderConfig } from './social-config.js';

/** What a provider vouched for in a verified ID token. */
export interface VerifiedIdentity {
  provider: string;
  subject: string;
  email: string | null;
  /** Whether the provider says the address is its owner's (Apple sends the string `"true"`). */
  emailVerified: boolean;
  name: string | null;
  /** An Apple private relay address (`...@privaterelay.appleid.com`): it forwards to the person. */
  privateRelay: boolean;
}

/** Apple allows a client secret to live up to six months; a short one limits what a leaked one is worth. */
const APPLE_SECRET_TTL_S = 300;

function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

/** The identity in verified ID-token claims; `name` (Apple's, given to the app) when the token has none. */
export function identityOf(provider: string, claims: JWTPayload, name?: string | null): VerifiedIdentity {
  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
  const claimed = typeof claims.name === 'string' ? claims.name : null;
  return {
    provider,
    subject: String(claims.sub),
    email,
    emailVerified: email !== null && truthy(claims.email_verified),
    name: (claimed ?? name ?? null)?.trim().slice(0, 100) || null,
    privateRelay: truthy(claims.is_private_email),
  };
}

/**
 * Apple's client secret: a JWT signed with the team's key (ES256), issued by the team, for Apple as
 * audience, about the Services ID, with the key's id in its header.
 */
export async function appleClientSecret(p: SocialProviderConfig, nowMs: number): Promise<string> {
  if (!p.apple || !p.clientId) throw new Error('Apple sign-in has no key configured');
  const key = await importPKCS8(p.apple.privateKey, 'ES256');
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: p.apple.keyId })
    .setIssuer(p.apple.teamId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + APPLE_SECRET_TTL_S)
    .setAudience(p.issuer)
    .setSubject(p.clientId)
    .sign(key);
}

/**
 * The configured providers, reached with `openid-client`: discovery from the issuer (kept once it
 * answered), the authorization URL, the code exchange with its checks (state, PKCE, the ID token's
 * signature, issuer, audience, expiry and nonce), and the check of a phone's ID token.
 */
export class SocialProviders {
  private readonly discovered = new Map<string, Promise<oidc.Configuration>>();
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(
    private readonly providers: SocialProviderConfig[],
    private readonly redirectUri: () => string,
    private readonly now: () => number,
  ) {}

  find(id: string): SocialProviderConfig | undefined {
    return this.providers.find((p) => p.id === id);
  }

  /** The providers as the protocol lists them. */
  list(): SocialProvider[] {
    return this.providers.map((p) => ({
      id: p.id,
      kind: p.kind,
      name: p.name,
      native: p.appClientIds.length > 0,
      web: p.clientId !== undefined,
      appClientIds: p.appClientIds,
    }));
  }

  /** Discovery, once per provider; a failed one is tried again next time. */
  private configuration(p: SocialProviderConfig): Promise<oidc.Configuration> {
    let found = this.discovered.get(p.id);
    if (!found) {
      // Plain HTTP only for a local issuer outside production, which `social-config.ts` alone allows.
      const insecure = p.issuer.startsWith('http://');
      found = oidc.discovery(
        new URL(p.issuer),
        p.clientId ?? p.appClientIds[0] ?? '',
        p.clientSecret,
        undefined,
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
      found.catch(() => this.discovered.delete(p.id));
      this.discovered.set(p.id, found);
    }
    return found;
  }

  /** The configuration a code exchange uses: Apple's with a fresh client secret, posted as its docs ask. */
  private async exchangeConfiguration(p: SocialProviderConfig): Promise<oidc.Configuration> {
    const base = await this.configuration(p);
    if (p.kind !== 'apple') return base;
    const secret = await appleClientSecret(p, this.now());
    const config = new oidc.Configuration(base.serverMetadata(), p.clientId ?? '', {}, oidc.ClientSecretPost(secret));
    if (p.issuer.startsWith('http://')) oidc.allowInsecureRequests(config);
    return config;
  }

  /** The provider's authorization page for a flow with these single-use values. */
  async authorizationUrl(
    p: SocialProviderConfig,
    values: { state: string; nonce: string; verifier: string },
  ): Promise<URL> {
    const config = await this.configuration(p);
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUri(),
      response_type: 'code',
      scope: p.kind === 'apple' ? 'openid email name' : 'openid email profile',
      state: values.state,
      nonce: values.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(values.verifier),
      code_challenge_method: 'S256',
    };
    // Apple posts its answer (and the name, the first time) to the redirect URI when asked for a name or address.
    if (p.kind === 'apple') parameters.response_mode = 'form_post';
    return oidc.buildAuthorizationUrl(config, parameters);
  }

  /**
   * Exchanges the code the browser brought back (`callback`: the redirect's URL, or its form post as
   * a `Request`) and answers the identity in the verified ID token.
   */
  async exchange(
    p: SocialProviderConfig,
    callback: URL | Request,
    checks: { state: string; nonce: string; verifier: string },
    name: string | null,
  ): Promise<VerifiedIdentity> {
    const config = await this.exchangeConfiguration(p);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.verifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return identityOf(p.id, claims, name);
  }

  /**
   * Verifies an ID token a phone app got from the provider's own sheet: the signature against the
   * provider's published keys, the issuer, one of the apps' client ids as audience, the expiry (by
   * the server's clock) and the presence of a nonce, which the caller then spends.
   */
  async verifyIdToken(p: SocialProviderConfig, idToken: string): Promise<{ claims: JWTPayload; nonce: string }> {
    const config = await this.configuration(p);
    const metadata = config.serverMetadata();
    if (!metadata.jwks_uri) throw new Error('the provider publishes no keys');
    let keys = this.keySets.get(p.id);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
      this.keySets.set(p.id, keys);
    }
    // Google documents both spellings of its issuer.
    const issuers = p.kind === 'google' ? [metadata.issuer, 'accounts.google.com'] : [metadata.issuer];
    const { payload } = await jwtVerify(idToken, keys, {
      issuer: issuers,
      audience: p.appClientIds,
      currentDate: new Date(this.now()),
      requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
      algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
    });
    return { claims: payload, nonce: String(payload.nonce) };
  }
}
