import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { linkToken, startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { anAdmin, ok } from '@till/test-support/store';
import { confirmedUser, GOOD_PASSWORD, registerUser, stepUp, uniqueEmail } from '@till/test-support/users';

interface AdminUser {
  id: string;
  email: string;
  name: string;
  level: number;
  flaggedAt: string | null;
}

/** Users as administrators find, open and promote them; levels apply on the user's next call. */
describe.each(dialects)('user administration on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: { token: string; userId?: string };
  const configured = uniqueEmail('boss');
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({
      dialect,
      listen: true,
      env: { SMTP_URL: smtp.url },
      config: { adminEmails: [configured] },
    });
    admin = await anAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const search = (query: string, page = 1, pageSize = 20) =>
    ok<{ users: AdminUser[]; total: number }>(t, '/api/admin/users/list', {
      token: admin.token,
      query,
      page,
      pageSize,
    });
  const setLevel = (userId: string, level: number) =>
    t.call('/api/admin/users/setLevel', { token: admin.token, userId, level });
  const levelOf = async (token: string) =>
    ((await t.call('/api/auth/getUserInfo', { token })).user as { level: number }).level;
  const adminCall = (token: string) => t.call('/api/admin/coupons/list', { token });

  it('searches users by part of the e-mail or the name, in any case, paged by the server', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const made = [];
    for (let i = 0; i < 5; i += 1)
      made.push(await registerUser(t, { email: uniqueEmail(`${tag}x`), name: `Member ${i}` }));
    await registerUser(t, { name: `Grace ${tag.toUpperCase()} Hopper` });
    const all = await search(tag.toUpperCase());
    expect(all.total).toBe(6);
    const byName = await search(`grace ${tag}`);
    expect(byName.users.map((u) => u.name)).toEqual([`Grace ${tag.toUpperCase()} Hopper`]);
    const first = await search(`${tag}x`, 1, 2);
    const third = await search(`${tag}x`, 3, 2);
    expect(first.total).toBe(5);
    expect(first.users).toHaveLength(2);
    expect(third.users).toHaveLength(1);
    const seen = new Set([...first.users, ...(await search(`${tag}x`, 2, 2)).users, ...third.users].map((u) => u.id));
    expect(seen).toEqual(new Set(made.map((m) => m.userId)));
    // Wildcards in the query are text, not patterns.
    expect((await search('%')).total).toBe(0);
  });

  it('opens one user with their sessions; 904 for a user that does not exist', async () => {
    const u = await confirmedUser(t, { name: 'Ada' });
    // A second sign-in: two sessions.
    expect((await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).code).toBe(900);
    const detail = await ok<{ user: AdminUser; levelFixed: boolean; sessions: { id: string }[] }>(
      t,
      '/api/admin/users/get',
      { token: admin.token, userId: u.userId },
    );
    expect(detail.user).toMatchObject({ id: u.userId, email: u.email, name: 'Ada', level: 2 });
    expect(detail.levelFixed).toBe(false);
    expect(detail.sessions).toHaveLength(2);
    expect(await t.call('/api/admin/users/get', { token: admin.token, userId: 'nobody' })).toEqual({
      code: 904,
      parameter: 'userId',
    });
  });

  it('makes a member an administrator on their very next call, and takes it back as fast', async () => {
    const u = await confirmedUser(t);
    expect(await adminCall(u.token)).toEqual({ code: 903, required: 9 });
    expect(await setLevel(u.userId, 9)).toMatchObject({ code: 900, data: { user: { id: u.userId, level: 9 } } });
    // The same session, no new sign-in: the level is read afresh on every call.
    expect((await adminCall(u.token)).code).toBe(900);
    expect(await levelOf(u.token)).toBe(9);
    expect(await setLevel(u.userId, 2)).toMatchObject({ code: 900, data: { user: { level: 2 } } });
    // Revocation is immediate too.
    expect(await adminCall(u.token)).toEqual({ code: 903, required: 9 });
    expect(await levelOf(u.token)).toBe(2);
    // Both changes are in the user's security log, naming the administrator who made them.
    const log = await t.call('/api/auth/securityLog', { token: u.token });
    const changes = (log.data as { entries: { kind: string; actorId: string | null }[] }).entries.filter(
      (e) => e.kind === 'admin_level_changed',
    );
    expect(changes).toHaveLength(2);
    expect(changes.every((e) => e.actorId === admin.userId)).toBe(true);
  });

  it('refuses a level change for oneself, an unconfirmed address and a configured administrator', async () => {
    const self = await confirmedUser(t);
    await t.ctx.db.kysely.updateTable('users').set({ level: 9 }).where('id', '=', self.userId).execute();
    await stepUp(t, self.token);
    expect(await t.call('/api/admin/users/setLevel', { token: self.token, userId: self.userId, level: 2 })).toEqual({
      code: 907,
      parameter: 'userId',
      reason: 'invalid',
    });
    const fresh = await registerUser(t);
    expect(await setLevel(fresh.userId, 9)).toEqual({ code: 907, parameter: 'userId', reason: 'unconfirmed' });
    expect(await setLevel(fresh.userId, 5)).toMatchObject({ code: 907, parameter: 'level' });
    expect(await setLevel('nobody', 9)).toEqual({ code: 904, parameter: 'userId' });
    expect(await levelOf(fresh.token)).toBe(1);
  });

  it('recognises an address in ADMIN_EMAILS as an administrator once confirmed, in the session it already has', async () => {
    const res = await t.call('/api/register', { email: configured, password: GOOD_PASSWORD, name: 'Boss', lang: 'en' });
    expect(res.code).toBe(900);
    const token = res.token as string;
    expect(await adminCall(token)).toEqual({ code: 903, required: 9 });
    const mail = await smtp.next(configured, /Confirm your e-mail/);
    const confirm = await fetch(`${t.url}/api/confirmUser/${linkToken(mail, 'confirm')}`);
    expect(await confirm.json()).toEqual({ code: 900 });
    expect((await adminCall(token)).code).toBe(900);
    expect(await levelOf(token)).toBe(9);
    const userId = (res.user as { id: string }).id;
    expect(await setLevel(userId, 2)).toEqual({ code: 907, parameter: 'userId', reason: 'configured' });
    const detail = await ok<{ levelFixed: boolean }>(t, '/api/admin/users/get', { token: admin.token, userId });
    expect(detail.levelFixed).toBe(true);
  });

  it('clears a flag once looked at', async () => {
    const u = await confirmedUser(t);
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ flagged_at: Date.now(), flag_reason: 'refund of order o-1: 5 credits already spent' })
      .where('id', '=', u.userId)
      .execute();
    expect((await search(u.email)).users[0]?.flaggedAt).not.toBeNull();
    expect(await t.call('/api/admin/users/clearFlag', { token: admin.token, userId: u.userId })).toMatchObject({
      code: 900,
      data: { user: { flaggedAt: null, flagReason: null } },
    });
    expect((await search(u.email)).users[0]?.flaggedAt).toBeNull();
  });
});
