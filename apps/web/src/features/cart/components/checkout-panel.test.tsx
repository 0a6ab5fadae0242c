import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Provider } from '@till/protocol';
import { goToPayment } from '@/lib/payment';
import { setScreen, testOrder, testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { getPlatform } from '@/platform/platform';
import { CartStore } from '../hooks/cart-store';
import { CheckoutPanel } from './checkout-panel';

// Leaving for the provider's page is a full navigation, which jsdom cannot do: it is recorded instead.
vi.mock('@/lib/payment', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  goToPayment: vi.fn(),
}));

afterEach(() => {
  vi.mocked(goToPayment).mockClear();
});

const pro = testProduct();
const STRIPE_URL = 'https://checkout.stripe.test/c/pay/cs_test_1';
const WIDGET_URL = 'https://api.paymentwall.test/api/subscription?key=k&sign=s';

const offers: Record<string, unknown> = {
  default: { provider: 'default', form: { action: '/x', method: 'POST', fields: {} } },
  card: { provider: 'card', url: '' },
  paywall: { provider: 'paywall', url: '' },
};

const usd = (amount: number) => ({ amount, currency: 'USD' });
const WELCOME10 = {
  code: 'WELCOME10',
  kind: 'discount',
  percentOff: 10,
  amountOff: null,
  grantCredits: null,
  grantProducts: null,
  startsAt: null,
  endsAt: null,
  appliesTo: 'all',
  minTotal: null,
};

/** The server's checkout summary of the one-line cart: WELCOME10 takes 10 % off, any other code is refused. */
function previewOf(body: Record<string, unknown>, options: { owned?: boolean; refuse?: string } = {}) {
  const code = typeof body.couponCode === 'string' ? body.couponCode : '';
  const accepted = code === 'WELCOME10' && !options.refuse;
  const discount = accepted ? 50 : 0;
  return {
    code: 900,
    data: {
      lines: [
        {
          productId: 'pro-unlock',
          title: 'Pro unlock',
          quantity: 1,
          unitPrice: usd(499),
          amount: usd(499),
          owned: Boolean(options.owned),
        },
      ],
      subtotal: usd(499),
      discount: usd(discount),
      total: usd(499 - discount),
      coupon: accepted ? WELCOME10 : null,
      couponRefused: code && !accepted ? (options.refuse ?? 'unknown') : null,
    },
  };
}

function server(
  coupon: (code: string) => unknown,
  routes: string[] = ['default'],
  checkout: (body: Record<string, unknown>) => unknown = () => ({ code: 904, parameter: 'path' }),
  preview: (body: Record<string, unknown>) => unknown = (body) => previewOf(body),
) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  const till = fakeTill((path, body) => {
    calls.push({ path, body });
    if (path === 'api/store/getCheckoutForm') {
      return {
        code: 900,
        data: {
          products: [pro],
          total: pro.price,
          providers: routes.map((r) => offers[r]),
          app: { webPayments: 'hidden', stores: [] },
        },
      };
    }
    if (path === 'api/store/getCoupon') return coupon(String(body.couponCode));
    if (path === 'api/store/checkoutPreview') return preview(body);
    if (path === 'api/store/doCheckout') return checkout(body);
    if (path === 'api/auth/payWithCredits')
      return { code: 900, data: { order: testOrder({ status: 'paid', provider: 'credits' }), balance: 0 } };
    return { code: 904, parameter: 'path' };
  });
  const cart = new CartStore(null);
  cart.add('pro-unlock');
  return { till, cart, calls };
}

/** A doCheckout that makes order o1 and answers the provider's page for the route asked for. */
function startsPayment(body: Record<string, unknown>) {
  const provider = body.provider as Provider;
  const payment =
    provider === 'card'
      ? { provider, url: STRIPE_URL }
      : provider === 'paywall'
        ? { provider, url: WIDGET_URL }
        : { provider, form: { action: '/api/pay/default/o1', method: 'GET', fields: {} } };
  return { code: 900, data: { order: testOrder({ provider }), payment } };
}

const noCoupon = () => ({ code: 908, reason: 'unknown' });

