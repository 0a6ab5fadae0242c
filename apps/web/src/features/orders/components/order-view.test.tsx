import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProductType, type Order, type Provider } from '@till/protocol';
import { goToPayment } from '@/lib/payment';
import { setScreen, testOrder } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake, testI18nGerman } from '@/test/render';
import { OrderView } from './order-view';

// Leaving for the provider's page is a full navigation, which jsdom cannot do: it is recorded instead.
vi.mock('@/lib/payment', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  goToPayment: vi.fn(),
}));

const order = (status: Order['status'], provider: Provider = 'default'): Order => testOrder({ status, provider });
const STRIPE_URL = 'https://checkout.stripe.test/c/pay/cs_test_1';
const WIDGET_URL = 'https://api.paymentwall.test/api/subscription?key=k&sign=s';
const catalog = {
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

/**
 * A server whose order o1 has the status `status()` answers, on the routes card, paywall and
 * default; doCheckout answers each route's page, or what `checkout` gives.
 */
function server(status: () => Order['status'], provider: Provider = 'default', checkout?: () => unknown) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  let current = provider;
  const till = fakeTill((path, body) => {
    calls.push({ path, body });
    if (path === 'api/store/orderStatus')
      return { code: 900, data: { status: status(), order: order(status(), current) } };
    if (path === 'api/store/getCheckoutForm')
      return {
        code: 900,
        data: {
          products: [],
          total: null,
          providers: [
            { provider: 'card', url: '' },
            { provider: 'paywall', url: '' },
            { provider: 'default', form: { action: '/x', method: 'POST', fields: {} } },
          ],
          app: { webPayments: 'hidden', stores: [] },
        },
      };
    if (path === 'api/store/doCheckout') {
      if (checkout) return checkout();
      current = (body.provider as Provider | undefined) ?? current;
      const payment =
        current === 'card'
          ? { provider: current, url: STRIPE_URL }
          : current === 'paywall'
            ? { provider: current, url: WIDGET_URL }
            : { provider: current, form: { action: '/api/pay/default/o1', method: 'GET', fields: {} } };
      return { code: 900, data: { order: order('pending', current), payment } };
    }
    if (path === 'api/store/cancelOrder') return { code: 900, data: { order: order('cancelled', current) } };
    return catalog;
  });
  signInFake(till);
  return { till, calls };
}

afterEach(() => {
  vi.useRealTimers();
  vi.mocked(goToPayment).mockClear();
});

