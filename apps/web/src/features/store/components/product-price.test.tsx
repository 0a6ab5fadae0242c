import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PurchaseProduct } from '@till/client';
import { ProductType } from '@till/protocol';
import type { Platform } from '@/platform/types';
import { testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp } from '@/test/render';
import { ProductPrice } from './product-price';

// Inside the iOS app, whose store has loaded its products.
const shell = vi.hoisted(() => ({ products: [] as PurchaseProduct[] }));
vi.mock('@/platform/platform', () => ({
  isNativeShell: () => true,
  getPlatform: async () =>
    ({
      kind: 'ios',
      inAppStore: () => 'appstore',
      watchInAppProducts: (listener: (p: readonly PurchaseProduct[]) => void) => {
        listener(shell.products);
        return () => undefined;
      },
    }) as unknown as Platform,
  onResume: () => () => undefined,
}));

const state = (id: string, over: Partial<PurchaseProduct> = {}): PurchaseProduct => ({
  id,
  alias: id,
  type: ProductType.Consumable,
  loaded: true,
  valid: true,
  canPurchase: true,
  owned: false,
  ...over,
});

const product = (id: string) =>
  testProduct({
    id,
    alias: id,
    title: id,
    type: ProductType.Consumable,
    price: { amount: 199, currency: 'USD' },
    creditPrice: null,
    storeIds: { appstore: `app.${id}` },
  });

describe('ProductPrice in the phone app', () => {
  it("shows the store's own price string instead of the server's", async () => {
    shell.products = [state('app.credits', { price: '2,29 €', priceMicros: 2_290_000, currency: 'EUR' })];
    renderWithApp(<ProductPrice product={product('credits')} />, { till: fakeTill(() => ({ code: 904 })) });
    expect(await screen.findByText('2,29 €')).toBeInTheDocument();
    expect(screen.queryByText('$1.99')).not.toBeInTheDocument();
  });

  it.each([
    ['not loaded', [], "The app's store has not loaded this product yet."],
    [
      'not valid',
      [state('app.credits', { valid: false, canPurchase: false })],
      "The app's store does not offer this product.",
    ],
    [
      'not purchasable',
      [state('app.credits', { canPurchase: false, price: '2,29 €' })],
      "The app's store cannot sell this product now: it is owned already, or a purchase of it is under way.",
    ],
  ])('does not offer a product %s, and says why', async (_name, products, reason) => {
    shell.products = products;
    renderWithApp(<ProductPrice product={product('credits')} />, { till: fakeTill(() => ({ code: 904 })) });
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(screen.queryByText('$1.99')).not.toBeInTheDocument();
    expect(screen.queryByText('2,29 €')).not.toBeInTheDocument();
  });
});

describe('a product the app store does not sell', () => {
  // The server's checkout form says what the apps may offer besides their store.
  const server = (webPayments: 'hidden' | 'shown') =>
    fakeTill((path) =>
      path === 'api/store/getCheckoutForm'
        ? { code: 900, data: { products: [], total: null, providers: [], app: { webPayments, stores: ['appstore'] } } }
        : { code: 904 },
    );
  const webOnly = (creditPrice: number | null) => testProduct({ ...product('web'), storeIds: {}, creditPrice });

  it('is not available in the app while web payments are hidden and it has no credit price', async () => {
    shell.products = [];
    renderWithApp(<ProductPrice product={webOnly(null)} />, { till: server('hidden') });
    expect(await screen.findByText('Not available in the app.')).toBeInTheDocument();
    expect(screen.queryByText('$1.99')).not.toBeInTheDocument();
  });

  it('is paid with credits in the app when it has a credit price', async () => {
    shell.products = [];
    renderWithApp(<ProductPrice product={webOnly(150)} />, { till: server('hidden') });
    expect(await screen.findByText('150 credits')).toBeInTheDocument();
    expect(screen.getByText("Not sold in the app's store.")).toBeInTheDocument();
    expect(screen.queryByText('Not available in the app.')).not.toBeInTheDocument();
  });

  it("shows the server's price when the server shows web payments in the apps", async () => {
    shell.products = [];
    renderWithApp(<ProductPrice product={webOnly(null)} />, { till: server('shown') });
    // Until the app's store has answered, the server's price stands alone; once it has, the price
    // comes back only with the checkout form's word that the apps show web payments.
    expect(await screen.findByText("Not sold in the app's store.")).toBeInTheDocument();
    expect(await screen.findByText('$1.99')).toBeInTheDocument();
  });
});
