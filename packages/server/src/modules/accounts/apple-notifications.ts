import type { FastifyBaseLogger } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { inTransaction } from '../../db/transaction.js';
import { hashToken } from '../../security/tokens.js';
import type { AccountsService } from './service.js';
import type { SocialConfig, SocialProviderConfig } from './social-config.js';

/** Apple's notification `events` claim (a JSON string in the signed payload). */
interface AppleEvent {
  type: string;
  sub: string;
}

/** How long an applied notification's id is kept: well past the life Apple gives its token. */
const KEPT_MS = 30 * 86_400_000;

/** What a notification came to: applied, seen before, for no linked identity, or not Apple's. */
export type NotificationOutcome = 'applied' | 'repeated' | 'unknown' | 'refused';

/**
 * Apple's server-to-server notifications for Sign in with Apple: a JWT (`payload`) signed with
 * Apple's keys, issued by Apple, for one of this server's Apple client ids, whose `events` say what
 * the person did. Each is applied once (its `jti` is kept): `consent-revoked` and `account-delete`
 * unlink the identity (the security log records it), `email-disabled` marks the relay address as
 * not delivering and `email-enabled` as delivering again.
 */
export class AppleNotifications {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;
  private readonly apple: SocialProviderConfig | undefined;

  constructor(
    private readonly accounts: AccountsService,
    config: SocialConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.apple = config.providers.find((p) => p.kind === 'apple');
    this.keys = createRemoteJWKSet(new URL(config.appleNotificationKeys));
  }

  /** Whether Apple sign-in is on, and so the endpoint. */
  get enabled(): boolean {
    return this.apple !== undefined;
  }

  async receive(payload: string): Promise<NotificationOutcome> {
    const apple = this.apple;
    if (!apple) return 'refused';
    let claims: { jti?: unknown; events?: unknown };
    try {
      ({ payload: claims } = await jwtVerify(payload, this.keys, {
        issuer: apple.issuer,
        audience: [apple.clientId, ...apple.appClientIds].filter((a): a is string => !!a),
        currentDate: new Date(this.accounts.now()),
        requiredClaims: ['iat', 'jti', 'events'],
        algorithms: ['RS256', 'ES256'],
      }));
    } catch {
      return 'refused';
    }
    const event = readEvent(claims.events);
    if (!event || typeof claims.jti !== 'string') return 'refused';
    const jti = claims.jti;
    const now = this.accounts.now();
    const db = this.accounts.db;
    const outcome = await inTransaction(db, async (trx): Promise<NotificationOutcome> => {
      // Once per notification: a second delivery finds its id kept.
      const kept = await trx
        .insertInto('social_flows')
        .values({
          value_hash: hashToken(`apple-event:${jti}`),
          kind: 'apple_event',
          provider: apple.id,
          user_id: null,
          data: JSON.stringify({ type: event.type }),
          created_at: now,
          expires_at: now + KEPT_MS,
        })
        .onConflict((c) => c.column('value_hash').doNothing())
        .executeTakeFirst();
      if (Number(kept.numInsertedOrUpdatedRows ?? 0) !== 1) return 'repeated';
      const identity = await trx
        .selectFrom('social_identities')
        .selectAll()
        .where('provider', '=', apple.id)
        .where('subject', '=', event.sub)
        .executeTakeFirst();
      if (!identity) return 'unknown';
      if (event.type === 'consent-revoked' || event.type === 'account-delete') {
        await trx.deleteFrom('social_identities').where('id', '=', identity.id).execute();
        await this.accounts.securityLog.write(
          {
            userId: identity.user_id,
            kind: 'social_unlinked',
            ip: null,
            userAgent: null,
            detail: { provider: apple.id, identityId: identity.id, reason: event.type },
          },
          trx,
        );
      } else if (event.type === 'email-disabled' || event.type === 'email-enabled') {
        await trx
          .updateTable('social_identities')
          .set({ email_disabled_at: event.type === 'email-disabled' ? now : null })
          .where('id', '=', identity.id)
          .execute();
      } else {
        return 'unknown';
      }
      this.log.info({ userId: identity.user_id, event: event.type }, 'Apple sign-in notification applied');
      return 'applied';
    });
    return outcome;
  }
}

function readEvent(value: unknown): AppleEvent | undefined {
  let events: unknown = value;
  if (typeof value === 'string') {
    try {
      events = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const e = events as { type?: unknown; sub?: unknown } | null;
  if (!e || typeof e.type !== 'string' || typeof e.sub !== 'string') return undefined;
  return { type: e.type, sub: e.sub };
}
