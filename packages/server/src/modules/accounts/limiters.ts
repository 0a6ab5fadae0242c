import type { Redis } from 'ioredis';
import type { RateLimits } from '../../config.js';
import { Limiter } from '../../security/rate-limit.js';
import type { AccountLimiters } from './service.js';

/** The account calls' budgets from the configured limits, shared through Redis when it is there. */
export function accountLimiters(limits: RateLimits, redis: Redis | undefined): AccountLimiters {
  return {
    loginPerIp: new Limiter('login-ip', { points: limits.loginPerIp, duration: 60 }, redis),
    loginFailuresFromIp: new Limiter(
      'login-fail-ip',
      { points: limits.loginFailuresPerAccountAndIp, duration: 900 },
      redis,
    ),
    // A known device gets the budget of one client address, on its own.
    loginFailuresFromDevice: new Limiter(
      'login-fail-device',
      { points: limits.loginFailuresPerAccountAndIp, duration: 900 },
      redis,
    ),
    // An hour (ASVS 2.2.1: at most 100 failures an hour per account).
    loginFailures: new Limiter('login-fail', { points: limits.loginFailuresPerAccount, duration: 3600 }, redis),
    registerPerIp: new Limiter('register-ip', { points: limits.registerPerIp, duration: 3600 }, redis),
    mailPerIp: new Limiter('mail-ip', { points: limits.mailPerIp, duration: 3600 }, redis),
    mailPerAddress: new Limiter('mail-to', { points: limits.mailPerAddress, duration: 3600 }, redis),
    resetPerIp: new Limiter('reset-ip', { points: limits.resetPerIp, duration: 3600 }, redis),
    resetPerToken: new Limiter('reset-token', { points: limits.resetPerToken, duration: 3600 }, redis),
    confirmPerIp: new Limiter('confirm-ip', { points: limits.confirmPerIp, duration: 3600 }, redis),
    confirmPerToken: new Limiter('confirm-token', { points: limits.confirmPerToken, duration: 3600 }, redis),
  };
}
