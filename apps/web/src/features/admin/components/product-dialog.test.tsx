import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminProduct } from '@till/protocol';
import { testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { ProductDialog } from './product-dialog';

function server() {
  const saved: Record<string, unknown>[] = [];
  const paths: string[] = [];
  const till = fakeTill((path, body) => {
    paths.push(path);
    if (path === 'api/admin/products/save') {
      saved.push(body.product as Record<string, unknown>);
      return { code: 900, data: { product: { ...testProduct(), texts: {} } } };
    }
    if (path === 'api/files/upload')
      return {
        code: 900,
        data: {
          files: [
            {
              id: 'img42',
              name: 'tea.png',
              size: 70,
              mime: 'image/png',
              url: '/api/files/download/img42',
              createdAt: '2026-01-01T00:00:00.000Z',
              public: true,
            },
          ],
        },
      };
    return { code: 904, parameter: 'path' };
  });
  signInFake(till, 9);
  return { till, saved, paths };
}

describe('ProductDialog', () => {
  it('edits the texts per language and saves the German ones as a translation', async () => {
    const product: AdminProduct = {
      ...testProduct({ title: 'Tea', description: 'A cup of tea.' }),
      texts: { de: { title: 'Tee', description: '' } },
    };
    const { till, saved } = server();
    renderWithApp(<ProductDialog product={product} open onClose={() => undefined} />, { till });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Edit product' });
    expect(within(dialog).getByRole('textbox', { name: /^Title/ })).toHaveValue('Tea');
    await user.click(within(dialog).getByRole('tab', { name: 'German' }));
    const panel = within(dialog).getByRole('tabpanel', { name: 'German' });
    expect(within(panel).getByRole('textbox', { name: 'Title (German)' })).toHaveValue('Tee');
    await user.type(within(panel).getByRole('textbox', { name: 'Description (German)' }), 'Eine Tasse Tee.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      title: 'Tea',
      description: 'A cup of tea.',
      texts: { de: { title: 'Tee', description: 'Eine Tasse Tee.' } },
    });
  });

  it('uploads an image through the files service, shows it, and stores its address', async () => {
    const { till, saved, paths } = server();
    renderWithApp(<ProductDialog product={null} open onClose={() => undefined} />, { till });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'New product' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Alias/ }), 'tea');
    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Tea');
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'tea.png', { type: 'image/png' });
    await user.upload(within(dialog).getByTestId('product-image-input'), file);
    expect(await within(dialog).findByText('Image uploaded. Save the product to keep it.')).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'Preview of the product image' })).toHaveAttribute(
      'src',
      '/api/files/download/img42',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Image address' })).toHaveValue('/api/files/download/img42');
    expect(paths).toContain('api/files/upload');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ alias: 'tea', imageUrl: '/api/files/download/img42', texts: {} });
  });

  it('asks a subscription for its period with the picker, and leaves it out of other types', async () => {
    const { till, saved } = server();
    renderWithApp(<ProductDialog product={null} open onClose={() => undefined} />, { till });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'New product' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Alias/ }), 'quarterly');
    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Quarterly');
    expect(within(dialog).queryByRole('group', { name: 'Subscription period' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Subscription' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    // No period yet: the picker says so and nothing is sent.
    expect(await within(dialog).findByText(/required/i)).toBeInTheDocument();
    expect(saved).toHaveLength(0);
    await user.click(within(dialog).getByRole('combobox', { name: 'Subscription period' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Every 3 months' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ type: 2, grants: { period: 'P3M' } });
  });
});
