import { z } from 'zod';
import { deviceTokenSchema } from './account.js';
import { SocialPaths } from './constants.js';
import { langSchema, nameSchema, passwordSchema } from './objects.js';
import { dataResponse } from './responses.js';

// Kept with the other constants so that importing a path never loads the schemas (and zod).
export { SocialPaths };

const token = z.string().min(1).max(512);
/** A single-use value the server handed out (a ticket, a link, a nonce): 256 random bits, base64url. */
const single = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

/** A provider's id as configured: `google`, `apple`, or the name of an OpenID Connect provider. */
export const socialProviderIdSchema = z.string().regex(/^[a-z][a-z0-9-]{1,31}$/);

/** What kind of provider an id stands for: the two built in, or any OpenID Connect provider. */
export const SOCIAL_PROVIDER_KINDS = ['google', 'apple', 'oidc'] as const;
export type SocialProviderKind = (typeof SOCIAL_PROVIDER_KINDS)[number];

/** A provider the server offers: its id, the name shown on its button, and whether the phone apps sign in natively with it. */
export const socialProviderSchema = z.object({
  id: socialProviderIdSchema,
  kind: z.enum(SOCIAL_PROVIDER_KINDS),
  name: z.string(),
  native: z.boolean(),
  /**
   * Whether the server runs the provider's web flow (a web client is configured). The phone apps run
   * it in the system browser for a provider they have no native sheet for; without it they cannot
   * offer that provider.
   */
  web: z.boolean(),
  /**
   * The client ids the phone apps ask the provider's sheet for tokens with (public values): Google's
   * Android one (a web client id) first, then its iOS one; Apple's bundle id.
   */
  appClientIds: z.array(z.string()),
});
export type SocialProvider = z.infer<typeof socialProviderSchema>;

/** POST api/social/providers: the providers this server offers (none when none is configured). */
export const socialProvidersResponse = dataResponse(z.object({ providers: z.array(socialProviderSchema) }));

/**
 * POST api/social/start: the provider's authorization page to send the browser to (authorization
 * code flow with PKCE, `state` and `nonce`). The provider sends the browser back to the server, which
 * sends it on to `PUBLIC_URL/social/finish#ticket=...` (or `#error=...`).
 *
 * @example
 * socialStartRequest.parse({ provider: 'google' })
 */
export const socialStartRequest = z.object({
  provider: socialProviderIdSchema,
  lang: langSchema.optional(),
  /**
   * A phone app running the flow in the system browser: base64url SHA-256 of a secret of its own.
   * The provider's return then goes to the app's URL scheme (`<scheme>:/social/finish#ticket=...`),
   * and the ticket signs in only with that secret (`appVerifier`), so an app that claims the same
   * scheme gets nothing from it (RFC 8252, as PKCE).
   */
  appChallenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .optional(),
});
export const socialStartResponse = dataResponse(z.object({ url: z.string() }));

/**
 * POST api/social/finish: the ticket from `#ticket=`. Answers like a login: a session (900), 913 when
 * the account has a second factor, 915 when the address has an account not linked to the provider,
 * 907 `email`/`unverified` when the provider does not vouch for the address, 911 for a ticket
 * unknown, expired or used.
 */
export const socialFinishRequest = z.object({
  ticket: single,
  deviceToken: deviceTokenSchema.optional(),
  /** The secret whose hash started a phone app's flow (`appChallenge`); 911 without it for such a ticket. */
  appVerifier: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43,128}$/)
    .optional(),
});

/** POST api/social/nonce: a single-use nonce for a native sign-in's ID token (10 minutes). */
export const socialNonceRequest = z.object({ provider: socialProviderIdSchema });
export const socialNonceResponse = dataResponse(z.object({ nonce: z.string(), expire: z.number().int() }));

/**
 * POST api/social/idToken: the ID token a phone app got from the provider's own sheet, for the
 * app's own client id, carrying a nonce from {@link socialNonceRequest}. Apple gives the name only on
 * the first sign-in, to the app: it comes along as `name`. Answers as {@link socialFinishRequest}; 902
 * when the token does not verify (signature, issuer, audience, expiry, nonce).
 */
export const socialIdTokenRequest = z.object({
  provider: socialProviderIdSchema,
  idToken: z.string().min(1).max(8192),
  name: nameSchema.optional(),
  lang: langSchema.optional(),
  deviceToken: deviceTokenSchema.optional(),
});

/**
 * POST api/social/linkWithPassword: the `link` from 915 and the account's password. Links the
 * provider and answers like a login (913 when a second factor is on); 902 for a wrong password.
 */
export const socialLinkWithPasswordRequest = z.object({
  link: single,
  password: passwordSchema,
  deviceToken: deviceTokenSchema.optional(),
});

/**
 * POST api/social/linkByMail: mails the address's owner a link (24 hours) that links the provider
 * when followed (`PUBLIC_URL/social/link/{token}` → {@link socialConfirmLinkRequest}).
 */
export const socialLinkByMailRequest = z.object({ link: single });

/** POST api/social/confirmLink: the token from the mailed link; 911 when unknown, expired or used. */
export const socialConfirmLinkRequest = z.object({ token: single });
export const socialConfirmLinkResponse = dataResponse(z.object({ provider: z.string() }));

/** A provider linked to the account. */
export const linkedIdentitySchema = z.object({
  id: z.string(),
  provider: z.string(),
  /** The address the provider gave when linked (an Apple relay address stays as Apple gave it). */
  email: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type LinkedIdentity = z.infer<typeof linkedIdentitySchema>;

/** POST api/auth/social/list: the caller's linked providers, and whether the account has a password. */
export const socialListRequest = z.object({ token });
export const socialListResponse = dataResponse(
  z.object({ identities: z.array(linkedIdentitySchema), hasPassword: z.boolean() }),
);
export type SocialListData = z.infer<typeof socialListResponse>['data'];

/**
 * POST api/auth/social/unlink: removes one linked provider; 912 `last_way_in` when the account would
 * be left with no way to sign in, 904 `id` when the caller has no such link.
 */
export const socialUnlinkRequest = z.object({ token, id: z.string().min(1).max(64) });
export const socialUnlinkResponse = dataResponse(z.object({}));

/**
 * POST api/auth/social/connect: the provider's authorization page to link it to the signed-in
 * account (the web flow, bound to this session). An account with a password needs a recent step-up
 * (914); one without a password has only its session to prove. The provider sends the browser back
 * to `PUBLIC_URL/profile#connectTicket=...` (or `#connectError=denied|expired|failed`). 904
 * `provider` when it is not on.
 *
 * @example
 * socialConnectRequest.parse({ token, provider: 'google', lang: 'de' })
 */
export const socialConnectRequest = z.object({
  token,
  provider: socialProviderIdSchema,
  lang: langSchema.optional(),
  /** A phone app, running the flow in the system browser: the return goes to `<scheme>:/profile#...`. */
  app: z.boolean().optional(),
});
export const socialConnectResponse = dataResponse(z.object({ url: z.string() }));

/**
 * POST api/auth/social/connectFinish: the session that started the connect flow spends its ticket.
 * Links the provider account (logged, and mailed to the owner) and answers it; already linked to
 * this account answers it too. 907 `provider`/`taken` when it is linked to another account, 911
 * for a ticket unknown, expired, used or another session's.
 */
export const socialConnectFinishRequest = z.object({ token, ticket: single });
export const socialConnectFinishResponse = dataResponse(z.object({ identity: linkedIdentitySchema }));
