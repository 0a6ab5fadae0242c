import { Code } from '@till/protocol';
import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../db/connect.js';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { hashToken } from '../../security/tokens.js';
import { AccountsRepo } from './repo.js';
import { saveProduct } from '@till/test-support/store';
import { adminUser } from '@till/test-support/users';

// The session lookup is kept between commits on SQLite only (PostgreSQL has no data version here).
describe('sessions kept between commits on SQLite', () => {
  let t: TestApp;
  let now: number;
  let token: string;

  beforeEach(async () => {
    now = Date.UTC(2026, 10, 1);
    t = await startTestApp({ now: () => now, env: { SESSION_TTL: '3600' } });
    const reg = await t.call('/api/register', {
      email: 'memo@example.test',
      password: 'a long, uncommon passphrase',
      name: 'Memo',
    });
    token = reg.token as string;
  });
  afterEach(() => t.close());
  /** A write outside any transaction, as a job or an administrator's change makes one. */
  const write = (sql: string) => t.ctx.db.kysely.executeQuery(CompiledQuery.raw(sql));

  const userInfo = () => t.call('/api/auth/getUserInfo', { token });

  it('refuses a session removed by a write outside any transaction on the very next call', async () => {
    expect((await userInfo()).code).toBe(900);
    expect((await userInfo()).code).toBe(900);
    await write('delete from sessions');
    expect((await userInfo()).code).toBe(Code.InvalidToken);
  });

  it('answers what a transaction changed on the very next call', async () => {
    expect((await userInfo()).user).toMatchObject({ credits: 0, name: 'Memo' });
    await t.ctx.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ name: 'Changed' }).execute();
      await trx.updateTable('credit_balances').set({ credits: 42 }).execute();
    });
    expect((await userInfo()).user).toMatchObject({ credits: 42, name: 'Changed' });
  });

  it('writes when a kept session was last seen, at most once a minute', async () => {
    const lastSeen = async () =>
      Number(
        (await t.ctx.db.kysely.selectFrom('sessions').select('last_seen_at').executeTakeFirstOrThrow()).last_seen_at,
      );
    expect((await userInfo()).code).toBe(900);
    const first = await lastSeen();
    expect(first).toBe(now);
    now += 30_000;
    expect((await userInfo()).code).toBe(900);
    expect(await lastSeen()).toBe(first);
    now += 30_001;
    expect((await userInfo()).code).toBe(900);
    expect(await lastSeen()).toBe(now);
  });

  it('is the only server on its file: a second is refused while it runs', async () => {
    await expect(connect(t.db.url)).rejects.toThrow(/in use by another Till server/);
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

  /** A repo of its own on the app's database, counting the reads it makes. */
  const countingRepo = () => {
    const counted = { lookups: 0 };
    const read = <T>(query: CompiledQuery, parameters: readonly unknown[]) => {
      counted.lookups += 1;
      return t.db.read<T>(query, parameters);
    };
    return { repo: new AccountsRepo(t.db.kysely, read, t.db.version), counted };
  };

  it('looks a session up again only after a commit', async () => {
    const { repo, counted } = countingRepo();
    const hash = hashToken(token);
    const looked = repo.findSession(hash, now);
    expect(looked).toBeInstanceOf(Promise);
    const first = await looked;
    expect(first).toMatchObject({ email: 'memo@example.test' });
    // A kept session is answered at once, without a promise to wait for.
    expect(repo.findSession(hash, now)).toBe(first);
    expect(counted.lookups).toBe(1);
    // What is kept cannot be changed by a caller.
    expect(Object.isFrozen(first)).toBe(true);
    // A commit that wrote neither sessions nor users keeps it; one that wrote users does not.
    await t.ctx.db.kysely.insertInto('store_meta').values({ key: 'memo', value: 'kept', updated_at: now }).execute();
    expect(await repo.findSession(hash, now)).toBe(first);
    expect(counted.lookups).toBe(1);
    await t.ctx.db.kysely.updateTable('users').set({ name: 'Renamed' }).execute();
    expect(await repo.findSession(hash, now)).toMatchObject({ name: 'Renamed' });
    expect(counted.lookups).toBe(2);
    // Raw SQL counts as writing every table.
    await write("update store_meta set value = 'raw' where key = 'memo'");
    await repo.findSession(hash, now);
    expect(counted.lookups).toBe(3);
    // An unknown token is looked up every time.
    expect(await repo.findSession(hashToken('unknown'), now)).toBeUndefined();
    expect(await repo.findSession(hashToken('unknown'), now)).toBeUndefined();
    expect(counted.lookups).toBe(5);
  });

  it('keeps a session through a change of balances, and answers the new balance', async () => {
    const { repo, counted } = countingRepo();
    const hash = hashToken(token);
    const fresh = await repo.findSession(hash, now);
    expect(fresh).toMatchObject({ email: 'memo@example.test' });
    // Balances are the store's own table: a purchase leaves the kept session as it is.
    expect(fresh).not.toHaveProperty('credits');
    expect((await userInfo()).user).toMatchObject({ credits: 0 });
    await t.ctx.db.kysely.updateTable('credit_balances').set({ credits: 70 }).execute();
    expect(repo.findSession(hash, now)).toBe(fresh);
    expect(counted.lookups).toBe(1);
    expect((await userInfo()).user).toMatchObject({ credits: 70 });
    expect((await userInfo()).user).toMatchObject({ credits: 70 });
    // A balance and the user together: the session is read again, with the new name and balance.
    await t.ctx.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ name: 'Both' }).execute();
      await trx.updateTable('credit_balances').set({ credits: 71 }).execute();
    });
    expect(await repo.findSession(hash, now)).toMatchObject({ name: 'Both' });
    expect(counted.lookups).toBe(2);
    expect((await userInfo()).user).toMatchObject({ name: 'Both', credits: 71 });
  });

  it("answers a kept session's user as JSON with its code first, and its change on the very next call", async () => {
    const raw = async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/getUserInfo', payload: { token } });
      return { type: res.headers['content-type'], text: res.body };
    };
    const first = await raw();
    expect(first.type).toBe('application/json; charset=utf-8');
    expect(first.text.startsWith('{"code":900,"user":{')).toBe(true);
    expect(JSON.parse(first.text).user).toMatchObject({ name: 'Memo', email: 'memo@example.test', credits: 0 });
    expect((await raw()).text).toBe(first.text);
    expect((await t.call('/api/auth/updateInfo', { token, name: 'Renamed' })).code).toBe(900);
    expect(JSON.parse((await raw()).text).user).toMatchObject({ name: 'Renamed', email: 'memo@example.test' });
  });

  it('answers the balance a purchase left on the very next getUserInfo', async () => {
    const admin = await adminUser(t);
    const me = (await userInfo()).user as { id: string };
    expect(
      (await t.call('/api/admin/credits/adjust', { token: admin.token, userId: me.id, amount: 30, reason: 'x' })).code,
    ).toBe(900);
    expect((await userInfo()).user).toMatchObject({ credits: 30 });
    await saveProduct(t, { alias: 'memo-pin', title: 'Pin', type: 0, creditPrice: 12, grants: {} });
    expect((await t.call('/api/auth/payWithCredits', { token, products: '["memo-pin"]' })).code).toBe(900);
    expect((await userInfo()).user).toMatchObject({ credits: 18 });
  });
});
