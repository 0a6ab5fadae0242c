import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createTill, memoryStorage } from '@till/client';
import { StepUpDialog } from '@/components/step-up-dialog';
import { StepUpPrompt } from '@/lib/step-up';
import { renderWithApp, signInFake } from '@/test/render';
import { TwoFactor } from './two-factor';

const CODES = Array.from({ length: 10 }, (_, i) => `wxyz-efgh-jkmn-pq${String.fromCharCode(97 + i)}${i + 2}`);
const status = (left: number) => ({
  code: 900,
  data: { totp: { enabled: true, enabledAt: '2026-03-01T10:00:00.000Z', recoveryCodesLeft: left } },
});

/** A signed-in app whose server wants a step-up before new codes, as the real one does. */
function setUp() {
  const prompt = new StepUpPrompt();
  const calls: [string, Record<string, unknown>][] = [];
  let proven = false;
  let left = 3;
  const till = createTill({
    storage: memoryStorage(),
    stepUp: prompt.ask,
    adapter: async (config) => {
      const body = JSON.parse(String(config.data ?? '{}')) as Record<string, unknown>;
      const path = String(config.url);
      calls.push([path, body]);
      let data: unknown = { code: 904, parameter: 'path' };
      if (path === 'api/auth/secondFactor/status') data = status(left);
      if (path === 'api/auth/stepUp') {
        proven = body.password === 'a long passphrase' && body.code === '123456';
        data = proven ? { code: 900, data: { validFor: 300 } } : { code: 907, parameter: 'code', reason: 'invalid' };
      }
      if (path === 'api/auth/totp/recoveryCodes') {
        if (proven) left = 10;
        data = proven ? { code: 900, data: { recoveryCodes: CODES } } : { code: 914, within: 300 };
      }
      return { data, status: 200, statusText: 'OK', headers: {}, config };
    },
  });
  signInFake(till);
  renderWithApp(
    <>
      <TwoFactor />
      <StepUpDialog prompt={prompt} />
    </>,
    { till },
  );
  return { calls };
}

describe('New recovery codes', () => {
  it('asks first, proves the password and code when the server wants it, then shows the new codes once', async () => {
    const { calls } = setUp();
    const u = userEvent.setup();
    expect(await screen.findByText('3 recovery codes left.')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'New recovery codes' }));
    // Backing out of the confirmation asks the server nothing.
    const confirm = await screen.findByRole('dialog', { name: 'Make new recovery codes?' });
    expect(confirm).toHaveTextContent('will stop working at once');
    await u.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some(([p]) => p === 'api/auth/totp/recoveryCodes')).toBe(false);

    await u.click(screen.getByRole('button', { name: 'New recovery codes' }));
    await u.click(
      within(await screen.findByRole('dialog', { name: 'Make new recovery codes?' })).getByRole('button', {
        name: 'Make new codes',
      }),
    );
    const ask = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await u.type(within(ask).getByLabelText('Password'), 'a long passphrase');
    await u.type(within(ask).getByLabelText('Code from your authenticator app'), '000000');
    await u.click(within(ask).getByRole('button', { name: 'Confirm' }));
    expect(await within(ask).findByText('That code is not right.')).toBeInTheDocument();
    await u.type(within(ask).getByLabelText('Password'), 'a long passphrase');
    await u.type(within(ask).getByLabelText('Code from your authenticator app'), '123 456');
    await u.click(within(ask).getByRole('button', { name: 'Confirm' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(screen.getByText(/These are your new recovery codes; the old ones no longer work/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(calls.map(([p]) => p).filter((p) => p !== 'api/auth/secondFactor/status')).toEqual([
      'api/auth/totp/recoveryCodes',
      'api/auth/stepUp',
      'api/auth/stepUp',
      'api/auth/totp/recoveryCodes',
    ]);
    await u.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('10 recovery codes left.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('says nothing was made when the step-up is cancelled', async () => {
    const { calls } = setUp();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    await u.click(
      within(await screen.findByRole('dialog', { name: 'Make new recovery codes?' })).getByRole('button', {
        name: 'Make new codes',
      }),
    );
    const ask = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await u.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(/No new codes were made/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(calls.filter(([p]) => p === 'api/auth/totp/recoveryCodes')).toHaveLength(1);
  });
});
