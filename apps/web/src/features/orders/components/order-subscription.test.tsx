import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ProductType, type Order, type OrderSubscription } from '@till/protocol';
import { testOrder } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake, testI18nGerman } from '@/test/render';
import { OrderList } from './order-list';
import { OrderView } from './order-view';

const UNTIL = '2026-02-01T00:00:00.000Z';

/** A paid order of the monthly subscription, paid through `provider`, standing as `subscription` says. */
function subscriptionOrder(provider: Order['provider'], subscription: OrderSubscription): Order {
  return testOrder({
    status: 'paid',
    provider,
    items: [
      {
        productId: 'monthly',
        alias: 'monthly',
        title: 'Monthly',
        price: { amount: 299, currency: 'USD' },
        creditPrice: 300,
        quantity: 1,
      },
    ],
    subtotal: { amount: 299, currency: 'USD' },
    total: { amount: 299, currency: 'USD' },
    refunds: [],
    subscription,
  });
}

const catalog = {
  code: 900,
  data: {
    products: [
      {
        id: 'monthly',
        alias: 'monthly',
        title: 'Monthly',
        description: '',
        type: ProductType.Subscription,
        price: { amount: 299, currency: 'USD' },
        creditPrice: 300,
        grants: { period: 'P1M' },
        imageUrl: null,
        storeIds: {},
        active: true,
      },
    ],
  },
};

/** A server with the one order `current()`, whose endSubscription answers `ended`. */
function serve(current: () => Order, ended?: () => Order) {
  const calls: string[] = [];
  const till = fakeTill((path) => {
    calls.push(path);
    if (path === 'api/store/orderStatus') return { code: 900, data: { status: current().status, order: current() } };
    if (path === 'api/store/orders') return { code: 900, data: { orders: [current()], total: 1 } };
    if (path === 'api/store/endSubscription' && ended) return { code: 900, data: { order: ended() } };
    return catalog;
  });
  signInFake(till);
  return { till, calls };
}

describe('a subscription on the order page and in the list', () => {
  it('says when a card subscription renews, and stops it renewing after asking', async () => {
    const renewing = subscriptionOrder('card', { until: UNTIL, renews: true, manage: 'cancel', manageUrl: null });
    const stopped = subscriptionOrder('card', { until: UNTIL, renews: false, manage: null, manageUrl: null });
    const { till, calls } = serve(
      () => renewing,
      () => stopped,
    );
    renderWithApp(<OrderView iden="o1" />, { till });
    expect(await screen.findByTestId('subscription-line')).toHaveTextContent(/^Renews on Feb 1, 2026/);
    expect(screen.queryByRole('button', { name: /buy/i })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Stop renewing' }));
    const ask = await screen.findByRole('dialog', { name: 'Stop renewing this subscription?' });
    expect(ask).toHaveTextContent(/It stays active until Feb 1, 2026.* and is not renewed after that/);
    // Kept when the buyer backs out: nothing sent.
    await user.click(within(ask).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).not.toContain('api/store/endSubscription');
    await user.click(screen.getByRole('button', { name: 'Stop renewing' }));
    const again = await screen.findByRole('dialog', { name: 'Stop renewing this subscription?' });
    await user.click(within(again).getByRole('button', { name: 'Stop renewing' }));
    await waitFor(() =>
      expect(screen.getByTestId('subscription-line')).toHaveTextContent(/^Subscribed until Feb 1, 2026/),
    );
    expect(calls.filter((p) => p === 'api/store/endSubscription')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Stop renewing' })).not.toBeInTheDocument();
  });

  it.each([
    ['appstore', 'Manage in the App Store', 'https://apps.apple.com/account/subscriptions'],
    [
      'googleplay',
      'Manage in Google Play',
      'https://play.google.com/store/account/subscriptions?sku=monthly.sub&package=app.till',
    ],
  ] as const)('leads a %s subscription to the store’s subscription settings', async (provider, label, url) => {
    const order = subscriptionOrder(provider, { until: UNTIL, renews: true, manage: 'store', manageUrl: url });
    const { till } = serve(() => order);
    renderWithApp(<OrderView iden="o1" />, { till });
    const link = await screen.findByRole('link', { name: label });
    expect(link).toHaveAttribute('href', url);
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.queryByRole('button', { name: 'Stop renewing' })).not.toBeInTheDocument();
  });

  it('says until when a subscription that does not renew runs, with nothing to stop, in the list too', async () => {
    const order = subscriptionOrder('credits', { until: UNTIL, renews: false, manage: null, manageUrl: null });
    const { till } = serve(() => order);
    renderWithApp(<OrderList orderHref={(iden) => `/orders/${iden}`} />, { till });
    expect(await screen.findByText(/^Subscribed until Feb 1, 2026/)).toBeInTheDocument();
  });

  it('speaks German', async () => {
    const order = subscriptionOrder('card', { until: UNTIL, renews: true, manage: 'cancel', manageUrl: null });
    const { till } = serve(() => order);
    renderWithApp(<OrderView iden="o1" />, { till, i18n: testI18nGerman() });
    expect(await screen.findByTestId('subscription-line')).toHaveTextContent(/^Verlängert sich am 01\.02\.2026/);
    expect(screen.getByRole('button', { name: 'Nicht mehr verlängern' })).toBeInTheDocument();
  });
});
