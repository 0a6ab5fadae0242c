import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ProductType, type Product } from '@till/protocol';
import { testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { ProductCatalog } from './product-catalog';

const product = (over: Partial<Product>): Product =>
  testProduct({
    id: 'credits-100',
    alias: 'credits-100',
    title: '100 credits',
    description: 'A pack of credits',
    type: ProductType.Consumable,
    price: { amount: 199, currency: 'USD' },
    creditPrice: null,
    grants: { credits: 100 },
    ...over,
  });

const catalog = [
  product({}),
  product({
    id: 'pro',
    alias: 'pro',
    title: 'Pro unlock',
    type: ProductType.NonConsumable,
    creditPrice: 500,
    grants: {},
  }),
  product({ id: 'old', alias: 'old', title: 'Retired', active: false }),
];

function renderCatalog(answer: () => unknown) {
  const onAddToCart = vi.fn();
  const till = fakeTill((path) => (path === 'api/store/products' ? answer() : { code: 904, parameter: 'path' }));
  renderWithApp(<ProductCatalog productHref={(id) => `/product/${id}`} onAddToCart={onAddToCart} />, { till });
  return { onAddToCart };
}

describe('ProductCatalog', () => {
  it('says it is loading, then lists the active products with their kind, grants and prices', async () => {
    let release: (value: unknown) => void = () => undefined;
    const answer = new Promise((resolve) => (release = resolve));
    const { onAddToCart } = renderCatalog(() => answer);
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    release({ code: 900, data: { products: catalog } });

    const list = await screen.findByRole('list', { name: 'Products' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(screen.queryByText('Retired')).toBeNull();
    expect(within(cards[0]!).getByText('Consumable')).toBeVisible();
    expect(within(cards[0]!).getByText('Gives 100 credits')).toBeVisible();
    expect(within(cards[0]!).getByText('$1.99')).toBeVisible();
    expect(within(cards[1]!).getByText('One-time unlock')).toBeVisible();
    expect(within(cards[1]!).getByText('or 500 credits')).toBeVisible();
    expect(within(cards[1]!).getByRole('link', { name: 'Details of Pro unlock' })).toHaveAttribute(
      'href',
      '/product/pro',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Add to cart: Pro unlock' }));
    expect(onAddToCart).toHaveBeenCalledWith(expect.objectContaining({ id: 'pro' }));
  });

  it('says the server cannot be reached (905) and loads the catalog on retry', async () => {
    let online = false;
    renderCatalog(() => {
      if (!online) throw new Error('offline');
      return { code: 900, data: { products: catalog } };
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Can't reach the server. Check your connection and try again.");

    online = true;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Products' })).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so when the catalog is empty', async () => {
    renderCatalog(() => ({ code: 900, data: { products: [catalog[2]] } }));
    expect(await screen.findByText('No products yet.')).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Products' })).toBeNull();
  });

  it("marks what the signed-in buyer owns and offers no way to buy it again, and a subscription's period in words", async () => {
    const monthly = product({
      id: 'monthly',
      alias: 'monthly',
      title: 'Monthly',
      type: ProductType.Subscription,
      price: { amount: 299, currency: 'USD' },
      grants: { period: 'P3M' },
    });
    const till = fakeTill((path) => {
      if (path === 'api/store/products') return { code: 900, data: { products: [...catalog, monthly] } };
      if (path === 'api/store/entitlements')
        return {
          code: 900,
          data: {
            entitlements: [
              { productId: 'pro', alias: 'pro', title: 'Pro unlock', kind: 'ownership', expiresAt: null, active: true },
            ],
          },
        };
      return { code: 904, parameter: 'path' };
    });
    signInFake(till);
    renderWithApp(<ProductCatalog productHref={(id) => `/product/${id}`} onAddToCart={vi.fn()} />, { till });
    const cards = within(await screen.findByRole('list', { name: 'Products' })).getAllByRole('listitem');
    expect(await within(cards[1]!).findByText(/You own this/)).toBeVisible();
    expect(within(cards[1]!).queryByRole('button', { name: 'Add to cart: Pro unlock' })).toBeNull();
    expect(within(cards[0]!).getByRole('button', { name: 'Add to cart: 100 credits' })).toBeVisible();
    expect(within(cards[2]!).getByText('$2.99 every 3 months')).toBeVisible();
    expect(within(cards[2]!).getByText('Subscription (every 3 months)')).toBeVisible();
  });

  it('says when a running subscription renews, or until when it runs, instead of offering it for the cart', async () => {
    const sub = (id: string, title: string) =>
      product({ id, alias: id, title, type: ProductType.Subscription, grants: { period: 'P1M' } });
    const running = (productId: string, renews: boolean) => ({
      productId,
      alias: productId,
      title: productId,
      kind: 'subscription',
      expiresAt: '2099-02-01T00:00:00.000Z',
      active: true,
      renews,
    });
    const till = fakeTill((path) => {
      if (path === 'api/store/products')
        return { code: 900, data: { products: [catalog[0], sub('monthly', 'Monthly'), sub('yearly', 'Yearly')] } };
      if (path === 'api/store/entitlements')
        return { code: 900, data: { entitlements: [running('monthly', true), running('yearly', false)] } };
      return { code: 904, parameter: 'path' };
    });
    signInFake(till);
    renderWithApp(<ProductCatalog productHref={(id) => `/product/${id}`} onAddToCart={vi.fn()} />, { till });
    const cards = within(await screen.findByRole('list', { name: 'Products' })).getAllByRole('listitem');
    expect(await within(cards[1]!).findByText(/Renews on Feb 1, 2099/)).toBeVisible();
    expect(within(cards[1]!).queryByRole('button', { name: 'Add to cart: Monthly' })).toBeNull();
    expect(within(cards[2]!).getByText(/Subscribed until Feb 1, 2099/)).toBeVisible();
    expect(within(cards[2]!).queryByRole('button', { name: 'Add to cart: Yearly' })).toBeNull();
    expect(within(cards[0]!).getByRole('button', { name: 'Add to cart: 100 credits' })).toBeVisible();
  });
});
