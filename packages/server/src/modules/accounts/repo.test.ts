import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate.js';
import { createTestDb, dialects, type TestDb } from '@till/test-support/db';
import { AccountsRepo, type UserRow } from './repo.js';

describe.each(dialects)('AccountsRepo on %s', (dialect) => {
  let db: TestDb;
  let repo: AccountsRepo;
  beforeAll(async () => {
    db = await createTestDb(dialect);
    await migrateToLatest(db.kysely, db.dialect);
    repo = new AccountsRepo(db.kysely);
  });
  afterAll(() => db.drop());

  const newUser = async (email = `${randomUUID()}@example.test`): Promise<UserRow> => {
    const now = Date.now();
    const row: UserRow = {
      id: randomUUID(),
      email,
      name: 'Repo',
      lang: 'en',
      level: 1,
      email_confirmed: 0,
      password_hash: 'hash',
      pending_email: null,
      avatar_file_id: null,
      avatar_key: null,
      flagged_at: null,
      flag_reason: null,
      deleted_at: null,
      created_at: now,
      updated_at: now,
    };
    await repo.insertUser(row);
    return row;
  };

  it('migrates twice without harm', async () => {
    await migrateToLatest(db.kysely, db.dialect);
  });

  it('finds users by id and by e-mail in any case, and updates them', async () => {
    const u = await newUser();
    expect(await repo.findUserById(u.id)).toEqual(u);
    expect((await repo.findUserByEmail(u.email.toUpperCase()))?.id).toBe(u.id);
    await repo.updateUser(u.id, { name: 'Changed', email_confirmed: 1 });
    expect(await repo.findUserById(u.id)).toMatchObject({ name: 'Changed', email_confirmed: 1 });
    expect(await repo.findUserById('missing')).toBeUndefined();
  });

  it('replaces a password hash only while the account still holds the one it read', async () => {
    const u = await newUser();
    await repo.updateUser(u.id, { password_hash: 'set meanwhile' });
    const { updated_at } = (await repo.findUserById(u.id))!;
    expect(await repo.replacePasswordHash(u.id, 'hash', 'rehashed')).toBe(false);
    expect((await repo.findUserById(u.id))?.password_hash).toBe('set meanwhile');
    expect(await repo.replacePasswordHash(u.id, 'set meanwhile', 'rehashed')).toBe(true);
    expect(await repo.findUserById(u.id)).toMatchObject({ password_hash: 'rehashed', updated_at });
  });

  it('refuses a second user with the same e-mail', async () => {
    const u = await newUser();
    await expect(newUser(u.email)).rejects.toThrow();
  });

  it('keeps sessions: live ones are found, expired ones are not, others can be ended', async () => {
    const u = await newUser();
    const now = Date.now();
    const session = (id: string, hash: string, expires: number, lastSeen = now) => ({
      id,
      user_id: u.id,
      token_hash: hash,
      created_at: now,
      expires_at: expires,
      last_seen_at: lastSeen,
      user_agent: 'test',
      ip: '127.0.0.1',
      step_up_at: null,
    });
    await repo.insertSession(session('s1', `h1-${u.id}`, now + 60_000));
    await repo.insertSession(session('s2', `h2-${u.id}`, now + 60_000));
    await repo.insertSession(session('s3', `h3-${u.id}`, now - 1));
    // Unused since before the idle cutoff: not listed, and purged.
    await repo.insertSession(session('s4', `h4-${u.id}`, now + 60_000, now - 10_000));
    expect(await repo.findSession(`h1-${u.id}`, now)).toMatchObject({ session_id: 's1', user_id: u.id });
    expect(await repo.findSession(`h3-${u.id}`, now)).toBeUndefined();
    expect((await repo.listSessions(u.id, now, now - 5_000)).map((s) => s.id).sort()).toEqual(['s1', 's2']);
    expect(await repo.purgeExpired(now, now - 5_000)).toBeGreaterThanOrEqual(2);
    expect(await repo.findSession(`h4-${u.id}`, now)).toBeUndefined();
    await repo.touchSession('s1', now + 5);
    expect((await repo.findSession(`h1-${u.id}`, now))?.last_seen_at).toBe(now + 5);
    expect(await repo.deleteOtherSessions(u.id, 's1')).toBe(1);
    expect((await repo.listSessions(u.id, now, now - 5_000)).map((s) => s.id)).toEqual(['s1']);
    await repo.deleteSession('s1');
    expect(await repo.listSessions(u.id, now, now - 5_000)).toEqual([]);
  });

  it('spends a link token once, only of its kind and before it expires', async () => {
    const u = await newUser();
    const now = Date.now();
    const link = (hash: string, expires: number) => ({
      token_hash: hash,
      user_id: u.id,
      kind: 'reset' as const,
      new_email: null,
      created_at: now,
      expires_at: expires,
      used_at: null,
    });
    await repo.insertLinkToken(link(`a-${u.id}`, now + 1000));
    await repo.insertLinkToken(link(`b-${u.id}`, now - 1));
    expect(await repo.consumeLinkToken(`a-${u.id}`, 'confirm', now)).toBeUndefined();
    const racing = await Promise.all([1, 2, 3, 4].map(() => repo.consumeLinkToken(`a-${u.id}`, 'reset', now)));
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect(await repo.consumeLinkToken(`b-${u.id}`, 'reset', now)).toBeUndefined();
    await repo.insertLinkToken(link(`c-${u.id}`, now + 1000));
    await repo.voidLinkTokens(u.id, 'reset', now);
    expect(await repo.consumeLinkToken(`c-${u.id}`, 'reset', now)).toBeUndefined();
  });
});
