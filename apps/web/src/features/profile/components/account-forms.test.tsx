import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { User } from '@till/protocol';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { EmailForm } from './email-form';
import { PasswordForm } from './password-form';

const user: User = {
  id: 'u1',
  email: 'ada@example.test',
  name: 'Ada',
  lang: 'en',
  level: 2,
  emailConfirmed: true,
  avatarUrl: null,
  credits: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  pendingEmail: null,
};

function signedIn(answer: Parameters<typeof fakeTill>[0]) {
  const till = fakeTill(answer);
  signInFake(till);
  return till;
}

describe('PasswordForm', () => {
  const fill = async (current: string, next: string, repeat = next) => {
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Current password/), current);
    await u.type(screen.getByLabelText(/^New password/), next);
    await u.type(screen.getByLabelText(/^Repeat the password/), repeat);
    await u.click(screen.getByRole('button', { name: 'Change password' }));
  };

  it('refuses two different new passwords without calling the server', async () => {
    const calls: string[] = [];
    renderWithApp(<PasswordForm />, { till: signedIn((path) => (calls.push(path), { code: 900, user })) });
    await fill('the current one', 'a brand new passphrase', 'another passphrase');
    expect(await screen.findByText('The two passwords differ')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows a wrong current password (902) on its field', async () => {
    renderWithApp(<PasswordForm />, { till: signedIn(() => ({ code: 902 })) });
    await fill('not my password', 'a brand new passphrase');
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Current password/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a common new password (907 weak) on the new password field', async () => {
    renderWithApp(<PasswordForm />, {
      till: signedIn(() => ({ code: 907, parameter: 'password', reason: 'weak' })),
    });
    await fill('the current one', 'password1234');
    expect(await screen.findByText('Too common: choose a less guessable password')).toBeInTheDocument();
    expect(screen.getByLabelText(/^New password/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends the current and the new password, says so and empties the form', async () => {
    const bodies: Record<string, unknown>[] = [];
    renderWithApp(<PasswordForm />, {
      till: signedIn((_path, body) => (bodies.push(body), { code: 900, user })),
    });
    await fill('the current one', 'a brand new passphrase');
    expect(await screen.findByRole('status')).toHaveTextContent('your other sessions are signed out');
    expect(bodies[0]).toMatchObject({ currentPassword: 'the current one', password: 'a brand new passphrase' });
    expect(bodies[0]).not.toHaveProperty('repeat');
    await waitFor(() => expect(screen.getByLabelText(/^New password/)).toHaveValue(''));
  });
});

describe('EmailForm', () => {
  const fill = async (email: string, current: string) => {
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^New e-mail/), email);
    await u.type(screen.getByLabelText(/^Current password/), current);
    await u.click(screen.getByRole('button', { name: 'Change e-mail' }));
  };

  it('shows the current address and one waiting for confirmation', () => {
    renderWithApp(<EmailForm user={{ ...user, pendingEmail: 'new@example.test' }} />, {
      till: signedIn(() => ({ code: 900, user })),
    });
    expect(screen.getByText(/Your e-mail is ada@example.test\./)).toBeInTheDocument();
    expect(screen.getByText(/new@example.test is waiting for confirmation\./)).toBeInTheDocument();
  });

  it('shows a taken address (907 taken) on the e-mail field and a wrong password (902) on its own', async () => {
    let answer: unknown = { code: 907, parameter: 'email', reason: 'taken' };
    renderWithApp(<EmailForm user={user} />, { till: signedIn(() => answer) });
    await fill('taken@example.test', 'the current one');
    expect(await screen.findByText('Already in use')).toBeInTheDocument();
    answer = { code: 902 };
    await userEvent.setup().click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
  });

  it('asks the server for the change and says a link was sent to the new address', async () => {
    const bodies: Record<string, unknown>[] = [];
    renderWithApp(<EmailForm user={user} />, {
      till: signedIn(
        (_path, body) => (bodies.push(body), { code: 900, user: { ...user, pendingEmail: 'n@example.test' } }),
      ),
    });
    await fill('n@example.test', 'the current one');
    expect(await screen.findByRole('status')).toHaveTextContent('We have sent a confirmation link to the new address');
    expect(bodies[0]).toMatchObject({ email: 'n@example.test', currentPassword: 'the current one' });
  });
});
