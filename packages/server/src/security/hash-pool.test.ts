import { afterEach, describe, expect, it } from 'vitest';
import { threadNices } from '@till/test-support/threads';
import { HashPool } from './hash-pool.js';
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from './passwords.js';

describe('password hashing threads', () => {
  const pools: HashPool[] = [];
  const pool = (options?: ConstructorParameters<typeof HashPool>[0]) => {
    const made = new HashPool(options);
    pools.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('hash argon2id at the configured settings and verify what they made', async () => {
    const p = pool({ size: 1 });
    const hash = await p.hash('correct horse battery', ARGON2_OPTIONS);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=20480,t=2,p=1\$/);
    expect(await p.verify(hash, 'correct horse battery')).toBe(true);
    expect(await p.verify(hash, 'correct horse batterz')).toBe(false);
  });

  it('verify hashes written by the earlier encoder (node-argon2: parameters in another order)', async () => {
    const earlier = '$argon2id$v=19$m=19456,p=1,t=2$0CKIl3blYT7zwQIbf7kNVw$ypz+VksJQQpEZRChL+sSU8i+Kh7D4d+vScz7hdlq63c';
    const p = pool({ size: 1 });
    expect(await p.verify(earlier, 'earlier password')).toBe(true);
    expect(await p.verify(earlier, 'earlier passwore')).toBe(false);
  });

  it('refuse a value that is not a hash, and keep working after', async () => {
    const p = pool({ size: 1 });
    await expect(p.verify('not a hash', 'pw')).rejects.toThrow(/password hashing failed/);
    expect(await verifyPassword('not a hash', 'pw')).toBe(false);
    expect(await p.verify(await p.hash('pw', ARGON2_OPTIONS), 'pw')).toBe(true);
  });

  it('spread concurrent work over at most `size` threads, each answering its own jobs', async () => {
    const p = pool({ size: 2 });
    const passwords = Array.from({ length: 8 }, (_, i) => `password number ${i}`);
    const hashes = await Promise.all(passwords.map((pw) => p.hash(pw, ARGON2_OPTIONS)));
    expect(p.started).toBe(2);
    expect(new Set(hashes).size).toBe(8);
    const checks = await Promise.all(hashes.map((h, i) => p.verify(h, passwords[(i + 1) % 8]!)));
    expect(checks).toEqual(Array(8).fill(false));
    expect(await Promise.all(hashes.map((h, i) => p.verify(h, passwords[i]!)))).toEqual(Array(8).fill(true));
  });

  it('refuse the jobs of a thread that stops, and start a new one for the next', async () => {
    const p = pool({ size: 1 });
    await p.hash('warm', ARGON2_OPTIONS);
    const inFlight = p.hash('lost', ARGON2_OPTIONS);
    await p.close();
    await expect(inFlight).rejects.toThrow(/password hashing thread stopped/);
    expect(p.started).toBe(0);
    expect(await p.verify(await p.hash('again', ARGON2_OPTIONS), 'again')).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'run below the event loop: its threads are niced, the main thread is not',
    async () => {
      const before = threadNices();
      const p = pool({ size: 2, nice: 7 });
      await Promise.all([p.hash('a', ARGON2_OPTIONS), p.hash('b', ARGON2_OPTIONS)]);
      const added = [...threadNices()].filter(([tid]) => !before.has(tid));
      const niced = added.filter(([, nice]) => nice === 7);
      expect(niced).toHaveLength(2);
      expect(threadNices().get(String(process.pid))).toBe(0);
    },
  );

  it('back the module functions the accounts use', async () => {
    const hash = await hashPassword('a long passphrase');
    expect(await verifyPassword(hash, 'a long passphrase')).toBe(true);
    expect(await verifyPassword(hash, 'another one')).toBe(false);
    expect(await verifyPassword(undefined, 'a long passphrase')).toBe(false);
  });
});
