import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RestoreResult } from '@till/client';
import type { Platform } from '@/platform/types';
import { testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { RestorePurchases } from './restore-purchases';

const shell = vi.hoisted(() => ({ platform: null as unknown }));
vi.mock('@/platform/platform', () => ({
  isNativeShell: () => true,
  getPlatform: async () => shell.platform,
  onResume: () => () => undefined,
}));

function render(store: 'appstore' | null, answer: RestoreResult) {
  const restoreInApp = vi.fn(async () => answer);
  shell.platform = { kind: 'ios', inAppStore: () => store, restoreInApp } as unknown as Platform;
  const till = fakeTill((path) =>
    path === 'api/store/products'
      ? { code: 900, data: { products: [testProduct()] } }
      : { code: 904, parameter: 'path' },
  );
  signInFake(till);
  renderWithApp(<RestorePurchases products={[testProduct()]} />, { till });
  return { restoreInApp, till };
}

describe('RestorePurchases', () => {
  it('restores through the store, each purchase verified again, and names what came back', async () => {
    const { restoreInApp, till } = render('appstore', {
      restored: [
        { productId: 'app.till.pro', transactionId: 't1', verified: true, products: ['pro-unlock'] },
        { productId: 'app.till.old', transactionId: 't2', verified: false, products: [] },
      ],
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Restore purchases' }));
    expect(await screen.findByText(/Restored: Pro unlock\./)).toHaveTextContent(
      'Restored: Pro unlock. One purchase could not be verified.',
    );
    expect(restoreInApp).toHaveBeenCalledWith(till.store);
  });

  it('says when the store has nothing to restore', async () => {
    render('appstore', { restored: [] });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Restore purchases' }));
    expect(await screen.findByText('The store has no purchases of yours to restore.')).toBeInTheDocument();
  });

  it('is not there without an in-app store', async () => {
    render(null, { restored: [] });
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('button', { name: 'Restore purchases' })).not.toBeInTheDocument();
  });
});
