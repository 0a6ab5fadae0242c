import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeTill, renderWithApp } from '@/test/render';
import { DataTable } from './data-table';

const rows = Array.from({ length: 23 }, (_, i) => ({ id: `r${i + 1}` }));

describe('DataTable', () => {
  it('shows 10 rows first and offers 5, 10, 15 and All', async () => {
    renderWithApp(
      <DataTable
        label="Things"
        rows={rows}
        rowKey={(r) => r.id}
        columns={[{ key: 'id', header: 'Id', render: (r) => r.id }]}
      />,
      { till: fakeTill(() => ({ code: 904 })) },
    );
    const table = screen.getByRole('table', { name: 'Things' });
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['5', '10', '15', 'All']);
    await user.click(screen.getByRole('option', { name: 'All' }));
    expect(within(table).getAllByRole('row')).toHaveLength(24);
  });

  it('pages through the rows', async () => {
    renderWithApp(
      <DataTable
        label="Things"
        rows={rows}
        rowKey={(r) => r.id}
        columns={[{ key: 'id', header: 'Id', render: (r) => r.id }]}
      />,
      { till: fakeTill(() => ({ code: 904 })) },
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('r11')).toBeInTheDocument();
    expect(screen.queryByText('r10')).not.toBeInTheDocument();
  });
});
