import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesMatrix, startFilesApp, uploadOne, type FilesTestApp } from '@till/test-support/files';
import { RecordedSecurityEvents } from '@till/test-support/security-events';
import { startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { expectLedgerMatchesBalances, giveCredits, ok, saveProduct } from '@till/test-support/store';
import { adminUser, GOOD_PASSWORD, provenUser, registerUser } from '@till/test-support/users';
import { SoftAuthenticator, type OptionsJson } from '@till/test-support/webauthn';

describe.each(filesMatrix)('account deletion on %s with %s storage', (dialect, driver) => {
  let t: FilesTestApp;
  let smtp: TestSmtp;
  const events = new RecordedSecurityEvents();
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startFilesApp(dialect, driver, { env: { SMTP_URL: smtp.url }, securityEvents: events });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const db = () => t.ctx.db.kysely;

  /** A user with two files, an avatar, credits and a credit purchase carrying buyer data. */
  async function richUser() {
    const u = await registerUser(t, { name: 'Grace Hopper' });
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#48c' } })
      .png()
      .toBuffer();
    const image = await uploadOne(t, u.token, photo, 'me.png');
    await uploadOne(t, u.token, 'notes of a private person', 'notes.txt');
    expect((await t.call('/api/auth/updateInfo', { token: u.token, avatarFileId: image.id })).code).toBe(900);
    await giveCredits(t, u.userId, 50);
    const product = await saveProduct(t, {
      alias: `thing-${Math.random().toString(36).slice(2, 10)}`,
      title: 'A thing',
      type: 0,
      creditPrice: 20,
      grants: {},
    });
    await ok(t, '/api/auth/payWithCredits', {
      token: u.token,
      products: JSON.stringify([product]),
      dataObj: JSON.stringify({ deliverTo: 'Grace Hopper, 1 Navy Way' }),
    });
    const second = await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    expect(second.code).toBe(900);
    const row = await db().selectFrom('users').selectAll().where('id', '=', u.userId).executeTakeFirstOrThrow();
    const keys = [
      ...(await db().selectFrom('files').select('storage_key').where('user_id', '=', u.userId).execute()).map(
        (f) => f.storage_key,
      ),
      row.avatar_key!,
    ];
    for (const key of keys) {
      const body = await t.storage.get(key);
      expect(body).toBeDefined();
      // Not read: closed here, or its file stays open until the stream is collected.
      body?.destroy();
    }
    return { ...u, keys, otherToken: second.token as string };
  }

  it('erases the person and their objects, keeps the books, ends every session, and mails the old address', async () => {
    const u = await richUser();
    const before = await db().selectFrom('credit_ledger').selectAll().where('user_id', '=', u.userId).execute();

    expect(
      await t.call('/api/auth/deleteAccount', {
        token: u.token,
        confirm: u.email.toUpperCase(),
        password: GOOD_PASSWORD,
      }),
    ).toEqual({
      code: 900,
    });

    // Storage: no object of theirs is left, and nothing is waiting to be removed.
    for (const key of u.keys) expect(await t.storage.get(key)).toBeUndefined();
    const allKeys = await t.storage.list('');
    for (const key of u.keys) expect(allKeys).not.toContain(key);
    expect(await db().selectFrom('object_removals').selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('files').select('id').where('user_id', '=', u.userId).execute()).toEqual([]);

    // Sessions: both are gone and answer 901.
    expect(await t.call('/api/auth/getUserInfo', { token: u.token })).toEqual({ code: 901 });
    expect(await t.call('/api/auth/getUserInfo', { token: u.otherToken })).toEqual({ code: 901 });
    expect(await db().selectFrom('sessions').select('id').where('user_id', '=', u.userId).execute()).toEqual([]);
    expect(await db().selectFrom('link_tokens').select('user_id').where('user_id', '=', u.userId).execute()).toEqual(
      [],
    );

    // The row is an anonymised tombstone: no e-mail, name or avatar, and no password opens it.
    const row = await db().selectFrom('users').selectAll().where('id', '=', u.userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email: `${u.userId}@deleted.invalid`,
      name: '',
      avatar_key: null,
      pending_email: null,
    });
    expect(row.deleted_at).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain('Grace');

    // The books: orders and ledger entries stay, the balance still matches them, the buyer's data is gone.
    const after = await db().selectFrom('credit_ledger').selectAll().where('user_id', '=', u.userId).execute();
    expect(after).toEqual(before);
    const balance = await db()
      .selectFrom('credit_balances')
      .select('credits')
      .where('user_id', '=', u.userId)
      .executeTakeFirstOrThrow();
    expect(balance.credits).toBe(30);
    await expectLedgerMatchesBalances(t);
    const orders = await db().selectFrom('orders').selectAll().where('user_id', '=', u.userId).execute();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', data: null, credits_spent: 20 });

    // The old address: no sign-in, a mail, and free to register anew as a new account.
    expect(await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).toEqual({ code: 902 });
    const mail = await smtp.next(u.email, /account has been deleted/);
    expect(mail.text).toContain('Grace Hopper');
    const again = await registerUser(t, { email: u.email });
    expect(again.userId).not.toBe(u.userId);
    expect((await t.call('/api/auth/getUserInfo', { token: again.token })).user).toMatchObject({ credits: 0 });

    expect(events.kinds(u.userId)).toEqual(['account_deleted']);
    const event = events.events.find((e) => e.userId === u.userId)!;
    expect(event).toMatchObject({ actorId: null, inTransaction: true, detail: { by: 'self', objects: 3, orders: 1 } });
  });

  it('refuses without the typed address or the right password, and changes nothing', async () => {
    const u = await registerUser(t);
    const file = await uploadOne(t, u.token, 'kept', 'kept.txt');
    expect(
      await t.call('/api/auth/deleteAccount', {
        token: u.token,
        confirm: 'someone@else.test',
        password: GOOD_PASSWORD,
      }),
    ).toEqual({
      code: 907,
      parameter: 'confirm',
      reason: 'mismatch',
    });
    expect(
      await t.call('/api/auth/deleteAccount', { token: u.token, confirm: u.email, password: 'not my password' }),
    ).toEqual({
      code: 902,
    });
    expect(await t.call('/api/auth/deleteAccount', { token: u.token, confirm: u.email })).toEqual({
      code: 907,
      parameter: 'password',
      reason: 'required',
    });
    expect((await t.call('/api/auth/getUserInfo', { token: u.token })).code).toBe(900);
    expect(await t.call('/api/files/list', { token: u.token, page: 1 })).toMatchObject({ data: { total: 1 } });
    expect((await fetch(new URL(file.url, t.url))).status).toBe(200);
    expect(events.kinds(u.userId)).toEqual([]);
  });

  it('accepts a fresh passkey assertion in place of the password, and the passkey no longer signs in', async () => {
    const u = await provenUser(t);
    const device = new SoftAuthenticator(new URL(t.url).origin);
    const options = (await t.call('/api/auth/passkeys/registrationOptions', { token: u.token })).data as {
      options: OptionsJson;
    };
    expect(
      (
        await t.call('/api/auth/passkeys/register', {
          token: u.token,
          name: 'Key',
          credential: device.create(options.options),
        })
      ).code,
    ).toBe(900);

    const confirm = (await t.call('/api/auth/passkeys/confirmOptions', { token: u.token })).data as {
      options: OptionsJson & { allowCredentials: { id: string }[] };
    };
    expect(confirm.options.allowCredentials.map((c) => c.id)).toEqual([device.id]);
    // A sign-in challenge does not confirm a deletion.
    const signInOptions = (await t.call('/api/passkeys/signInOptions', {})).data as { options: OptionsJson };
    expect(
      await t.call('/api/auth/deleteAccount', {
        token: u.token,
        confirm: u.email,
        passkey: device.get(signInOptions.options),
      }),
    ).toEqual({
      code: 902,
    });
    expect(
      await t.call('/api/auth/deleteAccount', {
        token: u.token,
        confirm: u.email,
        passkey: device.get(confirm.options),
      }),
    ).toEqual({
      code: 900,
    });
    expect(await db().selectFrom('passkeys').select('id').where('user_id', '=', u.userId).execute()).toEqual([]);
    const again = (await t.call('/api/passkeys/signInOptions', {})).data as { options: OptionsJson };
    expect(await t.call('/api/passkeys/signIn', { credential: device.get(again.options) })).toEqual({ code: 902 });
  });

  it('lets an administrator delete a user with their own password and the typed address', async () => {
    const admin = await adminUser(t);
    const u = await richUser();
    expect(
      await t.call('/api/admin/users/delete', {
        token: u.token,
        userId: u.userId,
        confirm: u.email,
        password: GOOD_PASSWORD,
      }),
    ).toMatchObject({
      code: 903,
    });
    expect(
      await t.call('/api/admin/users/delete', {
        token: admin.token,
        userId: u.userId,
        confirm: u.email,
        password: 'wrong one',
      }),
    ).toEqual({
      code: 902,
    });
    expect(
      await t.call('/api/admin/users/delete', {
        token: admin.token,
        userId: u.userId,
        confirm: u.email,
        password: GOOD_PASSWORD,
      }),
    ).toEqual({
      code: 900,
      data: {},
    });
    for (const key of u.keys) expect(await t.storage.get(key)).toBeUndefined();
    expect(await t.call('/api/auth/getUserInfo', { token: u.token })).toEqual({ code: 901 });
    await expectLedgerMatchesBalances(t);
    expect(
      await t.call('/api/admin/users/delete', {
        token: admin.token,
        userId: u.userId,
        confirm: u.email,
        password: GOOD_PASSWORD,
      }),
    ).toEqual({
      code: 904,
      parameter: 'userId',
    });
    const listed = await t.call('/api/admin/users/list', { token: admin.token, page: 1, pageSize: 100 });
    expect((listed.data as { users: { id: string }[] }).users.map((x) => x.id)).not.toContain(u.userId);
    expect(events.events.find((e) => e.userId === u.userId)).toMatchObject({
      kind: 'account_deleted',
      actorId: admin.userId,
      detail: { by: 'admin' },
    });
    await smtp.next(u.email, /account has been deleted/);
  });

  it('refuses every session of a deleted account, also one that a racing sign-in slipped in', async () => {
    const u = await registerUser(t);
    const racers = Array.from({ length: 6 }, () => t.call('/api/login', { email: u.email, password: GOOD_PASSWORD }));
    const deletion = t.call('/api/auth/deleteAccount', { token: u.token, confirm: u.email, password: GOOD_PASSWORD });
    const [deleted, ...logins] = await Promise.all([deletion, ...racers]);
    expect(deleted.code).toBe(900);
    for (const login of logins) {
      if (login.code === 900)
        expect(await t.call('/api/auth/getUserInfo', { token: login.token })).toEqual({ code: 901 });
      else expect(login.code).toBe(902);
    }
  });
});

