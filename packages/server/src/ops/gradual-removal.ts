import { lstat, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How much of a large file one step of {@link removeGradually} frees, and the pause after each step:
 * about 80 MiB a second. Measured on a `discard`-mounted ext4 disk (docs/decisions/020): a writer that
 * syncs every 300 ms waited up to 300-390 ms on its sync when a 1 GiB file was unlinked at once, and
 * no longer than without a removal (50-85 ms) with steps of 2-16 MiB; steps of 32-64 MiB brought
 * waits of 85-150 ms back.
 */
export const REMOVAL_STEP = 8 * 1024 * 1024;
export const REMOVAL_PAUSE_MS = 100;

export interface GradualRemoval {
  /** Bytes freed per step ({@link REMOVAL_STEP}). */
  step?: number;
  /** The pause after each step ({@link REMOVAL_PAUSE_MS}). */
  pauseMs?: number;
  /** Told after each step, with the file and the size it was cut to. */
  onStep?: (path: string, size: number) => void;
}

/**
 * Removes a file or a folder (what is in it first) without freeing much of the disk at once: a file
 * larger than one step is cut from its end a step at a time, each step on the disk before the pause
 * that follows it (`fdatasync`), and unlinked once it is down to a step. A file system that discards
 * freed blocks (ext4's `discard`) does so in the journal commit that frees them, and every sync on
 * the disk meanwhile waits for that commit: unlinking a copy of a 1 GiB database at once held the
 * server's next sync for hundreds of milliseconds. Symbolic links are removed, never followed. A path
 * that is not there (or goes meanwhile) is no error.
 */
export async function removeGradually(path: string, options: GradualRemoval = {}): Promise<void> {
  let info;
  try {
    info = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (info.isDirectory()) {
    for (const name of await readdir(path)) await removeGradually(join(path, name), options);
  } else if (info.isFile()) {
    await cutDown(path, options);
  }
  // The folder is empty now (or holds only what was added meanwhile, small by the time it went).
  await rm(path, { recursive: true, force: true });
}

async function cutDown(path: string, options: GradualRemoval): Promise<void> {
  const step = options.step ?? REMOVAL_STEP;
  const pauseMs = options.pauseMs ?? REMOVAL_PAUSE_MS;
  let handle;
  try {
    handle = await open(path, 'r+');
  } catch (error) {
    // Gone meanwhile, or not ours to write: the unlink that follows frees it (or says why not).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EACCES')
      return;
    throw error;
  }
  try {
    let size = (await handle.stat()).size;
    while (size > step) {
      size -= step;
      await handle.truncate(size);
      await handle.datasync();
      options.onStep?.(path, size);
      await sleep(pauseMs);
    }
  } finally {
    await handle.close();
  }
}
