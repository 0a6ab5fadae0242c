import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { GOOD_PASSWORD, registerUser, uniqueEmail } from '@till/test-support/users';

describe.each(dialects)('updateInfo on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t.close());

  /** Makes the e-mail change link's insert, the last of updateInfo's writes, fail for `address`. */
  async function refuseLinkTo(address: string): Promise<() => Promise<void>> {
    if (dialect === 'sqlite') {
      await sql`CREATE TRIGGER refuse_link BEFORE INSERT ON link_tokens WHEN NEW.new_email = ${sql.lit(address)}
        BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(t.db.kysely);
    } else {
      await sql`CREATE FUNCTION refuse_link() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.new_email = ${sql.lit(address)} THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`.execute(
        t.db.kysely,
      );
      await sql`CREATE TRIGGER refuse_link BEFORE INSERT ON link_tokens
        FOR EACH ROW EXECUTE FUNCTION refuse_link()`.execute(t.db.kysely);
    }
    return async () => {
      await sql`DROP TRIGGER refuse_link${sql.raw(dialect === 'postgres' ? ' ON link_tokens' : '')}`.execute(
        t.db.kysely,
      );
      if (dialect === 'postgres') await sql`DROP FUNCTION refuse_link()`.execute(t.db.kysely);
    };
  }

  it('keeps none of a change whose last write fails, and mails nothing', async () => {
    const u = await registerUser(t);
    const other = await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    expect(other.code).toBe(900);
    const next = uniqueEmail('next');
    const change = {
      token: u.token,
      name: 'Renamed',
      email: next,
      password: 'a different long passphrase',
      currentPassword: GOOD_PASSWORD,
    };
    const before = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', u.email)
      .executeTakeFirstOrThrow();
    const allow = await refuseLinkTo(next);
    try {
      expect((await t.call('/api/auth/updateInfo', change)).code).not.toBe(900);
    } finally {
      await allow();
    }
    // The user row, the other session, the log and the outbox are as they were before the call.
    const after = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await t.call('/api/auth/getUserInfo', { token: other.token as string })).code).toBe(900);
    const lines = await t.db.kysely
      .selectFrom('security_log')
      .select('kind')
      .where('user_id', '=', before.id)
      .execute();
    expect(lines.map((l) => l.kind)).not.toContain('password_changed');
    expect(lines.map((l) => l.kind)).not.toContain('email_change_requested');
    expect(t.ctx.mailer.outbox?.some((m) => m.to === next)).toBe(false);

    // Without the failure the same call goes through whole.
    expect((await t.call('/api/auth/updateInfo', change)).code).toBe(900);
    const changed = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(changed).toMatchObject({ name: 'Renamed', pending_email: next });
    expect(changed.password_hash).not.toBe(before.password_hash);
    expect(await t.call('/api/auth/getUserInfo', { token: other.token as string })).toEqual({ code: 901 });
    expect(t.ctx.mailer.outbox?.some((m) => m.to === next)).toBe(true);
  });
});