describe.each(filesMatrix.filter(([, driver]) => driver === 'local'))(
  'an upload in flight during a deletion on %s',
  (dialect, driver) => {
    let t: FilesTestApp;
    beforeAll(async () => {
      t = await startFilesApp(dialect, driver);
    });
    afterAll(() => t.close());

    it('is refused at its commit and leaves neither a row nor an object', async () => {
      const u = await registerUser(t);
      const boundary = 'till-upload-race';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${u.token}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.txt"\r\n` +
          `Content-Type: text/plain\r\n\r\n`,
      );
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new Uint8Array(head));
          controller.enqueue(new Uint8Array(Buffer.alloc(64 * 1024, 'a')));
          // The rest of the file comes only once the account is gone.
          await held;
          controller.enqueue(new Uint8Array(Buffer.from(`tail\r\n--${boundary}--\r\n`)));
          controller.close();
        },
      });
      const upload = fetch(`${t.url}/api/files/upload`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit).then(async (res) => (await res.json()) as { code: number });
      // The upload has been authenticated and is writing its object.
      const writing = async () => (await t.storage.list('f/')).length;
      const deadline = Date.now() + 10_000;
      while ((await writing()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await writing()).toBeGreaterThan(0);

      expect(
        await t.call('/api/auth/deleteAccount', { token: u.token, confirm: u.email, password: GOOD_PASSWORD }),
      ).toEqual({ code: 900 });
      release();
      expect((await upload).code).toBe(901);
      expect(await t.ctx.db.kysely.selectFrom('files').select('id').where('user_id', '=', u.userId).execute()).toEqual(
        [],
      );
      const left = async () => (await t.storage.list('f/')).length;
      const deadline2 = Date.now() + 10_000;
      while ((await left()) > 0 && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 20));
      expect(await t.storage.list('f/')).toEqual([]);
    });
  },
);

