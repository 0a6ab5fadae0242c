import type { FastifyInstance } from 'fastify';
import {
  authSuccess,
  Level,
  okResponse,
  SocialPaths,
  socialConfirmLinkRequest,
  socialConfirmLinkResponse,
  socialConnectFinishRequest,
  socialConnectFinishResponse,
  socialConnectRequest,
  socialConnectResponse,
  socialFinishRequest,
  socialIdTokenRequest,
  socialLinkByMailRequest,
  socialLinkWithPasswordRequest,
  socialListRequest,
  socialListResponse,
  socialNonceRequest,
  socialNonceResponse,
  socialProvidersResponse,
  socialStartRequest,
  socialStartResponse,
  socialUnlinkRequest,
  socialUnlinkResponse,
} from '@till/protocol';
import { z } from 'zod';
import { Failure } from '../../errors.js';
import type { CallRegistry } from '../../http/calls.js';
import type { AppleNotifications } from './apple-notifications.js';
import type { SocialFlows } from './social.js';

const tag = 'accounts';
const FORM = 'application/x-www-form-urlencoded';

/** The social sign-in calls, and the route providers send the browser back to. */
export async function registerSocialRoutes(
  app: FastifyInstance,
  calls: CallRegistry,
  social: SocialFlows,
  appleNotifications: AppleNotifications,
): Promise<void> {
  calls.define({
    path: `/${SocialPaths.providers}`,
    summary: 'The social sign-in providers this server offers.',
    tag,
    request: z.object({}),
    response: socialProvidersResponse,
    handler: () => Promise.resolve({ data: { providers: social.list() } }),
  });

  calls.define({
    path: `/${SocialPaths.start}`,
    summary: "The provider's authorization page for a web sign-in (code flow with PKCE, state and nonce).",
    tag,
    request: socialStartRequest,
    response: socialStartResponse,
    handler: async (input) => {
      const started = await social.start(input.provider, input.lang, input.appChallenge);
      return started instanceof Failure ? started : { data: started };
    },
  });

  calls.define({
    path: `/${SocialPaths.finish}`,
    summary: 'Sign in with the ticket the provider’s return left (900, 913, 915, 907 `unverified`, 911).',
    tag,
    request: socialFinishRequest,
    response: authSuccess,
    handler: async (input, ctx) => social.finish(input, ctx),
  });

  calls.define({
    path: `/${SocialPaths.nonce}`,
    summary: 'A single-use nonce for a phone’s native sign-in.',
    tag,
    request: socialNonceRequest,
    response: socialNonceResponse,
    handler: async (input) => {
      const nonce = await social.nonce(input.provider);
      return nonce instanceof Failure ? nonce : { data: nonce };
    },
  });

  calls.define({
    path: `/${SocialPaths.idToken}`,
    summary: "Sign in with a phone's ID token for the app's client id (902 when it does not verify).",
    tag,
    request: socialIdTokenRequest,
    response: authSuccess,
    handler: async (input, ctx) => social.idToken(input, ctx),
  });

  calls.define({
    path: `/${SocialPaths.linkWithPassword}`,
    summary: "Link a provider to the account that has its address, proven by the account's password.",
    tag,
    request: socialLinkWithPasswordRequest,
    response: authSuccess,
    handler: async (input, ctx) => social.linkWithPassword(input, ctx),
  });

  calls.define({
    path: `/${SocialPaths.linkByMail}`,
    summary: "Mail the address's owner a link that links the provider when followed.",
    tag,
    request: socialLinkByMailRequest,
    response: okResponse,
    handler: async (input, ctx) => social.linkByMail(input, ctx),
  });

  calls.define({
    path: `/${SocialPaths.confirmLink}`,
    summary: 'Link the provider named in a mailed link (911 when unknown, expired or used).',
    tag,
    request: socialConfirmLinkRequest,
    response: socialConfirmLinkResponse,
    handler: async (input, ctx) => {
      const linked = await social.confirmLink(input.token, ctx);
      return linked instanceof Failure ? linked : { data: linked };
    },
  });

  calls.define({
    path: `/${SocialPaths.list}`,
    summary: "The account's linked providers, and whether it has a password.",
    tag,
    auth: Level.Registered,
    request: socialListRequest,
    response: socialListResponse,
    handler: async (_input, ctx) => {
      const list = await social.listLinked(ctx.caller);
      return list instanceof Failure ? list : { data: list };
    },
  });

  calls.define({
    path: `/${SocialPaths.unlink}`,
    summary: 'Remove a linked provider (912 `last_way_in` when no other way to sign in would remain).',
    tag,
    auth: Level.Registered,
    request: socialUnlinkRequest,
    response: socialUnlinkResponse,
    handler: async (input, ctx) => {
      const done = await social.unlink(ctx.caller, input.id, ctx);
      return done instanceof Failure ? done : { data: {} };
    },
  });

  calls.define({
    path: `/${SocialPaths.connect}`,
    summary:
      "The provider's authorization page to link it to the signed-in account (914 first when the account has a password and no recent step-up).",
    tag,
    auth: Level.Registered,
    request: socialConnectRequest,
    response: socialConnectResponse,
    handler: async (input, ctx) => {
      const started = await social.connect(ctx.caller, input.provider, input.lang, input.app);
      return started instanceof Failure ? started : { data: started };
    },
  });

  calls.define({
    path: `/${SocialPaths.connectFinish}`,
    summary:
      'Link the provider account a connect flow came back with (907 `provider`/`taken` when another account has it, 911 for a ticket not this session’s).',
    tag,
    auth: Level.Registered,
    request: socialConnectFinishRequest,
    response: socialConnectFinishResponse,
    handler: async (input, ctx) => {
      const identity = await social.connectFinish(ctx.caller, input.ticket, ctx);
      return identity instanceof Failure ? identity : { data: { identity } };
    },
  });

  await app.register(async (scope) => {
    // Apple answers with a form post; form bodies are parsed only inside this scope.
    if (!scope.hasContentTypeParser(FORM)) {
      scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
        done(null, String(body));
      });
    }
    const back = `/${SocialPaths.callback}`;
    scope.get(back, async (request, reply) => {
      const url = new URL(
        `${social.callbackUrl}${request.url.slice(request.url.indexOf('?') >= 0 ? request.url.indexOf('?') : request.url.length)}`,
      );
      const location = await social.callback(url, url.searchParams);
      return reply.header('cache-control', 'no-store').redirect(location, 303);
    });
    if (appleNotifications.enabled) {
      // Apple's server-to-server notifications: 200 once taken (applied, repeated, or about no
      // linked identity), 400 when the payload is not Apple's.
      scope.post(`/${SocialPaths.appleNotifications}`, async (request, reply) => {
        const body = request.body as { payload?: unknown } | undefined;
        const payload = typeof body?.payload === 'string' && body.payload.length <= 16_384 ? body.payload : '';
        const outcome = await appleNotifications.receive(payload);
        return reply.code(outcome === 'refused' ? 400 : 200).send({ outcome });
      });
    }
    scope.post(back, async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : '';
      const params = new URLSearchParams(body);
      const form = new Request(social.callbackUrl, { method: 'POST', headers: { 'content-type': FORM }, body });
      const location = await social.callback(form, params);
      return reply.header('cache-control', 'no-store').redirect(location, 303);
    });
  });
}
