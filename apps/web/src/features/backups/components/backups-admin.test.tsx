import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Backup } from '@till/protocol';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { BackupsAdmin } from './backups-admin';

function server(options: { available?: boolean; backups?: Backup[] } = {}) {
  let backups = options.backups ?? [];
  const calls: string[] = [];
  const till = fakeTill((path) => {
    calls.push(path);
    if (path === 'api/admin/backups/list')
      return { code: 900, data: { backups, available: options.available ?? true, schedule: '0 3 * * *', keep: 7 } };
    if (path === 'api/admin/backups/start') {
      const backup = { name: 'till-20261127T030000000Z.tar.gz', size: 2_621_440, takenAt: '2026-11-27T03:00:00.000Z' };
      backups = [backup, ...backups];
      return { code: 900, data: { backup } };
    }
    return { code: 904, parameter: 'path' };
  });
  signInFake(till, 9);
  return { till, calls };
}

describe('BackupsAdmin', () => {
  it('takes a backup and lists it with its size and time', async () => {
    const { till, calls } = server();
    renderWithApp(<BackupsAdmin />, { till });
    expect(await screen.findByText('No backups yet')).toBeInTheDocument();
    expect(
      screen.getByText('Taken by the server on the schedule “0 3 * * *” (UTC); the latest 7 are kept.'),
    ).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Take a backup now' }));
    expect(await screen.findByText('Backup till-20261127T030000000Z.tar.gz is stored.')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Backups' });
    expect(within(table).getByText('2.5 MB')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: /^Download the backup of / })).toBeInTheDocument();
    expect(calls.filter((p) => p === 'api/admin/backups/start')).toHaveLength(1);
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
