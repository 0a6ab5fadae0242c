import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeTill, renderWithApp } from '@/test/render';
import { parsePeriod, PeriodPicker, toPeriod } from './period-picker';

function Harness({ initial, seen }: { initial: string; seen: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <PeriodPicker
        value={value}
        onChange={(p) => {
          seen.push(p);
          setValue(p);
        }}
      />
      <output aria-label="Stored period">{value}</output>
    </>
  );
}

function renderPicker(initial = '') {
  const seen: string[] = [];
  renderWithApp(<Harness initial={initial} seen={seen} />, { till: fakeTill(() => ({ code: 904 })) });
  return seen;
}

const stored = () => screen.getByRole('status', { name: 'Stored period' });

async function choose(user: ReturnType<typeof userEvent.setup>, label: RegExp, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
}

describe('PeriodPicker', () => {
  it('turns counts and units into the ISO periods the server stores, and back', () => {
    expect(toPeriod('3', 'M')).toBe('P3M');
    expect(toPeriod(10, 'D')).toBe('P10D');
    for (const bad of ['0', '10000', '1.5', '', 'x']) expect(toPeriod(bad, 'W'), bad).toBe('');
    expect(parsePeriod('P2W')).toEqual({ count: 2, unit: 'W' });
    expect(parsePeriod('P0M')).toBeNull();
    expect(parsePeriod('1M')).toBeNull();
  });

  it('offers monthly, every 3 months, yearly and weekly by name', async () => {
    const user = userEvent.setup();
    const seen = renderPicker();
    await choose(user, /Subscription period/, 'Every 3 months');
    expect(stored()).toHaveTextContent('P3M');
    await choose(user, /Subscription period/, 'Yearly');
    await choose(user, /Subscription period/, 'Weekly');
    await choose(user, /Subscription period/, 'Monthly');
    expect(seen).toEqual(['P3M', 'P1Y', 'P1W', 'P1M']);
  });

  it('makes a custom period of a number and a unit, and says when the number will not do', async () => {
    const user = userEvent.setup();
    renderPicker('P1M');
    await choose(user, /Subscription period/, 'Custom…');
    const count = screen.getByRole('textbox', { name: 'Every' });
    await user.clear(count);
    await user.type(count, '10');
    await choose(user, /Unit/, 'days');
    expect(stored()).toHaveTextContent('P10D');
    await user.clear(count);
    await user.type(count, '0');
    expect(stored()).toHaveTextContent(/^$/);
    expect(screen.getByText('A whole number from 1 to 9999')).toBeVisible();
  });

  it('opens a stored period that is no preset as custom, with its number and unit', () => {
    renderPicker('P2W');
    expect(screen.getByRole('textbox', { name: 'Every' })).toHaveValue('2');
    expect(screen.getByRole('combobox', { name: /Unit/ })).toHaveTextContent('weeks');
  });
});
