import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTill } from '@till/client';
import { patientTimeouts, startTestApp, type TestApp } from '@till/test-support/app';
import { startTestOp, type TestOp } from '@till/test-support/oidc-provider';
import { GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';

// The SDK's connect calls against the real server over HTTP and a real OpenID provider.
describe('SDK connecting a provider to the signed-in account', () => {
  let t: TestApp;
  let corp: TestOp;
  beforeAll(async () => {
    corp = await startTestOp();
    t = await startTestApp({
      listen: true,
      env: {
        SOCIAL_OIDC_PROVIDERS: 'corp',
        SOCIAL_OIDC_CORP_ISSUER: corp.issuer,
        SOCIAL_OIDC_CORP_CLIENT_ID: 'till-web',
        SOCIAL_OIDC_CORP_CLIENT_SECRET: 'web-secret',
        SOCIAL_OIDC_CORP_NAME: 'Corp ID',
      },
    });
    corp.setClients([
      { client_id: 'till-web', client_secret: 'web-secret', redirect_uris: [`${t.url}/api/social/callback`] },
    ]);
  });
  afterAll(async () => {
    await t.close();
    await corp.close();
  });

  it('asks the step-up handler, then links the provider with the ticket the profile gets back', async () => {
    const asked: unknown[] = [];
    const till = createTill({
      apiHost: t.url,
      storeHost: t.url,
      timeouts: patientTimeouts,
      stepUp: (refused) => {
        asked.push(refused);
        return Promise.resolve({ password: GOOD_PASSWORD });
      },
    });
    const email = uniqueEmail('sdkconnect');
    expect((await till.api.register({ email, password: GOOD_PASSWORD, name: 'Ada', lang: 'en' })).code).toBe(900);
    const started = await till.api.social.connect('corp', 'en');
    if (started.code !== 900) throw new Error(`connect answered ${started.code}`);
    expect(asked).toHaveLength(1);
    corp.nextPerson = { sub: `sdk-${Date.now()}`, email: uniqueEmail('corp'), email_verified: true, name: 'Ada' };
    const stop = await corp.browse(started.data.url, `${t.url}/api/social/callback`);
    if (!('location' in stop)) throw new Error('expected a redirect');
    const back = await fetch(stop.location, { redirect: 'manual' });
    const ticket = new URLSearchParams(new URL(back.headers.get('location') ?? '').hash.slice(1)).get('connectTicket');
    const done = await till.api.social.connectFinish(ticket ?? '');
    if (done.code !== 900) throw new Error(`connectFinish answered ${done.code}`);
    expect(done.data.identity).toMatchObject({ provider: 'corp', email: corp.nextPerson.email });
    const list = await till.api.social.list();
    expect(list.code === 900 && list.data.identities.map((i) => i.id)).toEqual([done.data.identity.id]);
    expect(await till.api.social.connectFinish(ticket ?? '')).toEqual({ code: 911 });
  });
});
