import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProductType, type Entitlement } from '@till/protocol';
import { testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake, testI18nGerman } from '@/test/render';
import { ProductDetail } from './product-detail';

const monthly = testProduct({
  id: 'monthly',
  alias: 'monthly',
  title: 'Monthly',
  type: ProductType.Subscription,
  price: { amount: 299, currency: 'USD' },
  creditPrice: 300,
  grants: { period: 'P1M' },
});

function serve(entitlements: Entitlement[]) {
  const till = fakeTill((path) =>
    path === 'api/store/entitlements'
      ? { code: 900, data: { entitlements } }
      : { code: 900, data: { products: [monthly] } },
  );
  signInFake(till);
  return till;
}
const running = (renews: boolean): Entitlement => ({
  productId: 'monthly',
  alias: 'monthly',
  title: 'Monthly',
  kind: 'subscription',
  expiresAt: '2099-02-01T00:00:00.000Z',
  active: true,
  renews,
});
const noop = () => undefined;

describe('ProductDetail of a subscription', () => {
  it('says when a running subscription renews instead of offering it as new, with the way to the orders', async () => {
    renderWithApp(
      <ProductDetail storeHref="/" idOrAlias="monthly" onAddToCart={noop} onBuy={noop} ordersHref="/orders" />,
      {
        till: serve([running(true)]),
      },
    );
    expect(
      await screen.findByText(
        /^You're subscribed: it renews on Feb 1, 2099.*You can stop it renewing from your orders\.$/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/^Renews on Feb 1, 2099/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your orders' })).toHaveAttribute('href', '/orders');
    expect(screen.queryByRole('button', { name: 'Buy' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to cart' })).not.toBeInTheDocument();
  });

  it('says until when one that does not renew runs, in German too', async () => {
    const first = renderWithApp(<ProductDetail storeHref="/" idOrAlias="monthly" onAddToCart={noop} onBuy={noop} />, {
      till: serve([running(false)]),
    });
    expect(await screen.findByText(/^You're subscribed until Feb 1, 2099/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy' })).not.toBeInTheDocument();
    first.unmount();
    renderWithApp(<ProductDetail storeHref="/" idOrAlias="monthly" onAddToCart={noop} onBuy={noop} />, {
      till: serve([running(false)]),
      i18n: testI18nGerman(),
    });
    expect(await screen.findByText(/^Du hast es bis 01\.02\.2099.* abonniert\.$/)).toBeInTheDocument();
    expect(screen.getByText(/^Abonniert bis 01\.02\.2099/)).toBeInTheDocument();
  });

  it('offers a subscription that ended, or was never taken, for sale', async () => {
    renderWithApp(<ProductDetail storeHref="/" idOrAlias="monthly" onAddToCart={noop} onBuy={noop} />, {
      till: serve([{ ...running(false), expiresAt: '2020-02-01T00:00:00.000Z', active: false }]),
    });
    expect(await screen.findByRole('button', { name: 'Buy' })).toBeInTheDocument();
    expect(screen.queryByText(/subscribed/)).not.toBeInTheDocument();
  });
});
