import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeTill, renderWithApp } from '@/test/render';
import { webauthn } from '@/lib/webauthn';
import { PasskeySignIn } from './passkey-sign-in';

const user = {
  id: 'u1',
  email: 'ada@example.test',
  name: 'Ada',
  lang: 'en',
  level: 2,
  emailConfirmed: true,
  avatarUrl: null,
  credits: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const credential = { id: 'cred', rawId: 'cred', type: 'public-key', clientExtensionResults: {}, response: {} };

describe('PasskeySignIn', () => {
  beforeEach(() => vi.restoreAllMocks());

  it('signs in with the passkey the browser offers, and the session starts', async () => {
    vi.spyOn(webauthn, 'supported').mockReturnValue(true);
    const get = vi.spyOn(webauthn, 'get').mockResolvedValue(credential as never);
    const onSignedIn = vi.fn();
    const till = fakeTill((path) =>
      path === 'api/passkeys/signInOptions'
        ? { code: 900, data: { options: { challenge: 's' } } }
        : { code: 900, token: 'token-0123456789abcdef', expire: 3600, user },
    );
    renderWithApp(<PasskeySignIn onSignedIn={onSignedIn} />, { till });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(user));
    expect(get).toHaveBeenCalledWith({ challenge: 's' });
    expect(till.session.token).toBe('token-0123456789abcdef');
  });

  it('says the passkey could not sign in on 902, and stays signed out', async () => {
    vi.spyOn(webauthn, 'supported').mockReturnValue(true);
    vi.spyOn(webauthn, 'get').mockResolvedValue(credential as never);
    const till = fakeTill((path) =>
      path === 'api/passkeys/signInOptions' ? { code: 900, data: { options: { challenge: 's' } } } : { code: 902 },
    );
    renderWithApp(<PasskeySignIn onSignedIn={vi.fn()} />, { till });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This passkey could not sign you in.');
    expect(till.session.token).toBeNull();
  });

  it('is not offered where the browser has no WebAuthn', () => {
    vi.spyOn(webauthn, 'supported').mockReturnValue(false);
    renderWithApp(<PasskeySignIn onSignedIn={vi.fn()} />, { till: fakeTill(() => ({ code: 900 })) });
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });
});
