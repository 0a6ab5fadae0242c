import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeTill, renderWithApp } from '@/test/render';
import { BatchSelect } from './batch-select';

const people = Array.from({ length: 45 }, (_, i) => ({ id: `p${i}`, name: `Person ${i}` }));

describe('BatchSelect', () => {
  it('loads its options 20 at a time as the list is scrolled', async () => {
    const loadBatch = vi.fn(async (offset: number, limit: number) => ({
      items: people.slice(offset, offset + limit),
      total: people.length,
    }));
    renderWithApp(
      <BatchSelect
        label="Person"
        queryKey={['people']}
        loadBatch={loadBatch}
        optionLabel={(p) => p.name}
        optionKey={(p) => p.id}
        value={null}
        onChange={vi.fn()}
      />,
      { till: fakeTill(() => ({ code: 904 })) },
    );
    await userEvent.setup().click(screen.getByRole('combobox', { name: 'Person' }));
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(20));
    expect(loadBatch).toHaveBeenLastCalledWith(0, 20, '');
    const listbox = screen.getByRole('listbox');
    Object.defineProperty(listbox, 'scrollHeight', { value: 1000, configurable: true });
    Object.defineProperty(listbox, 'clientHeight', { value: 300, configurable: true });
    listbox.scrollTop = 700;
    fireEvent.scroll(listbox);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(40));
    expect(loadBatch).toHaveBeenLastCalledWith(20, 20, '');
  });
});
