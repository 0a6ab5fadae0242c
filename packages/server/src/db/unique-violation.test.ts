import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, dialects, type TestDb } from '@till/test-support/db';
import { migrateToLatest } from './migrate.js';
import { isUniqueViolation } from './rows.js';

describe.each(dialects)('isUniqueViolation on %s', (dialect) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb(dialect, 2);
    await migrateToLatest(db.kysely, db.dialect);
  });
  afterAll(() => db.drop());

  const user = (email: string) => ({
    id: randomUUID(),
    email,
    name: 'Ann',
    lang: 'en',
    level: 1,
    email_confirmed: 0,
    password_hash: 'x',
    pending_email: null,
    avatar_file_id: null,
    avatar_key: null,
    flagged_at: null,
    flag_reason: null,
    deleted_at: null,
    created_at: 1,
    updated_at: 1,
  });

  it('tells the refusal of a second row with a taken unique value by table and column', async () => {
    const email = `${randomUUID()}@example.com`;
    await db.kysely.insertInto('users').values(user(email)).execute();
    const error = await db.kysely
      .insertInto('users')
      .values(user(email))
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeDefined();
    expect(isUniqueViolation(error, 'users', 'email')).toBe(true);
    expect(isUniqueViolation(error, 'users', 'id')).toBe(false);
    expect(isUniqueViolation(error, 'files', 'email')).toBe(false);
  });

  it('tells a taken key of several columns by all of them, in order', async () => {
    const email = `${randomUUID()}@example.com`;
    const owner = user(email);
    await db.kysely.insertInto('users').values(owner).execute();
    const identity = () => ({
      id: randomUUID(),
      user_id: owner.id,
      provider: 'google',
      subject: 'sub-1',
      email,
      created_at: 1,
      last_used_at: null,
    });
    await db.kysely.insertInto('social_identities').values(identity()).execute();
    const error = await db.kysely
      .insertInto('social_identities')
      .values(identity())
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeDefined();
    expect(isUniqueViolation(error, 'social_identities', 'provider', 'subject')).toBe(true);
    expect(isUniqueViolation(error, 'social_identities', 'provider')).toBe(false);
    expect(isUniqueViolation(error, 'social_identities', 'subject', 'provider')).toBe(false);
    expect(isUniqueViolation(error, 'users', 'provider', 'subject')).toBe(false);
  });

  it('does not take other errors for one', async () => {
    const error = await db.kysely
      .insertInto('users')
      .values({ ...user('a'), email: null as unknown as string })
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeDefined();
    expect(isUniqueViolation(error, 'users', 'email')).toBe(false);
    expect(isUniqueViolation(new Error('UNIQUE constraint failed: users.email'), 'users', 'email')).toBe(false);
  });
});
