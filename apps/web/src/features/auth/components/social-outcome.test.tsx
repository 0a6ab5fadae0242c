import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { fakeTill, renderWithApp } from '@/test/render';
import { SocialButtons } from './social-buttons';
import { SocialOutcomeView } from './social-outcome';

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

describe('SocialButtons', () => {
  it('shows nothing when the server offers no provider', async () => {
    const till = fakeTill(() => ({ code: 900, data: { providers: [] } }));
    const { container } = renderWithApp(<SocialButtons onOutcome={vi.fn()} />, { till });
    await waitFor(() => expect(container.querySelector('[aria-busy]')).toBeNull());
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows a button per provider with a web flow, none for one the browser cannot run', async () => {
    const providers = [
      { id: 'apple', kind: 'apple', name: 'Apple', native: false, web: true, appClientIds: [] },
      { id: 'google', kind: 'google', name: 'Google', native: false, web: true, appClientIds: [] },
      // Only the phone apps' client ids: its sheet is the apps', a browser has no flow for it.
      { id: 'corp', kind: 'oidc', name: 'Corp ID', native: true, web: false, appClientIds: ['app'] },
    ];
    const till = fakeTill(() => ({ code: 900, data: { providers } }));
    renderWithApp(<SocialButtons onOutcome={vi.fn()} />, { till });
    expect(await screen.findByRole('button', { name: 'Continue with Apple' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Continue with Corp ID' })).toBeNull();
  });
});

describe('SocialOutcomeView', () => {
  it('asks the owner of an address with an account for its password, and signs in with it', async () => {
    const onSignedIn = vi.fn();
    const till = fakeTill((path) =>
      path === 'api/social/linkWithPassword'
        ? { code: 900, token: 'token-0123456789abcdef', expire: 3600, user }
        : { code: 904, parameter: 'path' },
    );
    const error = new ApiError({
      code: 915,
      link: 'l'.repeat(43),
      email: 'ada@example.test',
      provider: 'google',
      expire: 900,
    });
    renderWithApp(<SocialOutcomeView error={error} onSignedIn={onSignedIn} onRestart={vi.fn()} />, { till });
    expect(screen.getByText(/An account for ada@example.test exists already/)).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/Password/), 'a long, uncommon passphrase');
    await u.click(screen.getByRole('button', { name: 'Link and sign in' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(user));
  });

  it('says why an unverified address makes no account', () => {
    const error = new ApiError({ code: 907, parameter: 'email', reason: 'unverified' });
    renderWithApp(<SocialOutcomeView error={error} onSignedIn={vi.fn()} onRestart={vi.fn()} />, {
      till: fakeTill(() => ({ code: 900 })),
    });
    expect(screen.getByRole('alert')).toHaveTextContent('The provider does not confirm this e-mail address');
  });
});
