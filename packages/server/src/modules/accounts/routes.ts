import {
  authSuccess,
  endSessionRequest,
  endSessionResponse,
  genResetLinkRequest,
  Level,
  loginRequest,
  okResponse,
  registerRequest,
  resetPasswordRequest,
  revokeSessionsResponse,
  sessionsResponse,
  tokenRequest,
  updateInfoRequest,
  userResponse,
} from '@till/protocol';
import { z } from 'zod';
import { Failure } from '../../errors.js';
import { JsonText, type CallRegistry } from '../../http/calls.js';
import type { AccountsService } from './service.js';

const tag = 'accounts';
const linkToken = z.object({ token: z.string().min(16).max(128) });

/** The account calls of the protocol. */
export function registerAccountRoutes(calls: CallRegistry, accounts: AccountsService): void {
  calls.define({
    path: '/api/register',
    summary: 'Create an account; mails a confirmation link and answers a session.',
    tag,
    request: registerRequest,
    response: authSuccess,
    handler: async (input, ctx) => accounts.register(input, ctx),
  });

  calls.define({
    path: '/api/login',
    summary: 'Log in with e-mail and password; 913 with a challenge when a second factor is on.',
    tag,
    request: loginRequest,
    response: authSuccess,
    handler: async (input, ctx) => accounts.login(input, ctx),
  });

  calls.define({
    path: '/api/genResetLink',
    summary: 'Mail a password reset link (the answer is the same for unknown addresses).',
    tag,
    request: genResetLinkRequest,
    response: okResponse,
    handler: async (input, ctx) => accounts.genResetLink(input, ctx),
  });

  calls.define({
    path: '/api/resetPassword/:token',
    summary: 'Set a new password with a mailed reset token; ends every session.',
    tag,
    params: true,
    request: resetPasswordRequest.extend(linkToken.shape),
    response: okResponse,
    handler: async (input, ctx) => accounts.resetPassword(input.token, input.password, ctx),
  });

  calls.define({
    method: 'GET',
    path: '/api/confirmUser/:token',
    summary: 'Confirm an e-mail address with a mailed token.',
    tag,
    params: true,
    request: linkToken,
    response: okResponse,
    handler: async (input, ctx) => accounts.confirmUser(input.token, ctx),
  });

  calls.define({
    path: '/api/auth/getUserInfo',
    summary: 'The logged-in user.',
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: userResponse,
    handler: async (_input, ctx) => {
      const text = await accounts.getUserText(ctx.caller);
      return text instanceof Failure ? text : new JsonText(text);
    },
  });

  calls.define({
    path: '/api/auth/updateInfo',
    summary: 'Change name, language, e-mail (confirmed before it applies), password or avatar.',
    tag,
    auth: Level.Registered,
    request: updateInfoRequest,
    response: userResponse,
    handler: async (input, ctx) => {
      const user = await accounts.updateInfo(ctx.caller, ctx, input);
      return user instanceof Failure ? user : { user };
    },
  });

  calls.define({
    path: '/api/auth/logout',
    summary: 'End this session.',
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: okResponse,
    handler: async (_input, ctx) => {
      await accounts.logout(ctx.caller);
      return {};
    },
  });

  calls.define({
    path: '/api/auth/sessions',
    summary: "The user's live sessions.",
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: sessionsResponse,
    handler: async (_input, ctx) => ({ data: { sessions: await accounts.listSessions(ctx.caller) } }),
  });

  calls.define({
    path: '/api/auth/revokeSessions',
    summary: 'End every session of the user but this one.',
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: revokeSessionsResponse,
    handler: async (_input, ctx) => ({ data: { revoked: await accounts.revokeOtherSessions(ctx.caller, ctx) } }),
  });

  calls.define({
    path: '/api/auth/endSession',
    summary: "End one of the user's own sessions by its id (904 when the user has no such session).",
    tag,
    auth: Level.Registered,
    request: endSessionRequest,
    response: endSessionResponse,
    handler: async (input, ctx) => {
      const ended = await accounts.endSession(ctx.caller, input.id, ctx);
      return ended instanceof Failure ? ended : { data: { ended: true as const, current: ended.current } };
    },
  });

  calls.define({
    path: '/api/auth/resendConfirmation',
    summary: 'Mail the confirmation link again (912 `confirmed` when the address is confirmed already).',
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: okResponse,
    handler: async (_input, ctx) => accounts.resendConfirmation(ctx.caller, ctx),
  });
}
