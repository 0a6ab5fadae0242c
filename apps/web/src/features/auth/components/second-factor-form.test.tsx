import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeTill, renderWithApp } from '@/test/render';
import { LoginForm } from './login-form';
import { SecondFactorForm } from './second-factor-form';

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
const CHALLENGE = 'challenge-0123456789abcdef-0123456789';

async function signIn() {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText(/^E-mail/), 'ada@example.test');
  await u.type(screen.getByLabelText(/^Password/), 'a long, uncommon passphrase');
  await u.click(screen.getByRole('button', { name: 'Sign in' }));
  return u;
}

describe('the second step of a sign-in', () => {
  it('asks for the code after a 913 and signs in with it', async () => {
    const calls: { path: string; body: Record<string, unknown> }[] = [];
    const till = fakeTill((path, body) => {
      calls.push({ path, body });
      if (path === 'api/login') return { code: 913, challenge: CHALLENGE, expire: 300 };
      return { code: 900, token: 'tok-0123456789abcdef', expire: 3600, user };
    });
    const onSignedIn = vi.fn();
    renderWithApp(<LoginForm onSignedIn={onSignedIn} />, { till });
    const u = await signIn();
    await u.type(await screen.findByLabelText(/^Six-digit code/), '123 456');
    await u.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(user));
    expect(calls[1]).toEqual({ path: 'api/login/secondFactor', body: { challenge: CHALLENGE, code: '123456' } });
    expect(till.session.token).toBe('tok-0123456789abcdef');
  });

  it('says a wrong code on the field and lets the person try again', async () => {
    let tries = 0;
    const till = fakeTill((path) => {
      if (path === 'api/login') return { code: 913, challenge: CHALLENGE, expire: 300 };
      tries += 1;
      return tries === 1 ? { code: 902 } : { code: 900, token: 'tok-0123456789abcdef', expire: 3600, user };
    });
    const onSignedIn = vi.fn();
    renderWithApp(<LoginForm onSignedIn={onSignedIn} />, { till });
    const u = await signIn();
    const field = await screen.findByLabelText(/^Six-digit code/);
    await u.type(field, '111111');
    await u.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(/This code is not right/)).toBeInTheDocument();
    await u.clear(field);
    await u.type(field, '222222');
    await u.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
  });

  it('refuses a code that is not six digits before sending it', async () => {
    const answer = vi.fn(() => ({ code: 900 }));
    renderWithApp(
      <SecondFactorForm
        pending={{ challenge: CHALLENGE, expiresAt: Date.now() + 60_000 }}
        onSignedIn={vi.fn()}
        onRestart={vi.fn()}
      />,
      { till: fakeTill(answer) },
    );
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Six-digit code/), '12ab');
    await u.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Not valid')).toBeInTheDocument();
    expect(answer).not.toHaveBeenCalled();
  });

  it('takes a recovery code instead', async () => {
    const bodies: Record<string, unknown>[] = [];
    const till = fakeTill((_path, body) => {
      bodies.push(body);
      return { code: 900, token: 'tok-0123456789abcdef', expire: 3600, user };
    });
    const onSignedIn = vi.fn();
    renderWithApp(
      <SecondFactorForm
        pending={{ challenge: CHALLENGE, expiresAt: Date.now() + 60_000 }}
        onSignedIn={onSignedIn}
        onRestart={vi.fn()}
      />,
      { till },
    );
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await u.type(screen.getByLabelText(/^Recovery code/), 'ABCD-EFGH-JKMN-PQRS');
    await u.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(bodies[0]).toEqual({ challenge: CHALLENGE, recoveryCode: 'abcdefghjkmnpqrs' });
  });

  it('says the step ran out when the challenge expires, and starts again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const onRestart = vi.fn();
      renderWithApp(
        <SecondFactorForm
          pending={{ challenge: CHALLENGE, expiresAt: Date.now() + 5_000 }}
          onSignedIn={vi.fn()}
          onRestart={onRestart}
        />,
        { till: fakeTill(() => ({ code: 911 })) },
      );
      expect(screen.getByLabelText(/^Six-digit code/)).toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(5_001);
      });
      expect(await screen.findByRole('alert')).toHaveTextContent('took too long');
      screen.getByRole('button', { name: 'Sign in again' }).click();
      expect(onRestart).toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says the step ran out when the server answers 911', async () => {
    renderWithApp(
      <SecondFactorForm
        pending={{ challenge: CHALLENGE, expiresAt: Date.now() + 60_000 }}
        onSignedIn={vi.fn()}
        onRestart={vi.fn()}
      />,
      { till: fakeTill(() => ({ code: 911 })) },
    );
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Six-digit code/), '123456');
    await u.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('took too long');
  });
});
