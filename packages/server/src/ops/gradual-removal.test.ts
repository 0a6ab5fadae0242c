import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeGradually } from './gradual-removal.js';

describe('removeGradually', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'till-gradual-removal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('cuts a large file down from its end a step at a time, each step on the disk, then unlinks it', async () => {
    const step = 64 * 1024;
    const file = join(dir, 'copy.db');
    writeFileSync(file, Buffer.alloc(4 * step + 100, 1));
    const steps: { size: number; onDisk: number }[] = [];
    await removeGradually(file, {
      step,
      pauseMs: 0,
      onStep: (path, size) => {
        expect(path).toBe(file);
        steps.push({ size, onDisk: statSync(path).size });
      },
    });
    // Four steps freed, the last 100 bytes with the unlink.
    expect(steps).toEqual([
      { size: 3 * step + 100, onDisk: 3 * step + 100 },
      { size: 2 * step + 100, onDisk: 2 * step + 100 },
      { size: step + 100, onDisk: step + 100 },
      { size: 100, onDisk: 100 },
    ]);
    expect(existsSync(file)).toBe(false);
  });

  it('empties a folder depth first, removes links without following them, and leaves small files whole until unlinked', async () => {
    const step = 1024;
    const staging = join(dir, 'staging');
    mkdirSync(join(staging, 'uploads', 'ab'), { recursive: true });
    writeFileSync(join(staging, 'archive.tar.gz'), Buffer.alloc(3 * step, 2));
    writeFileSync(join(staging, 'uploads', 'ab', 'small'), 'small');
    const outside = join(dir, 'outside');
    writeFileSync(outside, Buffer.alloc(5 * step, 3));
    symlinkSync(outside, join(staging, 'uploads', 'link'));
    const cut: string[] = [];
    await removeGradually(staging, { step, pauseMs: 0, onStep: (path, size) => cut.push(`${path}:${size}`) });
    expect(existsSync(staging)).toBe(false);
    expect(cut).toEqual([
      `${join(staging, 'archive.tar.gz')}:${2 * step}`,
      `${join(staging, 'archive.tar.gz')}:${step}`,
    ]);
    // The link's target is untouched.
    expect(readFileSync(outside)).toEqual(Buffer.alloc(5 * step, 3));
  });

  it('takes a path that is not there as removed', async () => {
    await expect(removeGradually(join(dir, 'never-made'))).resolves.toBeUndefined();
    await expect(removeGradually(join(dir, 'never-made', 'deeper'))).resolves.toBeUndefined();
  });
});
