import * as argon2 from '@node-rs/argon2';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ARGON2_OPTIONS, PasswordHasher, standardHasher } from '../../security/passwords.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { GOOD_PASSWORD, registerUser, uniqueEmail } from '@till/test-support/users';

describe.each(dialects)('register and login on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // Sign-up's and sign-in's hashing is under test here: the production settings.
    t = await startTestApp({ dialect, passwords: standardHasher });
  });
  afterAll(() => t.close());

  const registerOn = (app: TestApp, fields: Record<string, unknown>) =>
    app.call('/api/register', { email: uniqueEmail(), password: GOOD_PASSWORD, name: 'Ann', lang: 'en', ...fields });
  const register = (fields: Record<string, unknown>) => registerOn(t, fields);

  it('answers a token, its lifetime and the new user at level 1', async () => {
    const email = uniqueEmail('Mixed.Case');
    const res = await register({ email });
    expect(res.code).toBe(900);
    expect(res.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.expire).toBe(604_800);
    expect(res.user).toMatchObject({
      email: email.toLowerCase(),
      name: 'Ann',
      lang: 'en',
      level: 1,
      emailConfirmed: false,
      avatarUrl: null,
      credits: 0,
    });
    expect(typeof (res.user as { id: string }).id).toBe('string');
    expect(Date.parse((res.user as { createdAt: string }).createdAt)).not.toBeNaN();
  });

  it.each([
    [{ email: undefined }, 'email', 'required'],
    [{ email: '' }, 'email', 'required'],
    [{ email: 'not-an-address' }, 'email', 'invalid'],
    [{ password: undefined }, 'password', 'required'],
    [{ password: 'short' }, 'password', 'too_short'],
    [{ password: 'x'.repeat(129) }, 'password', 'too_long'],
    [{ password: 'password123' }, 'password', 'weak'],
    [{ password: 'QwertyUIOP' }, 'password', 'weak'],
    [{ name: undefined }, 'name', 'required'],
    [{ name: 'n'.repeat(101) }, 'name', 'too_long'],
    [{ lang: 'not a language' }, 'lang', 'invalid'],
  ])('refuses %j with 907 %s/%s', async (fields, parameter, reason) => {
    const res = await register(fields);
    expect(res).toEqual({ code: 907, parameter, reason });
  });

  it('accepts a password of exactly 8 and of exactly 128 characters', async () => {
    expect((await register({ password: 'qz8#kLw2' })).code).toBe(900);
    expect((await register({ password: 'q'.repeat(127) + 'z' })).code).toBe(900);
  });

  it('refuses an address that is taken, whatever its case', async () => {
    const email = uniqueEmail();
    expect((await register({ email })).code).toBe(900);
    expect(await register({ email: email.toUpperCase() })).toEqual({ code: 907, parameter: 'email', reason: 'taken' });
  });

  it('lets exactly one of many racing registrations of one address in, and tells the others it is taken', async () => {
    // The race is the unique index's, not the hashing's: a server of its own hashes at the cheapest
    // settings, so that the racers reach their inserts together (and the eighty production hashes of
    // the rounds, which prove nothing here, are not spent).
    const racing = await startTestApp({ dialect });
    try {
      // Rounds, since a loser whose insert is refused may not see the winner's commit yet (on SQLite it
      // can wait for its batch): its answer must come from the refusal, not from reading the row again.
      for (let round = 0; round < 10; round++) {
        const email = uniqueEmail();
        const results = await Promise.all(Array.from({ length: 8 }, () => registerOn(racing, { email })));
        const answers = results.map((r) => (r.code === 900 ? 'in' : `${r.code} ${String(r.reason)}`)).sort();
        expect(answers).toEqual([
          '907 taken',
          '907 taken',
          '907 taken',
          '907 taken',
          '907 taken',
          '907 taken',
          '907 taken',
          'in',
        ]);
      }
    } finally {
      await racing.close();
    }
  });

  it('leaves nothing behind when a registration fails after its account was written, and the address stays free', async () => {
    // The session's insert, the last of the registration's writes, refused for one user agent.
    const refuse = 'refuse-session';
    if (dialect === 'sqlite') {
      await sql`CREATE TRIGGER refuse_session BEFORE INSERT ON sessions WHEN NEW.user_agent = ${sql.lit(refuse)}
        BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(t.db.kysely);
    } else {
      await sql`CREATE FUNCTION refuse_session() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.user_agent = ${sql.lit(refuse)} THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`.execute(
        t.db.kysely,
      );
      await sql`CREATE TRIGGER refuse_session BEFORE INSERT ON sessions
        FOR EACH ROW EXECUTE FUNCTION refuse_session()`.execute(t.db.kysely);
    }
    try {
      const email = uniqueEmail();
      const body = { email, password: GOOD_PASSWORD, name: 'Ann', lang: 'en' };
      const failed = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: body,
        headers: { 'user-agent': refuse },
      });
      expect(failed.json().code).not.toBe(900);
      const users = await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(users).toEqual([]);
      const links = await t.db.kysely
        .selectFrom('link_tokens')
        .innerJoin('users', 'users.id', 'link_tokens.user_id')
        .select('token_hash')
        .where('users.email', '=', email)
        .execute();
      expect(links).toEqual([]);
      // No confirmation mail for an account that does not exist.
      expect(t.ctx.mailer.outbox?.some((m) => m.to === email)).toBe(false);
      const again = await register({ email });
      expect(again.code).toBe(900);
      expect(t.ctx.mailer.outbox?.some((m) => m.to === email)).toBe(true);
    } finally {
      await sql`DROP TRIGGER refuse_session${sql.raw(dialect === 'postgres' ? ' ON sessions' : '')}`.execute(
        t.db.kysely,
      );
      if (dialect === 'postgres') await sql`DROP FUNCTION refuse_session()`.execute(t.db.kysely);
    }
  });

  it('logs in with the e-mail in any case and answers the user', async () => {
    const u = await registerUser(t);
    const res = await t.call('/api/login', { email: u.email.toUpperCase(), password: GOOD_PASSWORD });
    expect(res.code).toBe(900);
    expect(res.token).not.toBe(u.token);
    expect(res.expire).toBe(604_800);
    expect((res.user as { id: string }).id).toBe(u.userId);
  });

  it('answers 902 for a wrong password and for an unknown address alike', async () => {
    const u = await registerUser(t);
    expect(await t.call('/api/login', { email: u.email, password: 'wrong password!' })).toEqual({ code: 902 });
    expect(await t.call('/api/login', { email: uniqueEmail(), password: GOOD_PASSWORD })).toEqual({ code: 902 });
  });

  it('answers 907 for a login without a password', async () => {
    expect(await t.call('/api/login', { email: uniqueEmail() })).toEqual({
      code: 907,
      parameter: 'password',
      reason: 'required',
    });
  });

  it('stores only hashes: no token in the sessions table, passwords as argon2id at the current settings', async () => {
    const u = await registerUser(t);
    const sessions = await t.ctx.db.kysely.selectFrom('sessions').selectAll().where('user_id', '=', u.userId).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(sessions)).not.toContain(u.token);
    const user = await t.ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', u.userId)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=20480,t=2,p=1\$/);
  });

  it('moves a password hashed with earlier settings to the current ones at its next sign-in', async () => {
    const u = await registerUser(t);
    const old = await argon2.hash(GOOD_PASSWORD, { ...ARGON2_OPTIONS, memoryCost: 19_456 });
    await t.ctx.db.kysely.updateTable('users').set({ password_hash: old }).where('id', '=', u.userId).execute();
    const stored = () =>
      t.ctx.db.kysely
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', u.userId)
        .executeTakeFirstOrThrow()
        .then((r) => r.password_hash);
    expect(await t.call('/api/login', { email: u.email, password: 'wrong password!' })).toEqual({ code: 902 });
    expect(await stored()).toBe(old);
    expect((await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).code).toBe(900);
    await vi.waitFor(async () => expect(await stored()).toMatch(/^\$argon2id\$v=19\$m=20480,t=2,p=1\$/), {
      timeout: 30_000,
    });
    expect((await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).code).toBe(900);
    expect((await t.call('/api/login', { email: u.email, password: 'wrong password!' })).code).toBe(902);
  });

  it('checks a password for an unknown address as costly as for a known one (the dummy hash)', async () => {
    // What each login verified against: an unknown address must cost a verification with the same
    // settings as a known one, so that the answer's time does not tell which addresses have accounts.
    const checked: string[] = [];
    class RecordingHasher extends PasswordHasher {
      protected override check(encoded: string, password: string): Promise<boolean> {
        checked.push(encoded);
        return super.check(encoded, password);
      }
    }
    const recorded = await startTestApp({ dialect, passwords: new RecordingHasher() });
    try {
      const u = await registerUser(recorded);
      const settings = (encoded: string) => /^\$argon2id\$v=19\$([^$]+)\$/.exec(encoded)?.[1];
      expect(await recorded.call('/api/login', { email: u.email, password: 'some wrong password' })).toEqual({
        code: 902,
      });
      expect(checked).toHaveLength(1);
      const known = checked[0]!;
      expect(await recorded.call('/api/login', { email: uniqueEmail(), password: 'some wrong password' })).toEqual({
        code: 902,
      });
      expect(checked).toHaveLength(2);
      const unknown = checked[1]!;
      expect(unknown).not.toBe(known);
      expect(settings(unknown)).toBe('m=20480,t=2,p=1');
      expect(settings(unknown)).toBe(settings(known));
    } finally {
      await recorded.close();
    }
  });
});
