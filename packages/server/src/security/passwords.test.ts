import { describe, expect, it } from 'vitest';
import { HASH_SLOTS, hashPassword, inHashSlot, verifyPassword } from './passwords.js';

describe('password hashing', () => {
  it('runs at most one hash per core at a time, the rest in order of arrival', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const work = (i: number) =>
      inHashSlot(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return i;
      });
    const count = HASH_SLOTS * 3 + 1;
    const results = await Promise.all(Array.from({ length: count }, (_, i) => work(i)));
    expect(results).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(most).toBe(HASH_SLOTS);
    expect(started).toEqual(results);
  });

  it('gives the slot back when the work fails', async () => {
    const failures = Array.from({ length: HASH_SLOTS + 2 }, () =>
      inHashSlot(() => Promise.reject(new Error('broken'))).catch((e: Error) => e.message),
    );
    expect(await Promise.all(failures)).toEqual(Array(HASH_SLOTS + 2).fill('broken'));
    // Every slot is free again: as many as there are slots start at once.
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: HASH_SLOTS }, () =>
        inHashSlot(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(HASH_SLOTS);
  });

  it('hashes and verifies through the slots, many at once', async () => {
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`passphrase number ${i}`)));
    expect(hashes.every((h) => h.startsWith('$argon2id$'))).toBe(true);
    const checks = await Promise.all(hashes.map((h, i) => verifyPassword(h, `passphrase number ${i}`)));
    expect(checks).toEqual(Array(6).fill(true));
    expect(await verifyPassword(hashes[0], 'passphrase number 1')).toBe(false);
    expect(await verifyPassword(undefined, 'anything')).toBe(false);
  });
});
