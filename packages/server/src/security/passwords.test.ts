import * as argon2 from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, hashPassword, needsRehash, verifyPassword } from './passwords.js';

describe('password settings', () => {
  it('keep at least OWASP’s argon2id baseline, with the memory in whole 2 MiB pages', () => {
    expect(ARGON2_OPTIONS.algorithm).toBe(2); // argon2id
    expect(ARGON2_OPTIONS.memoryCost).toBeGreaterThanOrEqual(19_456);
    expect(ARGON2_OPTIONS.timeCost).toBeGreaterThanOrEqual(2);
    expect(ARGON2_OPTIONS.parallelism).toBe(1);
    // Linux gives the hash library huge pages only in whole 2 MiB pieces (see passwords.ts).
    expect(ARGON2_OPTIONS.memoryCost % 2048).toBe(0);
  });
});

describe('needsRehash', () => {
  const earlier = { ...ARGON2_OPTIONS, memoryCost: 19_456 };

  it('is false for a hash made now, and for the same settings written in another order', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(needsRehash(hash)).toBe(false);
    const { memoryCost: m, timeCost: t, parallelism: p } = ARGON2_OPTIONS;
    const reordered = hash.replace(`m=${m},t=${t},p=${p}`, `m=${m},p=${p},t=${t}`);
    expect(reordered).not.toBe(hash);
    expect(needsRehash(reordered)).toBe(false);
  });

  it('is true for a hash made with other settings or another variant, which still verifies', async () => {
    const old = await argon2.hash('correct horse battery', earlier);
    expect(old).toMatch(/\$m=19456,t=2,p=1\$/);
    expect(needsRehash(old)).toBe(true);
    expect(await verifyPassword(old, 'correct horse battery')).toBe(true);
    expect(needsRehash(await argon2.hash('pw', { ...ARGON2_OPTIONS, timeCost: 3 }))).toBe(true);
    expect(needsRehash(await argon2.hash('pw', { ...ARGON2_OPTIONS, algorithm: 1 }))).toBe(true);
  });

  it('leaves a value that is not an argon2 hash alone', () => {
    expect(needsRehash('!deleted')).toBe(false);
    expect(needsRehash('')).toBe(false);
    expect(needsRehash('$2b$12$abcdefghijklmnopqrstuv')).toBe(false);
  });
});
