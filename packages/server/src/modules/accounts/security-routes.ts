import {
  adminResetSecondFactorRequest,
  adminSecurityLogRequest,
  authSuccess,
  dataResponse,
  Level,
  loginSecondFactorRequest,
  recoveryCodesRequest,
  securityLogRequest,
  securityResponses,
  SecurityPaths,
  stepUpData,
  stepUpRequest,
  tokenRequest,
  totpDisableRequest,
  totpEnableRequest,
} from '@till/protocol';
import { asData, type CallRegistry } from '../../http/calls.js';
import type { AccountSecurity } from './account-security.js';
import type { AccountsService } from './service.js';

const tag = 'accounts';
const path = (p: string) => `/${p}`;

/** The second-factor and security-log calls. */
export function registerSecurityRoutes(
  calls: CallRegistry,
  accounts: AccountsService,
  security: AccountSecurity,
): void {
  calls.define({
    path: path(SecurityPaths.loginSecondFactor),
    summary: "A login's second step: the challenge from 913 with a TOTP code or a recovery code; answers a session.",
    tag,
    request: loginSecondFactorRequest,
    response: authSuccess,
    handler: async (input, ctx) => accounts.loginSecondFactor(input, ctx),
  });

  calls.define({
    path: path(SecurityPaths.secondFactorStatus),
    summary: 'Whether the second factor is on, and the recovery codes left.',
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: securityResponses.status,
    handler: async (_input, ctx) => ({ data: await accounts.factors.status(ctx.caller.userId) }),
  });

  calls.define({
    path: path(SecurityPaths.totpSetup),
    summary: 'A new TOTP secret and its otpauth:// URI; nothing is on until enabled with a code.',
    tag,
    auth: Level.Registered,
    request: tokenRequest,
    response: securityResponses.setup,
    handler: async (_input, ctx) => asData(await security.setup(ctx.caller)),
  });

  calls.define({
    path: path(SecurityPaths.totpEnable),
    summary: 'Turn TOTP on with a code and the current password; answers ten recovery codes, shown once.',
    tag,
    auth: Level.Registered,
    request: totpEnableRequest,
    response: securityResponses.enable,
    handler: async (input, ctx) => asData(await security.enable(ctx.caller, input, ctx)),
  });

  calls.define({
    path: path(SecurityPaths.totpDisable),
    summary: 'Turn TOTP off with the current password and a code (or a recovery code).',
    tag,
    auth: Level.Registered,
    request: totpDisableRequest,
    response: securityResponses.disable,
    handler: async (input, ctx) => asData(await security.disable(ctx.caller, input, ctx)),
  });

  calls.define({
    path: path(SecurityPaths.recoveryCodes),
    summary:
      'Replace the recovery codes with ten new ones, shown once; the old ones stop working. Needs a recent step-up (914).',
    tag,
    auth: Level.Registered,
    stepUp: true,
    request: recoveryCodesRequest,
    response: securityResponses.recoveryCodes,
    handler: async (_input, ctx) => asData(await security.renewRecoveryCodes(ctx.caller, ctx)),
  });

  calls.define({
    path: path(SecurityPaths.securityLog),
    summary: "The caller's security log, newest first.",
    tag,
    auth: Level.Registered,
    request: securityLogRequest,
    response: securityResponses.log,
    handler: async (input, ctx) => ({ data: await accounts.securityLog.list(ctx.caller.userId, input) }),
  });

  calls.define({
    path: path(SecurityPaths.adminUserSecurityLog),
    summary: "A user's security log, newest first (administrators).",
    tag: 'admin',
    auth: Level.Admin,
    request: adminSecurityLogRequest,
    response: securityResponses.log,
    handler: async (input) => ({ data: await accounts.securityLog.list(input.userId, input) }),
  });

  calls.define({
    path: path(SecurityPaths.stepUp),
    summary:
      'Prove the password (and a code when the second factor is on) again on this session: credential changes and administrators’ sensitive actions answer 914 without a recent proof.',
    tag,
    auth: Level.Registered,
    request: stepUpRequest,
    response: dataResponse(stepUpData),
    handler: async (input, ctx) => accounts.stepUp(ctx.caller, input, ctx),
  });

  calls.define({
    path: path(SecurityPaths.adminResetSecondFactor),
    summary: "Turn a user's second factor off (administrators); logged and mailed to the user.",
    tag: 'admin',
    auth: Level.Admin,
    stepUp: true,
    request: adminResetSecondFactorRequest,
    response: securityResponses.adminReset,
    handler: async (input, ctx) => asData(await security.resetByAdmin(ctx.caller, input.userId, ctx)),
  });
}