/** Signs in, renders the panel, picks the route and presses Buy. */
async function buyWith(
  route: string,
  routes: string[],
  checkout: (body: Record<string, unknown>) => unknown = startsPayment,
) {
  const env = server(noCoupon, routes, checkout);
  signInFake(env.till);
  const onPaid = vi.fn();
  const onPayInFrame = vi.fn();
  renderWithApp(
    <CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={onPaid} onPayInFrame={onPayInFrame} onPaidInApp={vi.fn()} />,
    {
      till: env.till,
      cart: env.cart,
    },
  );
  const user = userEvent.setup();
  await user.click(await screen.findByRole('radio', { name: route }));
  await user.click(screen.getByRole('button', { name: 'Buy' }));
  return { ...env, onPaid, onPayInFrame };
}

describe('CheckoutPanel', () => {
  it("applies a coupon and shows the server's summary: quantity, discount line and the total charged", async () => {
    const { till, cart, calls } = server(noCoupon);
    signInFake(till);
    renderWithApp(
      <CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={vi.fn()} onPayInFrame={vi.fn()} onPaidInApp={vi.fn()} />,
      { till, cart },
    );
    const user = userEvent.setup();
    expect(await screen.findByText('Order summary')).toBeInTheDocument();
    expect(await screen.findByTestId('checkout-total')).toHaveTextContent('$4.99');
    await user.type(screen.getByLabelText('Coupon code'), 'welcome10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('10% off')).toBeInTheDocument();
    expect(screen.getByText('Discount (WELCOME10)')).toBeInTheDocument();
    expect(screen.getByText('−$0.50')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('checkout-total')).toHaveTextContent('$4.49'));
    expect(calls.filter((c) => c.path === 'api/store/checkoutPreview').at(-1)?.body).toMatchObject({
      products: 'pro-unlock',
      couponCode: 'WELCOME10',
    });
    // Removed, the summary is the full price again.
    await user.click(screen.getByRole('button', { name: 'Remove coupon WELCOME10' }));
    await waitFor(() => expect(screen.getByTestId('checkout-total')).toHaveTextContent('$4.99'));
    expect(screen.queryByText('Discount (WELCOME10)')).not.toBeInTheDocument();
  });

  it('names the reason a coupon is refused and what to do, and buys without it', async () => {
    const env = server(noCoupon, ['default'], startsPayment, (body) => previewOf(body, { refuse: 'expired' }));
    signInFake(env.till);
    renderWithApp(
      <CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={vi.fn()} onPayInFrame={vi.fn()} onPaidInApp={vi.fn()} />,
      { till: env.till, cart: env.cart },
    );
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Coupon code'), 'WELCOME10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('This coupon has expired. Remove it to buy without a coupon.')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-total')).toHaveTextContent('$4.99');
    // Not a silently disabled button: what is shown is what is bought.
    await user.click(screen.getByRole('button', { name: 'Buy' }));
    await waitFor(() => expect(env.calls.some((c) => c.path === 'api/store/doCheckout')).toBe(true));
    expect(env.calls.find((c) => c.path === 'api/store/doCheckout')?.body.couponCode).toBe('');
  });

  it('advises what the cart can do for a coupon it does not meet yet: more in it, other products, later', async () => {
    for (const [refuse, text] of [
      ['min_total', "The total is below this coupon's minimum. Add more to the cart, or remove the coupon."],
      ['not_applicable', 'This coupon does not apply to these products. Remove it, or add a product it applies to.'],
      ['not_started', 'This coupon is not valid yet. Use it later, or remove it to buy now without it.'],
    ] as const) {
      const env = server(noCoupon, ['default'], startsPayment, (body) => previewOf(body, { refuse }));
      signInFake(env.till);
      const view = renderWithApp(
        <CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={vi.fn()} onPayInFrame={vi.fn()} onPaidInApp={vi.fn()} />,
        { till: env.till, cart: env.cart },
      );
      const user = userEvent.setup();
      await user.type(await screen.findByLabelText('Coupon code'), 'BIGSPEND');
      await user.click(screen.getByRole('button', { name: 'Apply' }));
      expect(await screen.findByText(text)).toBeInTheDocument();
      view.unmount();
    }
  });

  it('says a coupon the shop switched off can no longer be used', async () => {
    const env = server(noCoupon, ['default'], startsPayment, (body) => previewOf(body, { refuse: 'inactive' }));
    signInFake(env.till);
    renderWithApp(
      <CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={vi.fn()} onPayInFrame={vi.fn()} onPaidInApp={vi.fn()} />,
      { till: env.till, cart: env.cart },
    );
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Coupon code'), 'SPRING');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText(
        'This coupon has been switched off and can no longer be used. Remove it to buy without a coupon.',
      ),
    ).toBeInTheDocument();
  });

  it('flags a product the buyer owns, says why Buy waits, and takes it out of the cart', async () => {
    const env = server(noCoupon, ['default'], startsPayment, (body) => previewOf(body, { owned: true }));
    signInFake(env.till);
    renderWithApp(
      <CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={vi.fn()} onPayInFrame={vi.fn()} onPaidInApp={vi.fn()} />,
      { till: env.till, cart: env.cart },
    );
    expect(await screen.findByText('You already own Pro unlock.')).toBeInTheDocument();
    // Said once on screen; the disabled Buy tells a screen reader why.
    expect(screen.getByRole('button', { name: 'Buy' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Buy' })).toHaveAccessibleDescription(
      'Remove what you already own from the cart to buy the rest.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove Pro unlock' }));
    expect(env.cart.snapshot).toEqual([]);
  });

  it('says what to do when the server refuses an owned product at checkout', async () => {
    await buyWith('Sandbox checkout', ['default'], () => ({ code: 907, parameter: 'products', reason: 'owned' }));
    expect(
      await screen.findByText('You already own something in this cart. Remove it from the cart and buy the rest.'),
    ).toBeInTheDocument();
  });

  it('offers the routes of the checkout form, and credits when every product has a credit price', async () => {
    const { till, cart } = server(() => ({ code: 908, reason: 'unknown' }));
    renderWithApp(
      <CheckoutPanel
        signedIn={false}
        onNeedSignIn={vi.fn()}
        onPaid={vi.fn()}
        onPayInFrame={vi.fn()}
        onPaidInApp={vi.fn()}
      />,
      {
        till,
        cart,
      },
    );
    expect(await screen.findByRole('radio', { name: 'Sandbox checkout' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Credits (500 credits)' })).not.toBeChecked();
  });

  it('asks an anonymous buyer to sign in and keeps the purchase waiting, without checking the coupon', async () => {
    const { till, cart, calls } = server(() => ({ code: 908, reason: 'unknown' }));
    const onNeedSignIn = vi.fn();
    renderWithApp(
      <CheckoutPanel
        signedIn={false}
        onNeedSignIn={onNeedSignIn}
        onPaid={vi.fn()}
        onPayInFrame={vi.fn()}
        onPaidInApp={vi.fn()}
      />,
      { till, cart },
    );
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Coupon code'), 'WELCOME10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The coupon is checked once you sign in.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Buy' }));
    expect(onNeedSignIn).toHaveBeenCalled();
    expect(await screen.findByText('Sign in and your purchase carries on.')).toBeInTheDocument();
    // Held by the SDK until a login: nothing but the checkout form went out.
    await waitFor(() => expect(till.queue.size).toBe(1));
    expect(calls.map((c) => c.path)).not.toContain('api/store/doCheckout');
    expect(calls.map((c) => c.path)).not.toContain('api/store/getCoupon');
    expect(calls.map((c) => c.path)).not.toContain('api/store/checkoutPreview');
  });

  it('offers the payment route chosen last time first', async () => {
    await (await getPlatform()).writeConfig('checkout', { provider: 'credits' });
    const { till, cart } = server(() => ({ code: 908, reason: 'unknown' }));
    renderWithApp(
      <CheckoutPanel
        signedIn={false}
        onNeedSignIn={vi.fn()}
        onPaid={vi.fn()}
        onPayInFrame={vi.fn()}
        onPaidInApp={vi.fn()}
      />,
      {
        till,
        cart,
      },
    );
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Credits (500 credits)' })).toBeChecked());
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Sandbox checkout' }));
    await waitFor(async () =>
      expect(await (await getPlatform()).readConfig('checkout', {})).toEqual({ provider: 'default' }),
    );
  });

  it('offers every route that is on, each with its name and what happens next', async () => {
    const { till, cart } = server(noCoupon, ['card', 'paywall', 'default']);
    renderWithApp(
      <CheckoutPanel
        signedIn={false}
        onNeedSignIn={vi.fn()}
        onPaid={vi.fn()}
        onPayInFrame={vi.fn()}
        onPaidInApp={vi.fn()}
      />,
      {
        till,
        cart,
      },
    );
    const card = await screen.findByRole('radio', { name: 'Card (Stripe)' });
    expect(card).toBeChecked();
    expect(card).toHaveAccessibleDescription("You'll pay by card on Stripe's secure page and come back here.");
    expect(screen.getByRole('radio', { name: 'Paymentwall' })).toHaveAccessibleDescription(
      'Pay with Paymentwall (cards, wallets and local methods).',
    );
    expect(screen.getByRole('radio', { name: 'Sandbox checkout' })).toHaveAccessibleDescription(
      'The sandbox test checkout on this server: no real money moves.',
    );
    expect(screen.getByRole('radio', { name: 'Credits (500 credits)' })).toHaveAccessibleDescription(
      'Paid at once from your credit balance.',
    );
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual([
      'card',
      'paywall',
      'default',
      'credits',
    ]);
  });

  it('sends the buyer to Stripe for a card payment and keeps the cart until the order is paid', async () => {
    const { calls, cart, onPayInFrame } = await buyWith('Card (Stripe)', ['card', 'default']);
    await waitFor(() => expect(goToPayment).toHaveBeenCalledWith({ provider: 'card', url: STRIPE_URL }));
    expect(calls.find((c) => c.path === 'api/store/doCheckout')?.body).toMatchObject({
      products: 'pro-unlock',
      provider: 'card',
    });
    expect(onPayInFrame).not.toHaveBeenCalled();
    expect(cart.snapshot).toEqual([{ id: 'pro-unlock', quantity: 1 }]);
    expect(cart.checkedOutAs).toBe('o1');
    cart.orderPaid('o1');
    expect(cart.snapshot).toEqual([]);
  });

  it('opens Paymentwall in a frame on a wide screen', async () => {
    setScreen({ width: 1280, height: 800 });
    const { onPayInFrame, cart } = await buyWith('Paymentwall', ['card', 'paywall']);
    await waitFor(() =>
      expect(onPayInFrame).toHaveBeenCalledWith(expect.objectContaining({ iden: 'o1' }), {
        provider: 'paywall',
        url: WIDGET_URL,
      }),
    );
    expect(goToPayment).not.toHaveBeenCalled();
    expect(cart.checkedOutAs).toBe('o1');
  });

  it('opens Paymentwall as a page of its own on a phone', async () => {
    setScreen({ width: 360, height: 640 });
    const { onPayInFrame } = await buyWith('Paymentwall', ['card', 'paywall']);
    await waitFor(() => expect(goToPayment).toHaveBeenCalledWith({ provider: 'paywall', url: WIDGET_URL }));
    expect(onPayInFrame).not.toHaveBeenCalled();
  });

  it('empties the cart at once for an order paid with credits', async () => {
    const { cart, onPaid } = await buyWith('Credits (500 credits)', ['default']);
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith(expect.objectContaining({ status: 'paid' })));
    expect(cart.snapshot).toEqual([]);
    expect(goToPayment).not.toHaveBeenCalled();
  });

  it('says plainly that a payment was declined, and keeps the cart', async () => {
    const { cart } = await buyWith('Card (Stripe)', ['card'], () => ({ code: 910, reason: 'declined' }));
    expect(
      await screen.findByText(
        'The payment was declined. Your cart is still here: try again, or choose another way to pay.',
      ),
    ).toBeInTheDocument();
    expect(cart.snapshot).toEqual([{ id: 'pro-unlock', quantity: 1 }]);
    expect(screen.getByRole('button', { name: 'Buy' })).toBeEnabled();
  });
});
