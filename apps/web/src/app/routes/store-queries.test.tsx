import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useCheckoutForm } from '@/features/cart/api/checkout-api';
import { CartStore } from '@/features/cart/hooks/cart-store';
import { useCatalog, usePaymentRoutes } from '@/features/orders/api/orders-api';
import { useProducts } from '@/features/store/api/store-api';
import { testOrder, testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';

const pending = testOrder({ status: 'pending', items: [{ ...testOrder().items[0]!, quantity: 2 }] });

/** A screen that reads what the checkout and an order page both need, as a route may compose them. */
function BothFeatures() {
  const form = useCheckoutForm([{ id: 'credits-100', quantity: 2 }]);
  const routes = usePaymentRoutes(pending);
  const products = useProducts();
  const catalog = useCatalog();
  if (!form.data || !routes.data || !products.data || !catalog.data) return null;
  return (
    <p>
      {form.data.providers.length} routes, {routes.data.join(' ')}; {products.data.length} and {catalog.data.length}{' '}
      products
    </p>
  );
}

describe("the store's queries shared by features", () => {
  it('fetch the checkout form and the catalog once for the checkout, the order page and the store', async () => {
    const calls: string[] = [];
    const till = fakeTill((path) => {
      calls.push(path);
      if (path === 'api/store/getCheckoutForm')
        return {
          code: 900,
          data: {
            products: [],
            total: null,
            providers: [
              { provider: 'credits', url: '' },
              { provider: 'card', url: '' },
            ],
          },
        };
      return { code: 900, data: { products: [testProduct()] } };
    });
    signInFake(till);
    renderWithApp(<BothFeatures />, { till, cart: new CartStore(null) });
    // The order page does not offer credits for a pending order; the checkout does.
    expect(await screen.findByText('2 routes, card; 1 and 1 products')).toBeInTheDocument();
    expect(calls.filter((p) => p === 'api/store/getCheckoutForm')).toHaveLength(1);
    expect(calls.filter((p) => p === 'api/store/products')).toHaveLength(1);
  });
});
