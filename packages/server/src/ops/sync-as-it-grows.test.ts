import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syncAsItGrows } from './sync-as-it-grows.js';

describe('syncAsItGrows', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'till-sync-as-it-grows-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 20_000, interval: 5 });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('syncs a file each time it has grown by a step, from before it exists, and not while it grows less', async () => {
    const step = 64 * 1024;
    const file = join(dir, 'copy.db');
    const growing = syncAsItGrows(file, { step, everyMs: 1 });
    const sum = () => growing.syncs.reduce((total, bytes) => total + bytes, 0);
    try {
      // Under a step: nothing synced while it stays so (the file is looked at every millisecond).
      await pause(20);
      appendFileSync(file, Buffer.alloc(step - 1, 1));
      await pause(50);
      expect(growing.syncs).toEqual([]);
      // One more byte is a step.
      appendFileSync(file, Buffer.alloc(1, 1));
      await waitFor(() => expect(growing.syncs).toEqual([step]));
      // Three steps at once: synced once or more as it is seen to grow, never less than a step at a time.
      appendFileSync(file, Buffer.alloc(3 * step, 1));
      await waitFor(() => expect(sum()).toBe(4 * step));
      expect(growing.syncs.every((bytes) => bytes >= step)).toBe(true);
      appendFileSync(file, Buffer.alloc(step / 4, 1));
      await pause(50);
    } finally {
      await growing.stop();
    }
    // What grew after the last sync by less than a step is left to the caller.
    expect(sum()).toBe(4 * step);
  });

  it('stops looking when asked, before the file exists, and stopping twice is once', async () => {
    const growing = syncAsItGrows(join(dir, 'never.db'), { step: 1, everyMs: 1 });
    await Promise.all([growing.stop(), growing.stop()]);
    appendFileSync(join(dir, 'never.db'), Buffer.alloc(1024, 1));
    await pause(20);
    expect(growing.syncs).toEqual([]);
  });
});
