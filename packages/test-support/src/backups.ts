import type { Backup, BackupRun } from '@till/protocol';
import { vi } from 'vitest';
import type { TestApp } from './app.js';
import { ok } from './store.js';

/**
 * Starts a backup through the administrator's call (answered at once, HTTP 202, the backup running)
 * and waits, through the list as the Backups screen does, until it has ended: its last run.
 */
export async function backupRun(t: TestApp, admin: { token: string }): Promise<BackupRun> {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/backups/start', payload: admin });
  const started = res.json<{ code: number; data?: { run: BackupRun } }>();
  if (started.code !== 900 || !started.data) throw new Error(`the backup was refused: ${res.body}`);
  if (res.statusCode !== 202) throw new Error(`the start answered HTTP ${res.statusCode}, not 202`);
  return vi.waitFor(
    async () => {
      const { run } = await ok<{ run: BackupRun | null }>(t, '/api/admin/backups/list', admin);
      if (!run || run.state === 'running') throw new Error(`the backup is at ${run?.step ?? 'nothing'}`);
      return run;
    },
    { timeout: 120_000, interval: 50 },
  );
}

/** {@link backupRun}, which must end stored: the backup. */
export async function takeBackup(t: TestApp, admin: { token: string }): Promise<Backup> {
  const run = await backupRun(t, admin);
  if (run.state !== 'done' || !run.backup) throw new Error(`the backup failed in its ${run.step} step`);
  return run.backup;
}
