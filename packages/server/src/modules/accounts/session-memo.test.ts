import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';
import { Code } from '@till/protocol';
import type { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteDriverName } from '../../db/connect.js';
import { startTestApp, type TestApp } from '../../test-support/app.js';
import { hashToken } from '../../security/tokens.js';
import { AccountsRepo } from './repo.js';

const Driver = createRequire(import.meta.url)(sqliteDriverName) as typeof SqliteDatabase;

// The session lookup is kept between commits on SQLite only (PostgreSQL has no data version here).
describe('sessions kept between commits on SQLite', () => {
  let t: TestApp;
  let now: number;
  /** Another connection to the same file: what a second server process would write through. */
  let other: SqliteDatabase.Database;
  let token: string;

  beforeEach(async () => {
    now = Date.UTC(2026, 10, 1);
    t = await startTestApp({ now: () => now, env: { SESSION_TTL: '3600' } });
    other = new Driver(t.db.url.slice('sqlite:'.length));
    const reg = await t.call('/api/register', {
      email: 'memo@example.test',
      password: 'a long, uncommon passphrase',
      name: 'Memo',
    });
    token = reg.token as string;
  });
  afterEach(async () => {
    other.close();
    await t.close();
  });

  const userInfo = () => t.call('/api/auth/getUserInfo', { token });

  it('refuses a session removed by another process on the very next call', async () => {
    expect((await userInfo()).code).toBe(900);
    expect((await userInfo()).code).toBe(900);
    other.prepare('delete from sessions').run();
    expect((await userInfo()).code).toBe(Code.InvalidToken);
  });

  it('answers what another process changed on the very next call', async () => {
    expect((await userInfo()).user).toMatchObject({ credits: 0, name: 'Memo' });
    other.prepare("update users set credits = 42, name = 'Changed'").run();
    expect((await userInfo()).user).toMatchObject({ credits: 42, name: 'Changed' });
  });

  it('refuses a kept session once it has expired, with nothing committed meanwhile', async () => {
    expect((await userInfo()).code).toBe(900);
    now += 3_600_000 + 1;
    expect((await userInfo()).code).toBe(Code.InvalidToken);
  });

  it('refuses a session signed out in this process on the very next call', async () => {
    expect((await userInfo()).code).toBe(900);
    expect((await t.call('/api/auth/logout', { token })).code).toBe(900);
    expect((await userInfo()).code).toBe(Code.InvalidToken);
  });

  it('looks a session up again only after a commit', async () => {
    let lookups = 0;
    const read = <T>(query: CompiledQuery, parameters: readonly unknown[]) => {
      lookups += 1;
      return t.db.read<T>(query, parameters);
    };
    const repo = new AccountsRepo(t.db.kysely, read, t.db.version);
    const hash = hashToken(token);
    const first = await repo.findSession(hash, now);
    expect(first).toMatchObject({ email: 'memo@example.test' });
    expect(await repo.findSession(hash, now)).toBe(first);
    expect(lookups).toBe(1);
    // What is kept cannot be changed by a caller.
    expect(Object.isFrozen(first)).toBe(true);
    other.prepare("update users set name = 'Renamed'").run();
    expect(await repo.findSession(hash, now)).toMatchObject({ name: 'Renamed' });
    expect(lookups).toBe(2);
    // An unknown token is looked up every time.
    expect(await repo.findSession(hashToken('unknown'), now)).toBeUndefined();
    expect(await repo.findSession(hashToken('unknown'), now)).toBeUndefined();
    expect(lookups).toBe(4);
  });
});