describe.each(filesMatrix.filter(([, driver]) => driver === 'local'))('object removals on %s', (dialect, driver) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp(dialect, driver);
  });
  afterAll(() => t.close());

  it('keeps a removal that failed, with its error, and the job retries it until the object is gone', async () => {
    const root = (t.ctx.config.storageUrl ?? '').slice('file:'.length);
    const key = 'f/zz/stuck-object';
    const path = join(root, key);
    // A folder where the object should be: the local driver's removal fails on it.
    mkdirSync(join(path, 'inner'), { recursive: true });
    await t.ctx.db.kysely
      .insertInto('object_removals')
      .values({ key, reason: 'account deleted', created_at: Date.now() })
      .execute();
    const job = t.jobs.list.find((j) => j.name === 'files.removals')!;
    expect(await job.run(Date.now())).toBe(0);
    const kept = await t.ctx.db.kysely.selectFrom('object_removals').selectAll().execute();
    expect(kept).toMatchObject([{ key, attempts: 1 }]);
    expect(kept[0]?.last_error).toBeTruthy();

    rmSync(path, { recursive: true });
    mkdirSync(join(root, 'f/zz'), { recursive: true });
    writeFileSync(path, 'bytes');
    expect(await job.run(Date.now())).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect(await t.ctx.db.kysely.selectFrom('object_removals').selectAll().execute()).toEqual([]);
  });
});
