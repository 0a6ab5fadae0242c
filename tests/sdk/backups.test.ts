import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTill } from '@till/client';
import { patientTimeouts, startTestApp, type TestApp } from '@till/test-support/app';
import { GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';

// The SDK's backup calls against the real server (SQLite) over HTTP.
describe('SDK backups against the server', () => {
  let t: TestApp;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'till-sdk-backups-'));
    t = await startTestApp({
      listen: true,
      config: { backup: { url: `file:${join(folder, 'kept')}`, schedule: undefined, keep: 3 } },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('starts a backup that answers at once, follows it to the end, lists it, and refuses one while another runs', async () => {
    const email = uniqueEmail('sdk-backups');
    const till = createTill({ apiHost: t.url, storeHost: t.url, timeouts: patientTimeouts });
    const registered = await till.api.register({ email, password: GOOD_PASSWORD, name: 'Kim', lang: 'en' });
    if (registered.code !== 900) throw new Error(JSON.stringify(registered));
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ level: 9, email_confirmed: 1 })
      .where('email', '=', email)
      .execute();
    // A new session, which carries the new level.
    expect((await till.api.login({ email, password: GOOD_PASSWORD })).code).toBe(900);

    const started = await till.api.backups.start();
    expect(started.code === 900 && started.data.run).toMatchObject({ state: 'running', step: 'snapshot' });
    const seen: string[] = [];
    const ended = await till.api.backups.untilEnded((run) => seen.push(run.state), 20);
    if (ended.code !== 900) throw new Error(JSON.stringify(ended));
    expect(seen.at(-1)).toBe('done');
    expect(ended.data.run?.backup).toEqual(ended.data.backups[0]);
    expect(ended.data.backups).toHaveLength(1);

    // Another instance's backup, as its lease says: refused with the reason the apps show.
    const now = Date.now();
    await t.ctx.db.kysely
      .insertInto('job_leases')
      .values({ name: 'backup.running', holder: 'another-instance', expires_at: now + 60_000, last_run_at: now })
      .execute();
    expect(await till.api.backups.start()).toMatchObject({ code: 912, reason: 'in_progress' });
    await t.ctx.db.kysely.deleteFrom('job_leases').where('name', '=', 'backup.running').execute();
  });
});
