import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProductType, type Order } from '@till/protocol';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { OrderView } from './order-view';

const order = (status: Order['status']): Order => ({
  iden: 'o1',
  status,
  items: [
    {
      productId: 'credits-100',
      alias: 'credits-100',
      title: '100 credits',
      price: { amount: 199, currency: 'USD' },
      creditPrice: null,
      quantity: 1,
    },
  ],
  subtotal: { amount: 199, currency: 'USD' },
  discount: { amount: 0, currency: 'USD' },
  total: { amount: 199, currency: 'USD' },
  creditsSpent: 0,
  couponCode: null,
  provider: 'default',
  createdAt: '2026-01-01T00:00:00.000Z',
  paidAt: status === 'paid' ? '2026-01-01T00:01:00.000Z' : null,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('OrderView', () => {
  it('polls every 2 s until the order is final, then says what was granted', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let polls = 0;
    const till = fakeTill((path) => {
      if (path === 'api/store/orderStatus') {
        polls += 1;
        const status = polls >= 3 ? 'paid' : 'pending';
        return { code: 900, data: { status, order: order(status) } };
      }
      return {
        code: 900,
        data: {
          products: [
            {
              id: 'credits-100',
              alias: 'credits-100',
              title: '100 credits',
              description: '',
              type: ProductType.Consumable,
              price: null,
              creditPrice: null,
              grants: { credits: 100 },
              imageUrl: null,
              storeIds: {},
              active: true,
            },
          ],
        },
      };
    });
    signInFake(till);
    renderWithApp(<OrderView iden="o1" />, { till });
    expect(await screen.findByText('Pending')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(polls).toBe(2);
    expect(screen.getByText('Pending')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(await screen.findByText('Paid. You now have:')).toBeInTheDocument();
    expect(screen.getByText('100 credits (100 credits)')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(6_000);
    });
    // Final: the poller has dropped the order.
    expect(polls).toBe(3);
    expect(till.poller.size).toBe(0);
  });

  it('gives up a pending order on request', async () => {
    const paths: string[] = [];
    const till = fakeTill((path) => {
      paths.push(path);
      if (path === 'api/store/orderStatus') return { code: 900, data: { status: 'pending', order: order('pending') } };
      if (path === 'api/store/cancelOrder') return { code: 900, data: { order: order('cancelled') } };
      return { code: 900, data: { products: [] } };
    });
    signInFake(till);
    renderWithApp(<OrderView iden="o1" />, { till });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Cancel the order' }));
    expect(await screen.findByText('This order was cancelled.')).toBeInTheDocument();
    expect(paths).toContain('api/store/cancelOrder');
    expect(till.poller.size).toBe(0);
  });
});
