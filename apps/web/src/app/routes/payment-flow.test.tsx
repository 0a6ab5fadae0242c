import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { Order } from '@till/protocol';
import { CartStore } from '@/features/cart/hooks/cart-store';
import { setScreen, testOrder, testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { CheckoutRoute } from './cart';
import { OrderRoute } from './orders';

const WIDGET_URL = 'https://api.paymentwall.test/api/subscription?key=k&sign=s';
const pro = testProduct();

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

/** The checkout and order pages, as the router shows them, on a server holding order o1. */
function renderPages(status: () => Order['status'], cart: CartStore, route: string) {
  const till = fakeTill((path) => {
    if (path === 'api/store/getCheckoutForm')
      return {
        code: 900,
        data: {
          products: [pro],
          total: pro.price,
          providers: [{ provider: 'paywall', url: '' }],
          app: { webPayments: 'hidden', stores: [] },
        },
      };
    if (path === 'api/store/doCheckout')
      return {
        code: 900,
        data: {
          order: testOrder({ items: [{ ...testOrder().items[0]!, productId: 'pro-unlock' }], provider: 'paywall' }),
          payment: { provider: 'paywall', url: WIDGET_URL },
        },
      };
    if (path === 'api/store/checkoutPreview') {
      const price = pro.price!;
      return {
        code: 900,
        data: {
          lines: [{ productId: pro.id, title: pro.title, quantity: 1, unitPrice: price, amount: price, owned: false }],
          subtotal: price,
          discount: { ...price, amount: 0 },
          total: price,
          coupon: null,
          couponRefused: null,
        },
      };
    }
    if (path === 'api/store/entitlements') return { code: 900, data: { entitlements: [] } };
    if (path === 'api/store/orderStatus') {
      const order = testOrder({ status: status(), provider: 'paywall' });
      return { code: 900, data: { status: order.status, order } };
    }
    return { code: 900, data: { products: [] } };
  });
  signInFake(till);
  renderWithApp(
    <>
      <Routes>
        <Route path="/checkout" element={<CheckoutRoute />} />
        <Route path="/orders/:iden" element={<OrderRoute />} />
      </Routes>
      <Where />
    </>,
    { till, cart, route },
  );
  return till;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('checkout and the order page together', () => {
  it('opens the payment wall over the order page on a wide screen, and empties the cart once paid', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setScreen({ width: 1280, height: 800 });
    let paid = false;
    const cart = new CartStore(null);
    cart.add('pro-unlock');
    renderPages(() => (paid ? 'paid' : 'pending'), cart, '/checkout');
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.click(await screen.findByRole('radio', { name: 'Paymentwall' }));
    await user.click(screen.getByRole('button', { name: 'Buy' }));

    const dialog = await screen.findByRole('dialog', { name: 'Pay with Paymentwall' });
    expect(screen.getByTestId('where')).toHaveTextContent('/orders/o1');
    expect(within(dialog).getByTitle('Paymentwall payment page')).toHaveAttribute('src', WIDGET_URL);
    // Not paid yet: the cart waits.
    expect(cart.snapshot).toEqual([{ id: 'pro-unlock', quantity: 1 }]);

    paid = true;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(await screen.findByText('Paid. You now have:')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cart.snapshot).toEqual([]);
  });

  it("keeps a cart that is not the paid order's", async () => {
    const cart = new CartStore(null);
    cart.add('pro-unlock');
    cart.checkedOut('o1');
    cart.add('monthly');
    renderPages(() => 'paid', cart, '/orders/o1');
    expect(await screen.findByText('Paid. You now have:')).toBeInTheDocument();
    expect(cart.snapshot).toHaveLength(2);
  });

  it("puts a failed order's items back in the cart and goes to checkout", async () => {
    const cart = new CartStore(null);
    renderPages(() => 'failed', cart, '/orders/o1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/checkout'));
    expect(cart.snapshot).toEqual([{ id: 'credits-100', quantity: 1 }]);
  });
});
