import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format';
import { testAdminUser } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { UsersAdmin } from './users-admin';

function detailServer() {
  const grace = testAdminUser({ id: 'u2', email: 'grace@example.test', name: 'Grace', credits: 40 });
  let level = 2;
  const calls: string[] = [];
  const till = fakeTill((path, body) => {
    calls.push(path);
    if (path === 'api/admin/users/list') return { code: 900, data: { users: [grace], total: 1 } };
    if (path === 'api/admin/users/get')
      return {
        code: 900,
        data: {
          user: { ...grace, level },
          levelFixed: false,
          sessions: [
            {
              id: 's1',
              createdAt: '2026-01-02T00:00:00.000Z',
              expiresAt: '2026-02-02T00:00:00.000Z',
              lastSeenAt: null,
              userAgent: 'Firefox on Linux',
              ip: '192.0.2.1',
            },
          ],
        },
      };
    if (path === 'api/admin/orders/list') return { code: 900, data: { orders: [], total: 0 } };
    if (path === 'api/admin/credits/history')
      return {
        code: 900,
        data: {
          balance: 40,
          total: 1,
          entries: [
            {
              id: 'e1',
              amount: 40,
              reason: 'adjustment',
              reference: 'welcome',
              balanceAfter: 40,
              createdAt: '2026-01-03T00:00:00.000Z',
            },
          ],
        },
      };
    if (path === 'api/files/list')
      return {
        code: 900,
        data: {
          files: [
            {
              id: 'f1',
              name: 'cv.pdf',
              size: 2048,
              mime: 'application/pdf',
              url: '/f1',
              createdAt: '2026-01-04T00:00:00.000Z',
            },
          ],
          total: 1,
        },
      };
    if (path === 'api/admin/users/setLevel') {
      level = Number(body.level);
      return { code: 900, data: { user: { ...grace, level } } };
    }
    return { code: 904, parameter: 'path' };
  });
  signInFake(till, 9);
  return { till, calls };
}

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

  it('searches on the server as the administrator types, and names levels instead of numbers', async () => {
    const asked: Record<string, unknown>[] = [];
    const all = [
      testAdminUser({ id: 'u1', email: 'ada@example.test', level: 9 }),
      testAdminUser({ id: 'u2', email: 'grace@example.test', name: 'Grace', level: 2 }),
      testAdminUser({ id: 'u3', email: 'new@example.test', level: 1, emailConfirmed: false }),
    ];
    const till = fakeTill((path, body) => {
      if (path !== 'api/admin/users/list') return { code: 904, parameter: 'path' };
      asked.push(body);
      const q = String(body.query ?? '');
      const users = all.filter((u) => u.email.includes(q) || u.name.toLowerCase().includes(q));
      return { code: 900, data: { users, total: users.length } };
    });
    signInFake(till, 9);
    renderWithApp(<UsersAdmin />, { till });
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByText('Administrator')).toBeInTheDocument();
    expect(within(table).getByText('Member')).toBeInTheDocument();
    expect(within(table).getByText('Member (e-mail not confirmed)')).toBeInTheDocument();
    expect(within(table).queryByText('9')).not.toBeInTheDocument();
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search users' }), 'grace');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText('grace@example.test')).toBeInTheDocument();
    expect(asked.at(-1)).toMatchObject({ query: 'grace', page: 1, pageSize: 10 });
  });

  it('opens a user: orders, credits, files, sessions and flags', async () => {
    const { till } = detailServer();
    renderWithApp(<UsersAdmin />, { till });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Open grace@example.test' }));
    expect(await screen.findByRole('heading', { name: 'Grace' })).toBeInTheDocument();
    expect(await screen.findByText('No orders.')).toBeInTheDocument();
    expect(await screen.findByText('+40 · adjustment')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'cv.pdf' })).toBeInTheDocument();
    expect(screen.getByText('Firefox on Linux')).toBeInTheDocument();
    expect(screen.getByText('No flags.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to the users' }));
    expect(await screen.findByRole('table', { name: 'Users' })).toBeInTheDocument();
  });

  it('makes an opened user an administrator after asking', async () => {
    const { till, calls } = detailServer();
    renderWithApp(<UsersAdmin />, { till, route: '/admin?tab=users&user=u2' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Make administrator' }));
    const confirm = await screen.findByRole('dialog', { name: 'Make this user an administrator?' });
    await user.click(within(confirm).getByRole('button', { name: 'Make administrator' }));
    expect(
      await screen.findByText(
        'Done: grace@example.test has the new level from their next step on, without signing in again.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: 'Make member' })).toBeInTheDocument();
    expect(calls).toContain('api/admin/users/setLevel');
  });
});
