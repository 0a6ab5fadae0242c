import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testAdminUser } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { UsersAdmin } from './users-admin';

describe("a user's security, for administrators", () => {
  it("shows the user's log and resets the second factor only after confirming", async () => {
    const calls: { path: string; body: Record<string, unknown> }[] = [];
    const users = [testAdminUser({ id: 'u7', email: 'lost.phone@example.test' })];
    const till = fakeTill((path, body) => {
      calls.push({ path, body });
      if (path === 'api/admin/users/list') return { code: 900, data: { users, total: 1 } };
      if (path === 'api/admin/users/securityLog')
        return {
          code: 900,
          data: {
            entries: [
              {
                id: 'e1',
                kind: 'totp_enabled',
                at: '2026-03-01T10:00:00.000Z',
                ip: '203.0.113.7',
                device: { browser: 'Chrome', os: 'Android' },
                actorId: null,
                detail: {},
              },
            ],
            total: 1,
          },
        };
      if (path === 'api/admin/users/resetSecondFactor') return { code: 900, data: { reset: true } };
      return { code: 904, parameter: 'path' };
    });
    signInFake(till, 9);
    renderWithApp(<UsersAdmin />, { till });
    const u = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Users' });
    await u.click(within(table).getByRole('button', { name: 'Security of lost.phone@example.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Security of lost.phone@example.test' });
    expect(await within(dialog).findByText('Two-step sign-in turned on')).toBeInTheDocument();
    expect(within(dialog).getByText(/Chrome on Android · 203.0.113.7/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'api/admin/users/securityLog')?.body).toMatchObject({ userId: 'u7', page: 1 });

    await u.click(within(dialog).getByRole('button', { name: 'Reset second factor' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset second factor' });
    expect(confirm).toHaveTextContent('lost.phone@example.test');
    expect(calls.some((c) => c.path === 'api/admin/users/resetSecondFactor')).toBe(false);
    await u.click(within(confirm).getByRole('button', { name: 'Turn it off' }));
    expect(await screen.findByText(/Two-step sign-in is off for this user/)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'api/admin/users/resetSecondFactor').map((c) => c.body)).toEqual([
      { token: expect.any(String), userId: 'u7' },
    ]);
  });
});
