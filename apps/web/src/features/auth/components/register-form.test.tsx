import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeTill, renderWithApp } from '@/test/render';
import { RegisterForm } from './register-form';

async function fillForm(password = 'a long, uncommon passphrase') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Name/), 'Ada');
  await user.type(screen.getByLabelText(/^E-mail/), 'ada@example.test');
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('RegisterForm', () => {
  it('checks the fields with the protocol schema before calling the server', async () => {
    const answer = vi.fn();
    renderWithApp(<RegisterForm onRegistered={vi.fn()} />, { till: fakeTill(answer) });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findAllByText('Required')).toHaveLength(3);
    await userEvent.setup().type(screen.getByLabelText(/^Password/), 'short');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('At least 8 characters')).toBeInTheDocument();
    expect(answer).not.toHaveBeenCalled();
  });

  it.each([
    ['email', 'taken', /^E-mail/, 'Already in use'],
    ['password', 'weak', /^Password/, 'Too common: choose a less guessable password'],
    ['name', 'too_long', /^Name/, 'Too long'],
  ])('shows a 907 on %s (%s) on that field', async (parameter, reason, label, message) => {
    const till = fakeTill(() => ({ code: 907, parameter, reason }));
    renderWithApp(<RegisterForm onRegistered={vi.fn()} />, { till });
    await fillForm();
    const field = screen.getByLabelText(label);
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(message);
  });

  it('sends the interface language and hands the new user on', async () => {
    const bodies: Record<string, unknown>[] = [];
    const user = {
      id: 'u1',
      email: 'ada@example.test',
      name: 'Ada',
      lang: 'en',
      level: 1,
      emailConfirmed: false,
      avatarUrl: null,
      credits: 0,
      createdAt: '',
    };
    const till = fakeTill((_path, body) => {
      bodies.push(body);
      return { code: 900, token: 'tok-0123456789abcdef', expire: 3600, user };
    });
    const onRegistered = vi.fn();
    renderWithApp(<RegisterForm onRegistered={onRegistered} />, { till });
    await fillForm();
    await waitFor(() => expect(onRegistered).toHaveBeenCalledWith(user));
    expect(bodies[0]).toMatchObject({ email: 'ada@example.test', name: 'Ada', lang: 'en' });
    expect(till.session.token).toBe('tok-0123456789abcdef');
  });
});
