import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Passkey, User } from '@till/protocol';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { webauthn } from '@/lib/webauthn';
import { DeleteAccount } from './delete-account';
import { PasskeysSection } from './passkeys-section';

const passkey = (over: Partial<Passkey> = {}): Passkey => ({
  id: 'p1',
  name: 'Phone',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastUsedAt: null,
  transports: ['internal'],
  backedUp: false,
  ...over,
});

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

const credential = { id: 'cred', rawId: 'cred', type: 'public-key', clientExtensionResults: {}, response: {} };

function signedIn(answer: Parameters<typeof fakeTill>[0]) {
  const till = fakeTill(answer);
  signInFake(till);
  return till;
}

describe('PasskeysSection', () => {
  beforeEach(() => {
    vi.restoreAllMocks();
    vi.spyOn(webauthn, 'supported').mockReturnValue(true);
  });

  it('adds a passkey with its name: options, the device, then the server keeps it', async () => {
    const calls: [string, Record<string, unknown>][] = [];
    let list: Passkey[] = [];
    const create = vi.spyOn(webauthn, 'create').mockResolvedValue(credential as never);
    const till = signedIn((path, body) => {
      calls.push([path, body]);
      if (path === 'api/auth/passkeys/list') return { code: 900, data: { passkeys: list } };
      if (path === 'api/auth/passkeys/registrationOptions')
        return { code: 900, data: { options: { challenge: 'abc' } } };
      if (path === 'api/auth/passkeys/register') {
        list = [passkey({ name: String(body.name) })];
        return { code: 900, data: { passkey: list[0] } };
      }
      return { code: 904, parameter: 'path' };
    });
    renderWithApp(<PasskeysSection />, { till });
    expect(await screen.findByText('No passkeys yet.')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();

    await u.type(screen.getByLabelText(/^Name of the passkey/), 'Work laptop');
    await u.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Passkey “Work laptop” added');
    expect(create).toHaveBeenCalledWith({ challenge: 'abc' });
    expect(calls.find(([p]) => p === 'api/auth/passkeys/register')?.[1]).toMatchObject({
      name: 'Work laptop',
      credential,
    });
    const rows = within(await screen.findByRole('list', { name: 'Passkeys' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Work laptop');
    expect(rows[0]).toHaveTextContent('Last used never');
  });

  it('says so when the user cancels the device dialog, and when the server refuses the answer', async () => {
    const cancelled = Object.assign(new Error('The operation either timed out or was not allowed.'), {
      name: 'NotAllowedError',
    });
    const create = vi
      .spyOn(webauthn, 'create')
      .mockRejectedValueOnce(cancelled)
      .mockResolvedValue(credential as never);
    const till = signedIn((path) => {
      if (path === 'api/auth/passkeys/list') return { code: 900, data: { passkeys: [] } };
      if (path === 'api/auth/passkeys/registrationOptions') return { code: 900, data: { options: { challenge: 'x' } } };
      return { code: 907, parameter: 'credential', reason: 'invalid' };
    });
    renderWithApp(<PasskeysSection />, { till });
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Name of the passkey/), 'Key');
    await u.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The passkey request was cancelled.');
    await u.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent("Your device's answer could not be verified."),
    );
    expect(create).toHaveBeenCalledTimes(2);
  });

  it('renames, and removes only after confirming', async () => {
    let list = [passkey({ lastUsedAt: '2026-01-03T10:00:00.000Z' })];
    const calls: [string, Record<string, unknown>][] = [];
    const till = signedIn((path, body) => {
      calls.push([path, body]);
      if (path === 'api/auth/passkeys/list') return { code: 900, data: { passkeys: list } };
      if (path === 'api/auth/passkeys/rename') {
        list = [passkey({ name: String(body.name) })];
        return { code: 900, data: { passkey: list[0] } };
      }
      if (path === 'api/auth/passkeys/remove') {
        list = [];
        return { code: 900, data: {} };
      }
      return { code: 904, parameter: 'path' };
    });
    renderWithApp(<PasskeysSection />, { till });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Rename passkey Phone' }));
    const form = screen.getByRole('form', { name: 'Rename passkey Phone' });
    const field = within(form).getByLabelText(/^Name of the passkey/);
    await u.clear(field);
    await u.type(field, 'Old phone');
    await u.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Old phone');
    expect(calls.find(([p]) => p === 'api/auth/passkeys/rename')?.[1]).toMatchObject({ id: 'p1', name: 'Old phone' });

    await u.click(screen.getByRole('button', { name: 'Remove passkey Old phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the passkey “Old phone”?' });
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some(([p]) => p === 'api/auth/passkeys/remove')).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await u.click(screen.getByRole('button', { name: 'Remove passkey Old phone' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No passkeys yet.')).toBeInTheDocument();
  });

  it('explains, instead of offering to add one, where the browser has no WebAuthn', async () => {
    vi.spyOn(webauthn, 'supported').mockReturnValue(false);
    renderWithApp(<PasskeysSection />, {
      till: signedIn(() => ({ code: 900, data: { passkeys: [passkey()] } })),
    });
    expect(await screen.findByText('Phone')).toBeInTheDocument();
    expect(screen.getByText(/This browser cannot use passkeys here/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});

describe('DeleteAccount', () => {
  beforeEach(() => {
    vi.restoreAllMocks();
    vi.spyOn(webauthn, 'supported').mockReturnValue(true);
  });

  it('explains what is kept and erased, and asks for the typed address before calling the server', async () => {
    const calls: string[] = [];
    const onDeleted = vi.fn();
    const till = signedIn((path) => (calls.push(path), { code: 900, data: { passkeys: [] } }));
    renderWithApp(<DeleteAccount user={user} onDeleted={onDeleted} />, { till });
    expect(screen.getByText(/Your orders and credit records/)).toBeInTheDocument();
    expect(screen.getByText(/uploaded files, passkeys and every session/)).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Type your e-mail address/), 'someone@else.test');
    await u.type(screen.getByLabelText(/^Current password/), 'my password');
    await u.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('This is not the e-mail address of the account.')).toBeInTheDocument();
    expect(calls).not.toContain('api/auth/deleteAccount');
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it('shows a wrong password on its field, then deletes and ends the session', async () => {
    const bodies: Record<string, unknown>[] = [];
    const onDeleted = vi.fn();
    const till = signedIn((path, body) => {
      if (path === 'api/auth/passkeys/list') return { code: 900, data: { passkeys: [] } };
      bodies.push(body);
      return body.password === 'right one' ? { code: 900 } : { code: 902 };
    });
    renderWithApp(<DeleteAccount user={user} onDeleted={onDeleted} />, { till });
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Type your e-mail address/), ' ADA@example.test ');
    await u.type(screen.getByLabelText(/^Current password/), 'wrong');
    await u.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
    expect(till.session.token).toBeTruthy();

    await u.clear(screen.getByLabelText(/^Current password/));
    await u.type(screen.getByLabelText(/^Current password/), 'right one');
    await u.click(screen.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(bodies.at(-1)).toMatchObject({ confirm: 'ADA@example.test', password: 'right one' });
    expect(till.session.token).toBeNull();
  });

  it('confirms with a passkey instead of the password when the account has one', async () => {
    const get = vi.spyOn(webauthn, 'get').mockResolvedValue(credential as never);
    const bodies: [string, Record<string, unknown>][] = [];
    const onDeleted = vi.fn();
    const till = signedIn((path, body) => {
      bodies.push([path, body]);
      if (path === 'api/auth/passkeys/list') return { code: 900, data: { passkeys: [passkey()] } };
      if (path === 'api/auth/passkeys/confirmOptions') return { code: 900, data: { options: { challenge: 'c' } } };
      return { code: 900 };
    });
    renderWithApp(<DeleteAccount user={user} onDeleted={onDeleted} />, { till });
    const u = userEvent.setup();
    await u.click(await screen.findByLabelText('One of my passkeys'));
    expect(screen.queryByLabelText(/^Current password/)).toBeNull();
    await u.type(screen.getByLabelText(/^Type your e-mail address/), user.email);
    await u.click(screen.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(get).toHaveBeenCalledWith({ challenge: 'c' });
    expect(bodies.find(([p]) => p === 'api/auth/deleteAccount')?.[1]).toMatchObject({
      confirm: user.email,
      passkey: credential,
    });
  });
});
