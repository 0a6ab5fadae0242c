import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createTill, memoryStorage } from '@till/client';
import { StepUpDialog } from '@/components/step-up-dialog';
import { StepUpPrompt } from '@/lib/step-up';
import { renderWithApp, signInFake } from '@/test/render';
import { PasskeysSection } from './passkeys-section';

const passkey = {
  id: 'p1',
  name: 'Phone',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastUsedAt: null,
  transports: ['internal'],
  backedUp: false,
};

describe('PasskeysSection with the step-up dialog', () => {
  it('asks for the password when the server wants a recent proof, then the change goes through', async () => {
    const prompt = new StepUpPrompt();
    const calls: [string, Record<string, unknown>][] = [];
    let proven = false;
    let list = [passkey];
    const till = createTill({
      storage: memoryStorage(),
      stepUp: prompt.ask,
      adapter: async (config) => {
        const body = JSON.parse(String(config.data ?? '{}')) as Record<string, unknown>;
        const path = String(config.url);
        calls.push([path, body]);
        let data: unknown = { code: 904, parameter: 'path' };
        if (path === 'api/auth/passkeys/list') data = { code: 900, data: { passkeys: list } };
        if (path === 'api/auth/stepUp') {
          proven = body.password === 'a long passphrase';
          data = proven ? { code: 900, data: { validFor: 300 } } : { code: 902 };
        }
        if (path === 'api/auth/passkeys/remove') {
          if (proven) list = [];
          data = proven ? { code: 900, data: {} } : { code: 914, within: 300 };
        }
        return { data, status: 200, statusText: 'OK', headers: {}, config };
      },
    });
    signInFake(till);
    renderWithApp(
      <>
        <PasskeysSection />
        <StepUpDialog prompt={prompt} />
      </>,
      { till },
    );
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Remove passkey Phone' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));

    const ask = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await u.type(within(ask).getByLabelText('Password'), 'not my password');
    await u.click(within(ask).getByRole('button', { name: 'Confirm' }));
    expect(await within(ask).findByText('That password is not right.')).toBeInTheDocument();
    const field = within(ask).getByLabelText('Password');
    await u.clear(field);
    await u.type(field, 'a long passphrase');
    await u.click(within(ask).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('No passkeys yet.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "Confirm it's you" })).toBeNull());
    expect(calls.map(([p]) => p).filter((p) => p !== 'api/auth/passkeys/list')).toEqual([
      'api/auth/passkeys/remove',
      'api/auth/stepUp',
      'api/auth/stepUp',
      'api/auth/passkeys/remove',
    ]);
  });
});
