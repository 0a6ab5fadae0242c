import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { GOOD_PASSWORD, registerUser, uniqueEmail } from '@till/test-support/users';

describe.each(dialects)('profile and sessions on %s', (dialect) => {
  let t: TestApp;
  const adminEmail = uniqueEmail('boss');
  beforeAll(async () => {
    t = await startTestApp({ dialect, env: { ADMIN_EMAILS: adminEmail.toUpperCase() } });
  });
  afterAll(() => t.close());

  const login = (email: string, password = GOOD_PASSWORD) => t.call('/api/login', { email, password });

  it('answers 901 for a missing, unknown or ended token on every authenticated call', async () => {
    for (const path of ['/api/auth/getUserInfo', '/api/auth/updateInfo', '/api/auth/logout', '/api/auth/sessions']) {
      expect(await t.call(path, {})).toEqual({ code: 901 });
      expect(await t.call(path, { token: 'no-such-token-at-all' })).toEqual({ code: 901 });
    }
  });

  it('answers 901 once the session has expired', async () => {
    let now = Date.now();
    const t2 = await startTestApp({ dialect, now: () => now, env: { SESSION_TTL: '60' } });
    try {
      const u = await registerUser(t2);
      expect((await t2.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(900);
      now += 61_000;
      expect(await t2.call('/api/auth/getUserInfo', { token: u.token })).toEqual({ code: 901 });
    } finally {
      await t2.close();
    }
  });

  it('ends a session left unused for longer than SESSION_IDLE_TTL, and only then', async () => {
    let now = Date.now();
    const t2 = await startTestApp({ dialect, now: () => now, env: { SESSION_IDLE_TTL: '600' } });
    try {
      const u = await registerUser(t2);
      const other = await registerUser(t2);
      // Used every nine minutes, a session lives on well past the idle lifetime.
      for (let i = 0; i < 4; i++) {
        now += 540_000;
        expect((await t2.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(900);
      }
      const sessions = await t2.call('/api/auth/sessions', { token: u.token });
      expect((sessions.data as { sessions: unknown[] }).sessions).toHaveLength(1);
      // The other one was last used 36 minutes ago: gone, also from a cache of found sessions.
      expect(await t2.call('/api/auth/getUserInfo', { token: other.token })).toEqual({ code: 901 });
      now += 11 * 60_000 + 1;
      expect(await t2.call('/api/auth/getUserInfo', { token: u.token })).toEqual({ code: 901 });
    } finally {
      await t2.close();
    }
  });

  it('answers every API call with Cache-Control: no-store', async () => {
    const u = await registerUser(t);
    const answers = [
      await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: GOOD_PASSWORD } }),
      await t.app.inject({ method: 'POST', url: '/api/auth/getUserInfo', payload: { token: u.token } }),
      await t.app.inject({ method: 'POST', url: '/api/auth/getUserInfo', payload: { token: 'unknown' } }),
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/nothing-here' }),
      await t.app.inject({ method: 'GET', url: '/api/%E0%A4%A' }),
    ];
    for (const res of answers) expect(res.headers['cache-control'], res.body).toBe('no-store');
  });

  it('changes name and language, and never level, credits or confirmation', async () => {
    const u = await registerUser(t);
    const res = await t.call('/api/auth/updateInfo', {
      token: u.token,
      name: 'Renamed',
      lang: 'de',
      level: 9,
      credits: 1000,
      emailConfirmed: true,
    });
    expect(res.code).toBe(900);
    expect(res.user).toMatchObject({ name: 'Renamed', lang: 'de', level: 1, credits: 0, emailConfirmed: false });
    const again = await t.call('/api/auth/getUserInfo', { token: u.token });
    expect(again.user).toMatchObject({ name: 'Renamed', lang: 'de', level: 1 });
  });

  it('validates what it changes with 907', async () => {
    const u = await registerUser(t);
    expect(await t.call('/api/auth/updateInfo', { token: u.token, name: '' })).toEqual({
      code: 907,
      parameter: 'name',
      reason: 'required',
    });
    expect(await t.call('/api/auth/updateInfo', { token: u.token, email: 'nope' })).toEqual({
      code: 907,
      parameter: 'email',
      reason: 'invalid',
    });
  });

  it('needs the current password for a new password or e-mail: 907 without it, 902 when wrong', async () => {
    const u = await registerUser(t);
    expect(await t.call('/api/auth/updateInfo', { token: u.token, password: 'another fine passphrase' })).toEqual({
      code: 907,
      parameter: 'currentPassword',
      reason: 'required',
    });
    expect(
      await t.call('/api/auth/updateInfo', {
        token: u.token,
        password: 'another fine passphrase',
        currentPassword: 'not my password',
      }),
    ).toEqual({ code: 902 });
    expect(
      await t.call('/api/auth/updateInfo', { token: u.token, email: uniqueEmail(), currentPassword: 'wrong one!' }),
    ).toEqual({ code: 902 });
  });

  it('changes the password, ends the other sessions and keeps this one', async () => {
    const u = await registerUser(t);
    const other = await login(u.email);
    const res = await t.call('/api/auth/updateInfo', {
      token: u.token,
      password: 'another fine passphrase',
      currentPassword: GOOD_PASSWORD,
    });
    expect(res.code).toBe(900);
    expect(await t.call('/api/auth/getUserInfo', { token: other.token })).toEqual({ code: 901 });
    expect((await t.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(900);
    expect(await login(u.email)).toEqual({ code: 902 });
    expect((await login(u.email, 'another fine passphrase')).code).toBe(900);
  });

  it('refuses a common password on change with 907 weak', async () => {
    const u = await registerUser(t);
    expect(
      await t.call('/api/auth/updateInfo', { token: u.token, password: 'password123', currentPassword: GOOD_PASSWORD }),
    ).toEqual({ code: 907, parameter: 'password', reason: 'weak' });
  });

  it('keeps a new e-mail pending until confirmed and refuses one that is taken', async () => {
    const u = await registerUser(t);
    const taken = await registerUser(t);
    expect(
      await t.call('/api/auth/updateInfo', { token: u.token, email: taken.email, currentPassword: GOOD_PASSWORD }),
    ).toEqual({ code: 907, parameter: 'email', reason: 'taken' });
    const next = uniqueEmail();
    const res = await t.call('/api/auth/updateInfo', { token: u.token, email: next, currentPassword: GOOD_PASSWORD });
    expect(res.code).toBe(900);
    expect(res.user).toMatchObject({ email: u.email, pendingEmail: next });
  });

  it('logs out: that token stops working, the others go on', async () => {
    const u = await registerUser(t);
    const other = await login(u.email);
    expect(await t.call('/api/auth/logout', { token: u.token })).toEqual({ code: 900 });
    expect(await t.call('/api/auth/getUserInfo', { token: u.token })).toEqual({ code: 901 });
    expect((await t.call('/api/auth/getUserInfo', { token: other.token })).code).toBe(900);
  });

  it('lists the sessions, marks the current one, and revokes all the others', async () => {
    const u = await registerUser(t);
    const second = await login(u.email);
    const third = await login(u.email);
    const list = await t.call('/api/auth/sessions', { token: second.token });
    const sessions = (list.data as { sessions: { current: boolean; createdAt: string }[] }).sessions;
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(await t.call('/api/auth/revokeSessions', { token: second.token })).toEqual({
      code: 900,
      data: { revoked: 2 },
    });
    expect(await t.call('/api/auth/getUserInfo', { token: u.token })).toEqual({ code: 901 });
    expect(await t.call('/api/auth/getUserInfo', { token: third.token })).toEqual({ code: 901 });
    const after = await t.call('/api/auth/sessions', { token: second.token });
    expect((after.data as { sessions: unknown[] }).sessions).toHaveLength(1);
  });

  it("ends one chosen session by its id, keeps the others, and refuses another user's", async () => {
    const u = await registerUser(t);
    const laptop = await login(u.email);
    const phone = await login(u.email);
    const stranger = await registerUser(t);
    const sessionsOf = async (token: unknown) =>
      ((await t.call('/api/auth/sessions', { token })).data as { sessions: { id: string; current: boolean }[] })
        .sessions;
    const phoneId = (await sessionsOf(phone.token)).find((s) => s.current)?.id ?? '';
    // The public id is not the token, nor does the token end the session in its place.
    expect(phoneId).not.toBe(phone.token);
    expect(await t.call('/api/auth/endSession', { token: laptop.token, id: phone.token })).toEqual({
      code: 904,
      parameter: 'id',
    });
    // Someone else cannot end it, nor learn that it exists.
    expect(await t.call('/api/auth/endSession', { token: stranger.token, id: phoneId })).toEqual({
      code: 904,
      parameter: 'id',
    });
    expect((await t.call('/api/auth/getUserInfo', { token: phone.token })).code).toBe(900);

    expect(await t.call('/api/auth/endSession', { token: laptop.token, id: phoneId })).toEqual({
      code: 900,
      data: { ended: true, current: false },
    });
    expect(await t.call('/api/auth/getUserInfo', { token: phone.token })).toEqual({ code: 901 });
    expect((await t.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(900);
    expect((await t.call('/api/auth/getUserInfo', { token: laptop.token })).code).toBe(900);
    expect((await sessionsOf(laptop.token)).map((s) => s.id)).not.toContain(phoneId);
    // Ended once, it is not there to end again.
    expect(await t.call('/api/auth/endSession', { token: laptop.token, id: phoneId })).toEqual({
      code: 904,
      parameter: 'id',
    });
    const log = await t.call('/api/auth/securityLog', { token: laptop.token, page: 1, pageSize: 10 });
    expect(JSON.stringify(log)).toContain('sessions_revoked');

    // Its own session's id ends it like a sign-out.
    const laptopId = (await sessionsOf(laptop.token)).find((s) => s.current)?.id ?? '';
    expect(await t.call('/api/auth/endSession', { token: laptop.token, id: laptopId })).toEqual({
      code: 900,
      data: { ended: true, current: true },
    });
    expect(await t.call('/api/auth/getUserInfo', { token: laptop.token })).toEqual({ code: 901 });
    expect((await t.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(900);
  });

  it('gives level 2 once the e-mail is confirmed, and 9 to a configured administrator', async () => {
    const u = await registerUser(t);
    const admin = await registerUser(t, { email: adminEmail });
    const levelOf = async (token: string) =>
      ((await t.call('/api/auth/getUserInfo', { token })).user as { level: number }).level;
    expect(await levelOf(admin.token)).toBe(1);
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ email_confirmed: 1 })
      .where('id', 'in', [u.userId, admin.userId])
      .execute();
    expect(await levelOf(u.token)).toBe(2);
    expect(await levelOf(admin.token)).toBe(9);
  });
});
