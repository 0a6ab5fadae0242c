import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testAdminUser } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { UsersAdmin } from './users-admin';

describe('deleting a user from the admin users screen', () => {
  it('asks for the typed address and the administrator’s password, then deletes and says so', async () => {
    let users = [testAdminUser({ id: 'u7', email: 'leaving@example.test' })];
    const bodies: Record<string, unknown>[] = [];
    const till = fakeTill((path, body) => {
      if (path === 'api/admin/users/list') return { code: 900, data: { users, total: users.length } };
      if (path === 'api/admin/users/delete') {
        bodies.push(body);
        if (body.password !== 'admin secret') return { code: 902 };
        users = [];
        return { code: 900, data: {} };
      }
      return { code: 904, parameter: 'path' };
    });
    signInFake(till, 9);
    renderWithApp(<UsersAdmin />, { till });
    const u = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Users' });
    await u.click(within(table).getByRole('button', { name: 'Delete the account of leaving@example.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the account of leaving@example.test?' });
    const submit = within(dialog).getByRole('button', { name: 'Delete account' });
    expect(submit).toBeDisabled();
    await u.type(within(dialog).getByLabelText(/^Type their e-mail address/), 'leaving@example.test');
    await u.type(within(dialog).getByLabelText(/^Your own password/), 'wrong');
    await u.click(submit);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Wrong password');

    await u.clear(within(dialog).getByLabelText(/^Your own password/));
    await u.type(within(dialog).getByLabelText(/^Your own password/), 'admin secret');
    await u.click(submit);
    expect(await screen.findByRole('status')).toHaveTextContent('The account of leaving@example.test is deleted.');
    expect(bodies.at(-1)).toMatchObject({ userId: 'u7', confirm: 'leaving@example.test', password: 'admin secret' });
    await waitFor(() => expect(screen.queryByText('leaving@example.test')).toBeNull());
  });
});
