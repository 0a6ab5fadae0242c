import { createHash, timingSafeEqual } from 'node:crypto';
import type { OAuth2Client } from 'google-auth-library';
import type { GooglePlayConfig } from '../../../../config.js';

/** Pub/Sub signs its push tokens as this issuer. */
const ISSUER = 'https://accounts.google.com';

/** What a push's credentials are worth: accepted, missing (401) or wrong (403). */
export type PushAuthResult = 'ok' | 'missing' | 'refused';

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
      if (!this.config.pushSecret || !sameSecret(secret, this.config.pushSecret)) return 'refused';
      return 'ok';
    }
    const oidc = this.config.pushOidc;
    if (!oidc || bearer === undefined) return 'refused';
    try {
      const ticket = await (await this.client()).verifyIdToken({ idToken: bearer, audience: oidc.audience });
      const claims = ticket.getPayload();
      if (claims?.email_verified !== true || claims.email?.toLowerCase() !== oidc.serviceAccount) return 'refused';
      return 'ok';
    } catch {
      return 'refused';
    }
  }
}

/** Compared as digests, so the time taken says nothing about the secret, its length included. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
