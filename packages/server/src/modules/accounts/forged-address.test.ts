import { describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../../config.js';
import { startTestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { uniqueEmail } from '@till/test-support/users';

const production = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://127.0.0.1:1',
  SIGNING_SECRET: 'a signing secret of more than thirty-two characters',
  PUBLIC_URL: 'https://till.example',
};

/** Codes of `count` logins sent at once, each with an address of its own in `X-Forwarded-For`. */
async function forgedLogins(env: Record<string, string>, dialect: (typeof dialects)[number], count: number) {
  const t = await startTestApp({ dialect, env, config: { rateLimits: { ...defaultRateLimits } } });
  try {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
          payload: { email: uniqueEmail('guess'), password: 'not the password' },
        }),
      ),
    );
    return answers.map((res) => (res.json() as { code: number }).code);
  } finally {
    await t.close();
  }
}

describe.each(dialects)('client addresses in production on %s', (dialect) => {
  it('does not believe a forged X-Forwarded-For by default: the per-address login budget holds', async () => {
    const codes = await forgedLogins(production, dialect, 35);
    expect(codes.filter((c) => c === 902)).toHaveLength(defaultRateLimits.loginPerIp);
    expect(codes.filter((c) => c === 906)).toHaveLength(35 - defaultRateLimits.loginPerIp);
  });

  it('counts each client apart behind a proxy that TRUST_PROXY names', async () => {
    const codes = await forgedLogins({ ...production, TRUST_PROXY: '1' }, dialect, 35);
    expect(codes.filter((c) => c === 902)).toHaveLength(35);
  });
});
