import { createHash, timingSafeEqual } from 'node:crypto';
import type { OAuth2Client } from 'google-auth-library';
import type { GooglePlayConfig } from './config.js';

/** Pub/Sub signs its push tokens as this issuer. */
const ISSUER = 'https://accounts.google.com';

/** Why a push's credentials were refused, for the log: what to check in the push subscription or here. */
export type PushRefusal =
  | 'secret' // the `token` parameter is not GOOGLE_PUSH_SECRET
  | 'secret_not_configured'
  | 'oidc_not_configured'
  | 'audience' // the token's audience is not GOOGLE_PUSH_AUDIENCE
  | 'service_account' // signed for another account than GOOGLE_PUSH_SERVICE_ACCOUNT
  | 'email_unverified'
  | 'signature' // not signed by Google's certificates
  | 'issuer'
  | 'expired'
  | 'not_yet_valid'
  | 'malformed'
  | 'certificates_unavailable'; // Google's certificates could not be fetched

/**
 * What a push's credentials are worth: accepted, missing (401) or wrong (403, with the reason and
 * the token's own audience and e-mail, which say which setting differs; never the token).
 */
export type PushAuthResult =
  'ok' | 'missing' | { refused: PushRefusal; audience?: string | undefined; email?: string | undefined };

/**
 * Authenticates Pub/Sub's pushes: a Google-signed OIDC token in `Authorization: Bearer` (signature
 * against Google's certificates, issuer, audience, and the push subscription's service account as a
 * verified e-mail), or the shared secret in the endpoint's `token` parameter, whichever is configured.
 */
export class PushAuth {
  private oauth: Promise<OAuth2Client> | undefined;

  constructor(private readonly config: GooglePlayConfig) {}

  private client(): Promise<OAuth2Client> {
    this.oauth ??= import('google-auth-library').then(
      ({ OAuth2Client: Client }) =>
        new Client({
          issuers: [ISSUER],
          ...(this.config.certsUrl ? { endpoints: { oauth2FederatedSignonPemCertsUrl: this.config.certsUrl } } : {}),
        }),
    );
    return this.oauth;
  }

  async check(authorization: string | undefined, secret: string | undefined): Promise<PushAuthResult> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (bearer === undefined && secret === undefined) return 'missing';
    if (secret !== undefined) {
      if (!this.config.pushSecret) return { refused: 'secret_not_configured' };
      return sameSecret(secret, this.config.pushSecret) ? 'ok' : { refused: 'secret' };
    }
    const oidc = this.config.pushOidc;
    if (!oidc || bearer === undefined) return { refused: 'oidc_not_configured' };
    const said = claimsOf(bearer);
    try {
      const ticket = await (await this.client()).verifyIdToken({ idToken: bearer, audience: oidc.audience });
      const claims = ticket.getPayload();
      if (claims?.email_verified !== true) return { refused: 'email_unverified', ...said };
      if (claims.email?.toLowerCase() !== oidc.serviceAccount) return { refused: 'service_account', ...said };
      return 'ok';
    } catch (error) {
      return { refused: refusalOf(error), ...said };
    }
  }
}

/**
 * The library's reason, from its message; the message itself is never passed on, since several of
 * the library's messages quote the token.
 */
function refusalOf(error: unknown): PushRefusal {
  const message = error instanceof Error ? error.message : '';
  const known: [RegExp, PushRefusal][] = [
    [/^Wrong recipient/, 'audience'],
    [/^(Invalid token signature|No pem found)/, 'signature'],
    [/^Invalid issuer/, 'issuer'],
    [/^Token used too late/, 'expired'],
    [/^Token used too early/, 'not_yet_valid'],
    [
      /^(Wrong number of segments|Can't parse|No issue time|No expiration time|iat field|exp field|Expiration time too far)/,
      'malformed',
    ],
  ];
  return known.find(([pattern]) => pattern.test(message))?.[1] ?? 'certificates_unavailable';
}

/**
 * The audience and e-mail the token claims, read without trusting them, for the log line only: set
 * beside the configured values they show which one is wrong.
 */
function claimsOf(token: string): { audience?: string; email?: string } {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    if (typeof payload !== 'object' || payload === null) return {};
    const { aud, email } = payload as { aud?: unknown; email?: unknown };
    return {
      ...(typeof aud === 'string' ? { audience: aud.slice(0, 200) } : {}),
      ...(typeof email === 'string' ? { email: email.slice(0, 200) } : {}),
    };
  } catch {
    return {};
  }
}

/** Compared as digests, so the time taken says nothing about the secret, its length included. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