describe('OrderView', () => {
  it('polls every 2 s until the order is final, then says what was granted', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let polls = 0;
    const { till } = server(() => (polls >= 3 ? 'paid' : 'pending'));
    const counting = till.store.orderStatus.bind(till.store);
    till.store.orderStatus = (iden) => {
      polls += 1;
      return counting(iden);
    };
    const onPaid = vi.fn();
    renderWithApp(<OrderView iden="o1" onPaid={onPaid} />, { till });
    expect(await screen.findByText('Waiting for payment')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(polls).toBe(2);
    expect(screen.getByText('Waiting for payment')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(await screen.findByText('Paid. You now have:')).toBeInTheDocument();
    expect(screen.getByText('100 credits: 100 credits added')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(6_000);
    });
    // Final: the poller has dropped the order, and the page said once that it is paid.
    expect(polls).toBe(3);
    expect(till.poller.size).toBe(0);
    expect(onPaid).toHaveBeenCalledTimes(1);
    expect(onPaid).toHaveBeenCalledWith(expect.objectContaining({ iden: 'o1', status: 'paid' }));
  });

  it('gives up a pending order on request, after asking', async () => {
    const { till, calls } = server(() => 'pending');
    renderWithApp(<OrderView iden="o1" />, { till });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel the order' }));
    // Kept when the buyer backs out: nothing was sent.
    const ask = await screen.findByRole('dialog', { name: 'Cancel this order?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.map((c) => c.path)).not.toContain('api/store/cancelOrder');
    await user.click(screen.getByRole('button', { name: 'Cancel the order' }));
    const again = await screen.findByRole('dialog', { name: 'Cancel this order?' });
    await user.click(within(again).getByRole('button', { name: 'Cancel the order' }));
    expect(await screen.findByText('You cancelled this order. Nothing was charged.')).toBeInTheDocument();
    expect(screen.queryByText('Paid with')).not.toBeInTheDocument();
    expect(calls.map((c) => c.path)).toContain('api/store/cancelOrder');
    expect(till.poller.size).toBe(0);
  });

  it.each([
    ['failed', 'The payment did not go through: it was declined, or the time to pay ran out. Nothing was charged.'],
    ['cancelled', 'You cancelled this order. Nothing was charged.'],
  ] as const)('says a %s order was not paid and offers to try again from the cart', async (status, text) => {
    const { till } = server(() => status, 'card');
    const onOrderAgain = vi.fn();
    renderWithApp(<OrderView iden="o1" onOrderAgain={onOrderAgain} />, { till });
    expect(await screen.findByText(text)).toBeInTheDocument();
    // Nothing was paid: no "Paid with".
    expect(screen.queryByText('Paid with')).not.toBeInTheDocument();
    expect(
      screen.getByText('Put its items back in your cart and check out again, paying the same way or another.'),
    ).toBeInTheDocument();
    // A final order cannot be paid again as it is: only a new checkout can.
    expect(screen.queryByRole('button', { name: 'Pay now' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(onOrderAgain).toHaveBeenCalledWith(expect.objectContaining({ iden: 'o1', status }));
  });

  it('pays a pending order again the same way, or another', async () => {
    const { till, calls } = server(() => 'pending', 'default');
    renderWithApp(<OrderView iden="o1" />, { till });
    expect(
      await screen.findByText('This order is not paid yet. Pay now to get it, or cancel it if you changed your mind.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Paying with')).toBeInTheDocument();
    expect(screen.queryByText('Paid with')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(goToPayment).toHaveBeenCalledTimes(1));
    expect(calls.filter((c) => c.path === 'api/store/doCheckout').map((c) => c.body)).toEqual([
      expect.objectContaining({ pastOrder: 'o1', provider: 'default' }),
    ]);

    await user.click(screen.getByRole('button', { name: 'Pay another way' }));
    const other = screen.getByRole('group', { name: 'Other ways to pay' });
    expect(
      within(other)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['card', 'paywall']);
    expect(within(other).getByRole('radio', { name: 'Card (Stripe)' })).toHaveAccessibleDescription(
      "You'll pay by card on Stripe's secure page and come back here.",
    );
    await user.click(within(other).getByRole('radio', { name: 'Card (Stripe)' }));
    await user.click(screen.getByRole('button', { name: 'Pay with Card (Stripe)' }));
    await waitFor(() => expect(goToPayment).toHaveBeenLastCalledWith({ provider: 'card', url: STRIPE_URL }));
    expect(calls.filter((c) => c.path === 'api/store/doCheckout').at(-1)?.body).toMatchObject({
      pastOrder: 'o1',
      provider: 'card',
    });
    // The order now goes by the route it was moved to.
    expect(await screen.findByText('Card (Stripe)', { selector: 'dd' })).toBeInTheDocument();
  });

  it('says plainly when paying again is declined', async () => {
    const { till } = server(
      () => 'pending',
      'card',
      () => ({ code: 910, reason: 'declined' }),
    );
    renderWithApp(<OrderView iden="o1" />, { till });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Pay now' }));
    expect(await screen.findByText('The payment was declined. Try again, or pay another way.')).toBeInTheDocument();
    expect(goToPayment).not.toHaveBeenCalled();
  });

  it('shows the payment wall in a frame, follows the order meanwhile, and closes the frame once paid', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setScreen({ width: 1280, height: 800 });
    let paid = false;
    const { till } = server(() => (paid ? 'paid' : 'pending'), 'paywall');
    const onPaid = vi.fn();
    renderWithApp(<OrderView iden="o1" framed={{ provider: 'paywall', url: WIDGET_URL }} onPaid={onPaid} />, { till });
    const dialog = await screen.findByRole('dialog', { name: 'Pay with Paymentwall' });
    expect(within(dialog).getByTitle('Paymentwall payment page')).toHaveAttribute('src', WIDGET_URL);
    expect(till.poller.size).toBe(1);
    paid = true;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(await screen.findByText('Paid. You now have:')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('leaves the order pending when the frame is closed, with a way to pay again', async () => {
    setScreen({ width: 1280, height: 800 });
    const { till, calls } = server(() => 'pending', 'paywall');
    renderWithApp(<OrderView iden="o1" framed={{ provider: 'paywall', url: WIDGET_URL }} />, { till });
    const user = userEvent.setup();
    await screen.findByRole('dialog', { name: 'Pay with Paymentwall' });
    await user.click(screen.getByRole('button', { name: 'Close the payment window' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      screen.getByText(
        'The payment window was closed before the payment was confirmed. The order is still open: pay now, pay another way, or cancel it.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Waiting for payment')).toBeInTheDocument();
    expect(till.poller.size).toBe(1);
    // Paying again opens the frame again (a wide screen), on the same order.
    await user.click(screen.getByRole('button', { name: 'Pay now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay with Paymentwall' });
    expect(within(dialog).getByTitle('Paymentwall payment page')).toHaveAttribute('src', WIDGET_URL);
    expect(calls.filter((c) => c.path === 'api/store/doCheckout').map((c) => c.body)).toEqual([
      expect.objectContaining({ pastOrder: 'o1', provider: 'paywall' }),
    ]);
    expect(goToPayment).not.toHaveBeenCalled();
  });

  it('opens the payment wall as a page of its own on a phone', async () => {
    setScreen({ width: 360, height: 640 });
    const { till } = server(() => 'pending', 'paywall');
    renderWithApp(<OrderView iden="o1" />, { till });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(goToPayment).toHaveBeenCalledWith({ provider: 'paywall', url: WIDGET_URL }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('names what a quantity of credit packs gave: how many in all, and how many each', async () => {
    const till = serveOrder(
      testOrder({
        status: 'paid',
        items: [{ ...testOrder().items[0]!, quantity: 2 }],
        subtotal: { amount: 398, currency: 'USD' },
        total: { amount: 398, currency: 'USD' },
      }),
    );
    renderWithApp(<OrderView iden="o1" />, { till });
    expect(await screen.findByText('2 × 100 credits: 200 credits added, 100 each')).toBeInTheDocument();
    expect(screen.queryByText(/\(100 credits\)/)).not.toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Items of the order' });
    expect(within(table).getByText('$1.99')).toBeInTheDocument();
    expect(within(table).getAllByText('$3.98')).toHaveLength(3); // the line, the subtotal and the total
  });

  it('says the same in German', async () => {
    const till = serveOrder(
      testOrder({
        status: 'paid',
        items: [{ ...testOrder().items[0]!, quantity: 2 }],
        subtotal: { amount: 398, currency: 'USD' },
        total: { amount: 398, currency: 'USD' },
      }),
    );
    renderWithApp(<OrderView iden="o1" />, { till, i18n: testI18nGerman() });
    expect(await screen.findByText('2 × 100 credits: 200 Credits gutgeschrieben, je 100')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Artikel der Bestellung' })).toBeInTheDocument();
  });

  it('shows an order paid with credits in credits only: no money price above a total of nothing', async () => {
    const till = serveOrder(
      testOrder({
        status: 'paid',
        provider: 'credits',
        items: [{ ...testOrder().items[0]!, creditPrice: 150, quantity: 2 }],
        subtotal: { amount: 0, currency: 'USD' },
        total: { amount: 0, currency: 'USD' },
        creditsSpent: 300,
      }),
    );
    renderWithApp(<OrderView iden="o1" />, { till });
    const table = await screen.findByRole('table', { name: 'Items of the order' });
    expect(within(table).getByText('150 credits')).toBeInTheDocument();
    expect(within(table).getAllByText('300 credits')).toHaveLength(2); // the line and the total
    expect(screen.queryByText(/\$/)).not.toBeInTheDocument();
    expect(screen.queryByText('Credits spent')).not.toBeInTheDocument();
    expect(screen.getByText('Credits', { selector: 'dd' })).toBeInTheDocument();
  });

  it('does not offer to put back what a declined payment left in the cart, but leads back to the checkout', async () => {
    const { till } = server(() => 'failed', 'card');
    const onOrderAgain = vi.fn();
    renderWithApp(<OrderView iden="o1" onOrderAgain={onOrderAgain} inCart={() => true} />, { till });
    expect(
      await screen.findByText('Its items are still in your cart: check out again, paying the same way or another.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Put its items back in your cart/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go to checkout' }));
    expect(onOrderAgain).toHaveBeenCalledTimes(1);
  });

  it('shows a partly refunded order with each refund: its amount, date and that it was money only', async () => {
    const till = serveOrder(
      testOrder({
        status: 'paid',
        refunds: [
          {
            amount: { amount: 50, currency: 'USD' },
            credits: 0,
            at: '2026-01-02T10:00:00.000Z',
            grantsTakenBack: false,
          },
          {
            amount: { amount: 25, currency: 'USD' },
            credits: 0,
            at: '2026-01-05T10:00:00.000Z',
            grantsTakenBack: false,
          },
        ],
      }),
    );
    renderWithApp(<OrderView iden="o1" />, { till });
    expect(await screen.findByText('Partly refunded')).toBeInTheDocument();
    expect(
      screen.getByText('Part of the money for this order was given back. You keep what you bought.'),
    ).toBeInTheDocument();
    const refunds = screen.getByRole('region', { name: 'Refunds' });
    const items = within(refunds).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent(/^\$0\.50 given back on Jan 2, 2026.*Money only: you keep what you bought$/);
    expect(items[1]).toHaveTextContent(/^\$0\.25 given back on Jan 5, 2026/);
  });

  it('shows a refunded order paid with credits: the credits that came back and what was taken back, in German too', async () => {
    const order = testOrder({
      status: 'refunded',
      provider: 'credits',
      items: [{ ...testOrder().items[0]!, creditPrice: 150, quantity: 2 }],
      subtotal: { amount: 0, currency: 'USD' },
      total: { amount: 0, currency: 'USD' },
      creditsSpent: 300,
      refunds: [
        { amount: { amount: 0, currency: 'USD' }, credits: 300, at: '2026-01-03T10:00:00.000Z', grantsTakenBack: true },
      ],
    });
    const first = renderWithApp(<OrderView iden="o1" />, { till: serveOrder(order) });
    const refunds = await screen.findByRole('region', { name: 'Refunds' });
    expect(within(refunds).getByRole('listitem')).toHaveTextContent(
      /^300 credits given back on Jan 3, 2026.*Taken back: 2 × 100 credits$/,
    );
    expect(screen.getByText('Refunded')).toBeInTheDocument();
    first.unmount();
    renderWithApp(<OrderView iden="o1" />, { till: serveOrder(order), i18n: testI18nGerman() });
    const german = await screen.findByRole('region', { name: 'Erstattungen' });
    expect(within(german).getByRole('listitem')).toHaveTextContent(
      /^300 Credits erstattet am .*Zurückgenommen: 2 × 100 credits$/,
    );
    expect(screen.getByText('Erstattet')).toBeInTheDocument();
  });
});

/** A server that answers `o` for its order and the one-product catalog for the rest. */
function serveOrder(o: Order) {
  const till = fakeTill((path) =>
    path === 'api/store/orderStatus' ? { code: 900, data: { status: o.status, order: o } } : catalog,
  );
  signInFake(till);
  return till;
}
