import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format';
import { testAdminUser } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { UsersAdmin } from './users-admin';

describe('UsersAdmin', () => {
  it('marks flagged users with the reason, and only them', async () => {
    const flaggedAt = '2026-02-03T12:00:00.000Z';
    const users = [
      testAdminUser({
        id: 'u1',
        email: 'flagged@example.test',
        flaggedAt,
        flagReason: 'chargeback on o-card: 40 credits already spent',
      }),
      testAdminUser({ id: 'u2', email: 'fine@example.test' }),
    ];
    const till = fakeTill((path) =>
      path === 'api/admin/users/list'
        ? { code: 900, data: { users, total: users.length } }
        : { code: 904, parameter: 'path' },
    );
    signInFake(till, 9);
    renderWithApp(<UsersAdmin />, { till });
    const table = await screen.findByRole('table', { name: 'Users' });
    const [, flaggedRow, fineRow] = within(table).getAllByRole('row');
    expect(flaggedRow).toHaveTextContent(
      `Flagged: chargeback on o-card: 40 credits already spent (${formatDate(flaggedAt, 'en')})`,
    );
    expect(fineRow).not.toHaveTextContent('Flagged');
  });
});
