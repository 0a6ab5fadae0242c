import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveness, type Liveness } from '../../db/liveness.js';
import type { Dialect } from '../../db/connect.js';
import { filesMatrix, postMultipart, startFilesApp, type Driver, type FilesTestApp } from '@till/test-support/files';
import { registerUser } from '@till/test-support/users';
import { StorageWrites } from './writes.js';

// The start of a Windows executable: a type on no allow list.
const exe = Buffer.concat([
  Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
  Buffer.alloc(2048),
]);
const quiet = { info: () => undefined, warn: () => undefined } as never;

// An upload stores its files one by one and records them at the end: a process that dies in
// between leaves objects that no row names. These tests play that crash on the real app's database
// and storage, with the instances as the server builds them.
function setup(dialect: Dialect, driver: Driver) {
  const state = { t: undefined as unknown as FilesTestApp };
  const opened: Liveness[] = [];
  beforeAll(async () => {
    state.t = await startFilesApp(dialect, driver);
  });
  afterAll(async () => {
    for (const l of opened) await l.close();
    await state.t.close();
  });
  return {
    state,
    /** A server instance as the app builds one: its liveness and its record of writes. */
    async instance() {
      const liveness = await startLiveness(state.t.ctx.db, quiet);
      opened.push(liveness);
      return { liveness, writes: new StorageWrites(state.t.ctx.db.kysely, state.t.storage, liveness, quiet, Date.now) };
    },
    /** What an upload does before it records its file: the write, then the object. */
    async stored(writes: StorageWrites, key: string) {
      await writes.begin(key);
      await state.t.storage.put(key, Readable.from([Buffer.from('stored bytes')]), 'text/plain');
    },
    recorded: () => state.t.ctx.db.kysely.selectFrom('storage_writes').select('key').execute(),
  };
}

describe.each(filesMatrix)('objects left by a stopped instance on %s with %s storage', (dialect, driver) => {
  const { state, instance, stored, recorded } = setup(dialect, driver);

  it('an upload leaves no record of its writes, whether it is kept or refused', async () => {
    const u = await registerUser(state.t);
    const kept = await postMultipart(state.t, [
      ['token', u.token],
      ['file', 'hello\n', 'a.txt', 'text/plain'],
    ]);
    expect(kept.code).toBe(900);
    const refused = await postMultipart(state.t, [
      ['token', u.token],
      ['file', 'hello\n', 'b.txt', 'text/plain'],
      ['file', exe, 'c.exe'],
    ]);
    expect(refused.code).toBe(907);
    expect(await recorded()).toEqual([]);
  });

  it("removes a stopped instance's unrecorded objects, and only those", async () => {
    const crashed = await instance();
    await stored(crashed.writes, 'f/crash/left-behind');
    await crashed.liveness.close(); // As a SIGKILL ends it: the session goes, the records stay.
    const { writes } = await instance();
    await stored(writes, 'f/crash/mine-under-way');
    expect(await writes.removeAbandoned()).toBe(1);
    expect(await state.t.storage.list('f/crash/')).toEqual(['f/crash/mine-under-way']);
    expect((await recorded()).map((r) => r.key)).toEqual(['f/crash/mine-under-way']);
    await writes.forget(['f/crash/mine-under-way']);
    await state.t.storage.delete('f/crash/mine-under-way');
  });
});

// Several processes share PostgreSQL; SQLite serves one, so there every other instance is a stopped one.
describe.each(filesMatrix.filter(([dialect]) => dialect === 'postgres'))(
  'uploads under way on another instance on %s with %s storage',
  (dialect, driver) => {
    const { state, instance, stored, recorded } = setup(dialect, driver);

    it("leaves a running instance's upload alone: its lock says it is alive", async () => {
      const running = await instance();
      await stored(running.writes, 'f/live/under-way-elsewhere');
      const { writes, liveness } = await instance();
      expect(await liveness.alive(running.liveness.id)).toBe(true);
      expect(await writes.removeAbandoned()).toBe(0);
      expect(await state.t.storage.list('f/live/')).toEqual(['f/live/under-way-elsewhere']);
      await running.liveness.close();
      expect(await liveness.alive(running.liveness.id)).toBe(false);
      expect(await writes.removeAbandoned()).toBe(1);
      expect(await state.t.storage.list('f/live/')).toEqual([]);
      expect(await recorded()).toEqual([]);
    });
  },
);
