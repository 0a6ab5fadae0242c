import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../../config.js';
import { AccountsRepo } from './repo.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { startTestOp, type TestOp, type TestPerson } from '@till/test-support/oidc-provider';
import { uniqueEmail } from '@till/test-support/users';

const APP_REDIRECT = 'com.example.till:/oauth';
/** Addresses raced at once in each test: enough that the sign-ins of one pair overlap. */
const PAIRS = 8;

interface Answer {
  code: number;
  user?: { id: string };
}

/**
 * Holds the first two look-ups of each raced address until both were made, so that both sign-ins
 * find no account before either makes one: the race the database's unique keys must settle, on
 * every run and both databases (left alone, SQLite's one process rarely interleaves them).
 */
function meetAtLookUp(addresses: Set<string>): () => void {
  const original = AccountsRepo.prototype.findUserByEmail;
  const waiting = new Map<string, { count: number; release: () => void; met: Promise<void> }>();
  AccountsRepo.prototype.findUserByEmail = async function (this: AccountsRepo, email, trx) {
    const key = email.toLowerCase();
    if (addresses.has(key)) {
      let gate = waiting.get(key);
      if (!gate) {
        let release = () => {};
        const met = new Promise<void>((resolve) => (release = resolve));
        gate = { count: 0, release, met };
        waiting.set(key, gate);
      }
      gate.count += 1;
      if (gate.count === 2) gate.release();
      if (gate.count <= 2) await gate.met;
    }
    return original.call(this, email, trx);
  };
  return () => {
    AccountsRepo.prototype.findUserByEmail = original;
  };
}

/**
 * Two first sign-ins for one new verified address at the same moment end with one account: the
 * second gets that account (the same provider account) or the link-required answer (another
 * provider), never a fault or a second account. Every request has its own HTTP connection to a
 * listening server; on PostgreSQL the pool gives each its own database connection.
 */
describe.each(dialects)('social sign-ins racing for a new address on %s', (dialect) => {
  let t: TestApp;
  let corp: TestOp;
  let staff: TestOp;
  let people = 0;

  beforeAll(async () => {
    corp = await startTestOp();
    staff = await startTestOp();
    t = await startTestApp({
      dialect,
      listen: true,
      poolSize: 20,
      config: { rateLimits: { ...defaultRateLimits, loginPerIp: 10_000 } },
      env: {
        SOCIAL_OIDC_PROVIDERS: 'corp,staff',
        SOCIAL_OIDC_CORP_ISSUER: corp.issuer,
        SOCIAL_OIDC_CORP_CLIENT_ID: 'till-web',
        SOCIAL_OIDC_CORP_CLIENT_SECRET: 'web-secret',
        SOCIAL_OIDC_CORP_APP_CLIENT_IDS: 'till-app',
        SOCIAL_OIDC_STAFF_ISSUER: staff.issuer,
        SOCIAL_OIDC_STAFF_APP_CLIENT_IDS: 'till-app',
      },
    });
    const native = { token_endpoint_auth_method: 'none' as const, application_type: 'native' as const };
    corp.setClients([
      { client_id: 'till-web', client_secret: 'web-secret', redirect_uris: [`${t.url}/api/social/callback`] },
      { client_id: 'till-app', redirect_uris: [APP_REDIRECT], ...native },
    ]);
    staff.setClients([{ client_id: 'till-app', redirect_uris: [APP_REDIRECT], ...native }]);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([corp.close(), staff.close()]);
  });

  const person = (email = uniqueEmail('race')): TestPerson => ({
    sub: `racer-${++people}-${Date.now()}`,
    email,
    email_verified: true,
    name: 'Rae Racer',
  });

  /** A phone's ID token for `who` from `op`, with a fresh nonce from the server. */
  async function idToken(op: TestOp, provider: string, who: TestPerson): Promise<() => Promise<Answer>> {
    const nonce = await t.call('/api/social/nonce', { provider });
    op.nextPerson = who;
    const token = await op.nativeIdToken('till-app', APP_REDIRECT, (nonce.data as { nonce: string }).nonce);
    return () => post('/api/social/idToken', { provider, idToken: token });
  }

  /** A web flow through corp up to its ticket; the sign-in is the ticket's use. */
  async function ticket(who: TestPerson): Promise<() => Promise<Answer>> {
    corp.nextPerson = who;
    const started = await t.call('/api/social/start', { provider: 'corp' });
    const stop = await corp.browse((started.data as { url: string }).url, `${t.url}/api/social/callback`);
    if (!('location' in stop)) throw new Error('expected a redirect');
    const back = await fetch(stop.location, { redirect: 'manual' });
    const value = new URLSearchParams(new URL(back.headers.get('location') ?? '').hash.slice(1)).get('ticket');
    expect(value).toBeTruthy();
    return () => post('/api/social/finish', { ticket: value });
  }

  async function post(path: string, body: object): Promise<Answer> {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Answer;
  }

  async function accountsOf(email: string) {
    return t.ctx.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
  }
  async function identitiesOf(userIds: string[]) {
    if (!userIds.length) return [];
    return t.ctx.db.kysely
      .selectFrom('social_identities')
      .select(['user_id', 'provider'])
      .where('user_id', 'in', userIds)
      .execute();
  }

  it('one provider account signing in twice at once: one account, both sign in to it', async () => {
    const racers: (() => Promise<Answer>)[][] = [];
    const who: TestPerson[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const p = person();
      who.push(p);
      // A phone's ID token and a browser's ticket for the same provider account.
      racers.push([await idToken(corp, 'corp', p), await ticket(p)]);
    }
    const restore = meetAtLookUp(new Set(who.map((p) => p.email ?? '')));
    const answers = await Promise.all(racers.map((pair) => Promise.all(pair.map((go) => go())))).finally(restore);
    for (const [i, pair] of answers.entries()) {
      expect(pair.map((a) => a.code)).toEqual([900, 900]);
      const accounts = await accountsOf(who[i]?.email ?? '');
      expect(accounts).toHaveLength(1);
      expect(pair.map((a) => a.user?.id)).toEqual([accounts[0]?.id, accounts[0]?.id]);
      expect(await identitiesOf(accounts.map((a) => a.id))).toEqual([{ user_id: accounts[0]?.id, provider: 'corp' }]);
    }
  });

  it('two providers vouching for one address at once: one account, the other asked to link', async () => {
    const racers: (() => Promise<Answer>)[][] = [];
    const emails: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const email = uniqueEmail('race');
      emails.push(email);
      racers.push([await idToken(corp, 'corp', person(email)), await idToken(staff, 'staff', person(email))]);
    }
    const restore = meetAtLookUp(new Set(emails));
    const answers = await Promise.all(racers.map((pair) => Promise.all(pair.map((go) => go())))).finally(restore);
    for (const [i, pair] of answers.entries()) {
      expect(pair.map((a) => a.code).sort()).toEqual([900, 915]);
      const accounts = await accountsOf(emails[i] ?? '');
      expect(accounts).toHaveLength(1);
      expect(pair.find((a) => a.code === 900)?.user?.id).toBe(accounts[0]?.id);
      // Only the winner's provider is linked; the other waits for the owner's proof.
      expect(await identitiesOf(accounts.map((a) => a.id))).toHaveLength(1);
    }
  });
});
