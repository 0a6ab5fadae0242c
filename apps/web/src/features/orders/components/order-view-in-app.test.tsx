import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AppPayments, Order } from '@till/protocol';
import type { Platform } from '@/platform/types';
import { testOrder } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { OrderView } from './order-view';

// A pending web order seen inside the phone app.
vi.mock('@/platform/platform', () => ({
  isNativeShell: () => true,
  getPlatform: async () => ({ kind: 'android', inAppStore: () => null }) as unknown as Platform,
  onResume: () => () => undefined,
}));

function server(app: AppPayments) {
  const order: Order = testOrder({ status: 'pending', provider: 'card' });
  const till = fakeTill((path) => {
    if (path === 'api/store/orderStatus') return { code: 900, data: { status: 'pending', order } };
    if (path === 'api/store/getCheckoutForm')
      return {
        code: 900,
        data: {
          products: [],
          total: null,
          providers: [
            { provider: 'card', url: '' },
            { provider: 'default', url: '' },
          ],
          app,
        },
      };
    return { code: 900, data: { products: [] } };
  });
  signInFake(till);
  return till;
}

describe('a pending web order in the phone app', () => {
  it('is not paid again inside the app while the server hides web payments there, and can be cancelled', async () => {
    const { queryClient } = renderWithApp(<OrderView iden="o1" />, {
      till: server({ webPayments: 'hidden', stores: ['googleplay'] }),
    });
    await screen.findByRole('button', { name: 'Cancel the order' });
    // Once the routes are known (their answer is rendered on the query's next notification):
    await waitFor(() =>
      expect(
        queryClient
          .getQueryCache()
          .findAll({ queryKey: ['store', 'checkout-form'] })
          .some((q) => q.state.status === 'success'),
      ).toBe(true),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByRole('button', { name: 'Pay now' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay another way' })).not.toBeInTheDocument();
  });

  it('is paid again, or another way, when the server shows web payments in the apps', async () => {
    renderWithApp(<OrderView iden="o1" />, { till: server({ webPayments: 'shown', stores: ['googleplay'] }) });
    expect(await screen.findByRole('button', { name: 'Pay now' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Pay another way' })).toBeInTheDocument();
  });
});
