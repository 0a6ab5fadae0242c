import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { RequireAuth } from './require-auth';

function serverSaying(level: number) {
  const paths: string[] = [];
  const till = fakeTill((path) => {
    paths.push(path);
    if (path === 'api/auth/getUserInfo')
      return {
        code: 900,
        user: {
          id: 'u1',
          email: 'ada@example.test',
          name: 'Ada',
          lang: 'en',
          level,
          emailConfirmed: true,
          avatarUrl: null,
          credits: 0,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      };
    return { code: 904, parameter: 'path' };
  });
  return { till, paths };
}

describe('RequireAuth', () => {
  it('opens a page for a level given since sign-in: the server is asked before refusing', async () => {
    const { till, paths } = serverSaying(9);
    // The session was started as a member; an administrator has promoted them since.
    signInFake(till, 2);
    renderWithApp(
      <RequireAuth level={9}>
        <p>Administration</p>
      </RequireAuth>,
      { till },
    );
    expect(await screen.findByText('Administration')).toBeInTheDocument();
    expect(paths).toEqual(['api/auth/getUserInfo']);
    expect(till.session.level).toBe(9);
  });

  it('still refuses when the server says the level is too low', async () => {
    const { till } = serverSaying(2);
    signInFake(till, 2);
    renderWithApp(
      <RequireAuth level={9}>
        <p>Administration</p>
      </RequireAuth>,
      { till },
    );
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByText('Administration')).not.toBeInTheDocument();
  });

  it('asks nothing when the kept level is enough', () => {
    const { till, paths } = serverSaying(9);
    signInFake(till, 9);
    renderWithApp(
      <RequireAuth level={9}>
        <p>Administration</p>
      </RequireAuth>,
      { till },
    );
    expect(screen.getByText('Administration')).toBeInTheDocument();
    expect(paths).toEqual([]);
  });
});
