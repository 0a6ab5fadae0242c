import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeTill, renderWithApp } from '@/test/render';
import { LoginForm } from './login-form';

async function submit(password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^E-mail/), 'ada@example.test');
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginForm', () => {
  it('says wrong credentials (902) above the form', async () => {
    renderWithApp(<LoginForm onSignedIn={vi.fn()} />, { till: fakeTill(() => ({ code: 902 })) });
    await submit('wrong one');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail or password.');
  });

  it("says it can't reach the server when the call fails (905)", async () => {
    const till = fakeTill(() => {
      throw Object.assign(new Error('socket hang up'), { isAxiosError: true, code: 'ECONNREFUSED', request: {} });
    });
    renderWithApp(<LoginForm onSignedIn={vi.fn()} />, { till });
    await submit('whatever it is');
    expect(await screen.findByRole('alert')).toHaveTextContent("Can't reach the server");
  });

  it('replays the calls that waited for a login once signed in', async () => {
    const paths: string[] = [];
    const user = {
      id: 'u1',
      email: 'ada@example.test',
      name: 'Ada',
      lang: 'en',
      level: 2,
      emailConfirmed: true,
      avatarUrl: null,
      credits: 0,
      createdAt: '',
    };
    const till = fakeTill((path) => {
      paths.push(path);
      if (path === 'api/login') return { code: 900, token: 'tok-0123456789abcdef', expire: 3600, user };
      return { code: 900, data: { files: [], total: 0 } };
    });
    // A call made while signed out waits in the SDK's queue.
    const waiting = till.serviceCall('api/files/list', {});
    const onSignedIn = vi.fn();
    renderWithApp(<LoginForm onSignedIn={onSignedIn} />, { till });
    await submit('a long, uncommon passphrase');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(user));
    expect((await waiting).code).toBe(900);
    expect(paths).toEqual(['api/login', 'api/files/list']);
  });
});
