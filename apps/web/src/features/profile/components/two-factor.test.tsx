import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SecurityLogEntry } from '@till/protocol';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { SecurityLog } from './security-log';
import { TwoFactor } from './two-factor';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/Till:ada%40example.test?issuer=Till&secret=${SECRET}&algorithm=SHA1&digits=6&period=30`;
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jkmn-pq${String.fromCharCode(97 + i)}${i + 2}`);

function signedIn(answer: Parameters<typeof fakeTill>[0]) {
  const till = fakeTill(answer);
  signInFake(till);
  return till;
}

const off = { code: 900, data: { totp: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 } } };
const on = {
  code: 900,
  data: { totp: { enabled: true, enabledAt: '2026-03-01T10:00:00.000Z', recoveryCodesLeft: 9 } },
};

describe('TwoFactor', () => {
  it('sets up with a QR code and the key as text, enables with code and password, and shows the codes once', async () => {
    let enabled = false;
    const bodies: Record<string, unknown>[] = [];
    const till = signedIn((path, body) => {
      if (path === 'api/auth/secondFactor/status') return enabled ? on : off;
      if (path === 'api/auth/totp/setup') return { code: 900, data: { secret: SECRET, uri: URI } };
      if (path === 'api/auth/totp/enable') {
        bodies.push(body);
        enabled = true;
        return { code: 900, data: { recoveryCodes: CODES } };
      }
      return { code: 904, parameter: 'path' };
    });
    renderWithApp(<TwoFactor />, { till });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Set up' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await u.type(screen.getByLabelText(/^Six-digit code/), '123456');
    await u.type(screen.getByLabelText(/^Current password/), 'a long, uncommon passphrase');
    await u.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(bodies).toEqual([
      { token: expect.any(String), code: '123456', currentPassword: 'a long, uncommon passphrase' },
    ]);
    await u.click(screen.getByRole('button', { name: 'I have saved them' }));
    // Gone once dismissed: the status shows instead.
    expect(await screen.findByText(/Two-step sign-in is on since/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(screen.getByText('9 recovery codes left.')).toBeInTheDocument();
  });

  it('shows a wrong code and a wrong password on their fields', async () => {
    let tries = 0;
    const till = signedIn((path) => {
      if (path === 'api/auth/secondFactor/status') return off;
      if (path === 'api/auth/totp/setup') return { code: 900, data: { secret: SECRET, uri: URI } };
      tries += 1;
      return tries === 1 ? { code: 907, parameter: 'code', reason: 'invalid' } : { code: 902 };
    });
    renderWithApp(<TwoFactor />, { till });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Set up' }));
    await u.type(await screen.findByLabelText(/^Six-digit code/), '123456');
    await u.type(screen.getByLabelText(/^Current password/), 'a long, uncommon passphrase');
    await u.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(/This code is not right/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Six-digit code/)).toHaveAttribute('aria-invalid', 'true');
    await u.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
  });

  it('turns off with the password and a code', async () => {
    let enabled = true;
    const till = signedIn((path) => {
      if (path === 'api/auth/secondFactor/status') return enabled ? on : off;
      if (path === 'api/auth/totp/disable') {
        enabled = false;
        return { code: 900, data: {} };
      }
      return { code: 904, parameter: 'path' };
    });
    renderWithApp(<TwoFactor />, { till });
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Six-digit code/), '654321');
    await u.type(screen.getByLabelText(/^Current password/), 'a long, uncommon passphrase');
    await u.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Two-step sign-in is off.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Set up' })).toBeInTheDocument());
  });

  it('shows a wrong code on the code field when turning off, not above the form', async () => {
    const till = signedIn((path) => {
      if (path === 'api/auth/secondFactor/status') return on;
      if (path === 'api/auth/totp/disable') return { code: 907, parameter: 'code', reason: 'invalid' };
      return { code: 904, parameter: 'path' };
    });
    renderWithApp(<TwoFactor />, { till });
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Six-digit code/), '654321');
    await u.type(screen.getByLabelText(/^Current password/), 'a long, uncommon passphrase');
    await u.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(/This code is not right/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Six-digit code/)).toHaveAttribute('aria-invalid', 'true');
    // On the field only: the form shows no second copy above it.
    expect(screen.getAllByText(/This code is not right/)).toHaveLength(1);
  });
});

function entry(over: Partial<SecurityLogEntry>): SecurityLogEntry {
  return {
    id: Math.random().toString(36),
    kind: 'signin',
    at: '2026-03-01T10:00:00.000Z',
    ip: '203.0.113.7',
    device: { browser: 'Firefox', os: 'Windows' },
    actorId: null,
    detail: {},
    ...over,
  };
}

describe('SecurityLog', () => {
  it('words each entry, shows the device as browser and system, and pages', async () => {
    const pages: number[] = [];
    const till = signedIn((_path, body) => {
      pages.push(Number(body.page));
      const entries =
        body.page === 1
          ? [
              entry({ detail: { method: 'totp' } }),
              entry({ kind: 'sessions_revoked', detail: { count: 2 }, device: null, ip: null }),
              entry({ kind: 'second_factor_reset_by_admin', actorId: 'admin-1' }),
              entry({ kind: 'recovery_codes_renewed' }),
            ]
          : [
              entry({ kind: 'signin_failed', detail: { method: 'password' } }),
              entry({ kind: 'admin_credits_adjusted', actorId: 'admin-1', detail: { amount: 50, reason: 'Goodwill' } }),
            ];
      return { code: 900, data: { entries, total: 13 } };
    });
    renderWithApp(<SecurityLog />, { till });
    const list = await screen.findByRole('list', { name: 'Security log' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Signed in with authenticator code');
    expect(items[0]).toHaveTextContent('Firefox on Windows · 203.0.113.7');
    expect(items[1]).toHaveTextContent('2 other sessions signed out');
    expect(items[2]).toHaveTextContent('by an administrator');
    expect(items[3]).toHaveTextContent('New recovery codes made; the old ones no longer work');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Failed sign-in (password)')).toBeInTheDocument();
    expect(screen.getByText('Credits adjusted by an administrator (+50)')).toBeInTheDocument();
    expect(pages).toEqual([1, 2]);
  });

  it('says when there is nothing yet', async () => {
    renderWithApp(<SecurityLog />, { till: signedIn(() => ({ code: 900, data: { entries: [], total: 0 } })) });
    expect(await screen.findByText('Nothing recorded yet.')).toBeInTheDocument();
  });
});
