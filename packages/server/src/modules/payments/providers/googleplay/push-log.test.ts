import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import {
  AUDIENCE,
  FakeGoogle,
  googlePlayTestConfig,
  PACKAGE,
  PUSHER,
  rsa,
  SECRET,
} from '@till/test-support/fake-google-play';

interface LogLine {
  level: number;
  msg: string;
  reason?: string;
  audience?: string;
  email?: string;
}

// A push subscription whose audience or service account differs from the configuration is refused
// on every push; the log must say why, or the operator sees nothing but 403s.
describe('refused Google pushes in the log', () => {
  const lines: string[] = [];
  let t: TestApp;
  let google: FakeGoogle;

  beforeAll(async () => {
    google = new FakeGoogle();
    await google.start();
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    t = await startTestApp({
      listen: true,
      logger: { level: 'info', stream },
      env: { LOG_LEVEL: 'info' },
      config: { payments: { card: undefined, paywall: undefined, googleplay: googlePlayTestConfig(google) } },
    });
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  const push = async (auth: { bearer?: string; secret?: string }) => {
    const before = lines.length;
    const res = await fetch(
      `${t.url}/api/payments/webhook/google${auth.secret ? `?token=${encodeURIComponent(auth.secret)}` : ''}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(auth.bearer ? { authorization: `Bearer ${auth.bearer}` } : {}),
        },
        body: JSON.stringify({
          message: {
            data: Buffer.from(JSON.stringify({ packageName: PACKAGE, testNotification: { version: '1.0' } })).toString(
              'base64',
            ),
            messageId: String(Math.random()),
          },
          subscription: 'projects/till-test/subscriptions/play-push',
        }),
      },
    );
    const logged = lines
      .slice(before)
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine);
    return {
      status: res.status,
      refusals: logged.filter((l) => l.msg === 'Google push refused'),
      text: lines.slice(before).join(''),
    };
  };

  it('logs a warning with the reason and the claims that differ, never the token', async () => {
    const cases: [{ bearer?: string; secret?: string }, Partial<LogLine>][] = [
      [
        { bearer: google.oidc({ aud: 'https://elsewhere.example/push' }) },
        { reason: 'audience', audience: 'https://elsewhere.example/push', email: PUSHER },
      ],
      [
        { bearer: google.oidc({ email: 'other@till-test.iam.gserviceaccount.com' }) },
        { reason: 'service_account', audience: AUDIENCE, email: 'other@till-test.iam.gserviceaccount.com' },
      ],
      [{ bearer: google.oidc({}, rsa().privateKey) }, { reason: 'signature' }],
      [
        {
          bearer: google.oidc({ exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }),
        },
        { reason: 'expired' },
      ],
      [{ bearer: 'not.a.jwt' }, { reason: 'malformed' }],
      [{ secret: `${SECRET}x` }, { reason: 'secret' }],
    ];
    for (const [auth, expected] of cases) {
      const { status, refusals, text } = await push(auth);
      expect(status).toBe(403);
      // Pino's warn level.
      expect(refusals).toEqual([expect.objectContaining({ level: 40, ...expected })]);
      const credential = auth.bearer ?? auth.secret ?? '';
      expect(text).not.toContain(credential);
      // Nor the signature of a token, alone.
      const signature = auth.bearer?.split('.')[2];
      if (signature && signature.length > 20) expect(text).not.toContain(signature);
    }
  });

  it('logs nothing of the kind for a push it accepts', async () => {
    const { status, refusals } = await push({ bearer: google.oidc() });
    expect(status).toBe(200);
    expect(refusals).toEqual([]);
  });
});
