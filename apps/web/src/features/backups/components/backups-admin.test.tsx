import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Backup, BackupRun } from '@till/protocol';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { BackupsAdmin } from './backups-admin';

const stored = { name: 'till-20261127T030000000Z.tar.gz', size: 2_621_440, takenAt: '2026-11-27T03:00:00.000Z' };
const startedAt = '2026-11-27T03:00:00.000Z';
const running = (step: BackupRun['step'], done: number, total: number): BackupRun => ({
  state: 'running',
  step,
  done,
  total,
  startedAt,
  finishedAt: null,
  backup: null,
});

/** A server whose list answers `run` as the test sets it; a start begins one, or is refused with `refuse`. */
function server(options: { available?: boolean; backups?: Backup[]; run?: BackupRun; refuse?: boolean } = {}) {
  let backups = options.backups ?? [];
  let run: BackupRun | null = options.run ?? null;
  const calls: string[] = [];
  const till = fakeTill((path) => {
    calls.push(path);
    if (path === 'api/admin/backups/list')
      return {
        code: 900,
        data: { backups, run, available: options.available ?? true, schedule: '0 3 * * *', keep: 7 },
      };
    if (path === 'api/admin/backups/start') {
      if (options.refuse) return { code: 912, status: 'running', reason: 'in_progress' };
      run = running('snapshot', 0, 0);
      return { code: 900, data: { run } };
    }
    return { code: 904, parameter: 'path' };
  });
  signInFake(till, 9);
  /** The backup goes on to `next`; stored, it joins the list. */
  const advance = (next: BackupRun) => {
    run = next;
    if (next.backup) backups = [next.backup, ...backups];
  };
  return { till, calls, advance };
}

const slow = { timeout: 10_000 };

describe('BackupsAdmin', () => {
  it('starts a backup, shows it running with its progress, then lists it with its size and time', async () => {
    const { till, calls, advance } = server();
    renderWithApp(<BackupsAdmin />, { till });
    expect(await screen.findByText('No backups yet')).toBeInTheDocument();
    expect(
      screen.getByText('Taken by the server on the schedule “0 3 * * *” (UTC); the latest 7 are kept.'),
    ).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Take a backup now' }));
    expect(await screen.findByText('Copying the database…')).toBeInTheDocument();
    advance(running('archive', 512, 1024));
    expect(await screen.findByText('Packing and compressing: 50 %', {}, slow)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress of the backup' })).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByRole('button', { name: 'Taking a backup…' })).toBeDisabled();
    advance({ ...running('store', 0, 10), state: 'done', finishedAt: '2026-11-27T03:01:00.000Z', backup: stored });
    expect(await screen.findByText('Backup till-20261127T030000000Z.tar.gz is stored.', {}, slow)).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Backups' });
    expect(within(table).getByText('2.5 MB')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: /^Download the backup of / })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Take a backup now' })).toBeEnabled();
    expect(calls.filter((p) => p === 'api/admin/backups/start')).toHaveLength(1);
  });

  it('shows a backup another administrator started, and says in which step a backup failed', async () => {
    const { till, advance } = server({ run: running('uploads', 3, 12) });
    renderWithApp(<BackupsAdmin />, { till });
    expect(await screen.findByText('Copying the uploads: 3 of 12')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Taking a backup…' })).toBeDisabled();
    advance({ ...running('archive', 100, 1000), state: 'failed', finishedAt: '2026-11-27T03:01:00.000Z' });
    expect(
      await screen.findByText(/failed while packing and compressing\. The server's log says why\./, {}, slow),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Take a backup now' })).toBeEnabled();
    expect(screen.queryByText(/is stored\./)).not.toBeInTheDocument();
  });

  it('says so when a backup is being taken already, here or by another server', async () => {
    const { till } = server({ refuse: true });
    renderWithApp(<BackupsAdmin />, { till });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Take a backup now' }));
    expect(
      await screen.findByText(/^A backup is being taken already, by this server or another\./),
    ).toBeInTheDocument();
  });

  it('says that a PostgreSQL server is backed up with pg_dump, and offers no button', async () => {
    const { till } = server({ available: false });
    renderWithApp(<BackupsAdmin />, { till });
    expect(
      await screen.findByText(/This server runs on PostgreSQL: back its database up with pg_dump/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take a backup now' })).not.toBeInTheDocument();
  });
});
