import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PurchaseProduct, StoreMessage } from '@till/client';
import { ProductType, type AppPayments, type Product } from '@till/protocol';
import type { InAppPurchase, Platform } from '@/platform/types';
import { testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { CartStore } from '../hooks/cart-store';
import { CheckoutPanel } from './checkout-panel';

// Checkout inside the phone app: the platform is the shell's, with its in-app store.
const shell = vi.hoisted(() => ({ platform: null as Platform | null }));
vi.mock('@/platform/platform', () => ({
  isNativeShell: () => true,
  getPlatform: async () => shell.platform,
  onResume: () => () => undefined,
}));

const storeIds = (id: string) => ({ appstore: `app.till.${id}`, googleplay: `till.${id}` });
const pro = testProduct({ storeIds: storeIds('pro-unlock') });

// What the store says about each product by store id: loaded, valid and purchasable unless told.
const storeState = (id: string, over: Partial<PurchaseProduct> = {}): PurchaseProduct => ({
  id,
  alias: id,
  type: 1,
  loaded: true,
  valid: true,
  canPurchase: true,
  owned: false,
  ...over,
});
const everything = (kind: 'ios' | 'android') =>
  ['pro-unlock', 'credits-100'].map((id) => storeState(storeIds(id)[kind === 'ios' ? 'appstore' : 'googleplay']));

function phone(
  kind: 'ios' | 'android',
  answer: StoreMessage,
  bought: InAppPurchase['bought'] = {},
  storeProducts: readonly PurchaseProduct[] = everything(kind),
): Platform {
  return {
    kind,
    saveFile: vi.fn(),
    canOpenSaved: true,
    openFile: vi.fn(),
    pickImage: vi.fn(),
    readConfig: async (_name, defaults) => defaults,
    writeConfig: vi.fn(async () => undefined),
    onResume: () => () => undefined,
    onLinkOpened: () => () => undefined,
    openPaymentPage: vi.fn(),
    closePaymentPage: vi.fn(),
    openSignInPage: vi.fn(),
    closeSignInPage: vi.fn(),
    socialSignIn: vi.fn(),
    inAppStore: () => (kind === 'ios' ? 'appstore' : 'googleplay'),
    startInAppStore: vi.fn(async () => undefined),
    buyInApp: vi.fn(async () => ({ message: answer, bought })),
    restoreInApp: vi.fn(async () => ({ restored: [] })),
    watchInAppProducts: (listener) => {
      listener(storeProducts);
      return () => undefined;
    },
    startShell: vi.fn(),
  };
}

function render(
  platform: Platform,
  item: { product: Product; quantity: number } = { product: pro, quantity: 1 },
  app: AppPayments = { webPayments: 'hidden', stores: ['appstore', 'googleplay'] },
) {
  shell.platform = platform;
  const product = item.product;
  const till = fakeTill((path) => {
    if (path === 'api/store/getCheckoutForm') {
      const providers = ['card', 'default'].map((provider) => ({ provider, url: '' }));
      return { code: 900, data: { products: [product], total: product.price, providers, app } };
    }
    return { code: 904, parameter: 'path' };
  });
  signInFake(till);
  const cart = new CartStore(null);
  cart.add(product.id, item.quantity);
  const onPaidInApp = vi.fn();
  renderWithApp(
    <CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={vi.fn()} onPayInFrame={vi.fn()} onPaidInApp={onPaidInApp} />,
    { till, cart },
  );
  return { till, cart, onPaidInApp };
}

const finished: StoreMessage = {
  type: 'finished',
  code: 800,
  data: { productId: 'app.till.pro', transactionId: 't1' },
};

describe('checkout in the phone app', () => {
  it('offers only the App Store and credits inside the iOS app, and buys there', async () => {
    const platform = phone('ios', finished, { 'pro-unlock': 1 });
    const { till, cart, onPaidInApp } = render(platform);
    await screen.findByRole('radio', { name: 'App Store' });
    const routes = screen.getAllByRole('radio').map((r) => r.getAttribute('value'));
    expect(routes).toEqual(['appstore', 'credits']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Buy' }));
    await waitFor(() => expect(onPaidInApp).toHaveBeenCalled());
    expect(platform.buyInApp).toHaveBeenCalledWith([{ product: pro, quantity: 1 }], till.store);
    expect(cart.count).toBe(0);
  });

  it('offers only Google Play and credits inside the Android app while the server hides web routes', async () => {
    render(phone('android', finished));
    await screen.findByRole('radio', { name: 'Google Play' });
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['googleplay', 'credits']);
  });

  it('offers Google Play first and the web routes beside it when the server shows them, and keeps the cart when the buyer cancels', async () => {
    const platform = phone('android', { type: 'cancelled', data: {} });
    const { cart, onPaidInApp } = render(platform, undefined, {
      webPayments: 'shown',
      stores: ['appstore', 'googleplay'],
    });
    await screen.findByRole('radio', { name: 'Google Play' });
    const routes = screen.getAllByRole('radio').map((r) => r.getAttribute('value'));
    expect(routes).toEqual(['googleplay', 'card', 'default', 'credits']);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Google Play' }));
    await user.click(screen.getByRole('button', { name: 'Buy' }));
    await screen.findByText('The purchase was cancelled; your cart is still here.');
    expect(onPaidInApp).not.toHaveBeenCalled();
    expect(cart.count).toBe(1);
  });

  it('asks the store for every unit of a consumable and keeps in the cart the units not bought', async () => {
    const credits = testProduct({
      id: 'credits-100',
      alias: 'credits-100',
      title: '100 credits',
      type: ProductType.Consumable,
      storeIds: storeIds('credits-100'),
    });
    // Two of three were bought, then the buyer cancelled the third.
    const platform = phone('ios', { type: 'cancelled', data: {} }, { 'credits-100': 2 });
    const { till, cart, onPaidInApp } = render(platform, { product: credits, quantity: 3 });
    await screen.findByRole('radio', { name: 'App Store' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Buy' }));
    await screen.findByText('The purchase was cancelled; your cart is still here.');
    expect(platform.buyInApp).toHaveBeenCalledWith([{ product: credits, quantity: 3 }], till.store);
    expect(cart.snapshot).toEqual([{ id: 'credits-100', quantity: 1 }]);
    expect(onPaidInApp).not.toHaveBeenCalled();
  });

  it('says why more than one of a non-consumable cannot be bought in the app, and does not buy it', async () => {
    const platform = phone('ios', finished, { 'pro-unlock': 1 });
    const { cart } = render(platform, { product: pro, quantity: 2 });
    await screen.findByRole('radio', { name: 'App Store' });
    expect(
      screen.getByText("Pro unlock can be bought only once in the app's store: set the quantity to 1."),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy' })).toBeDisabled();
    expect(platform.buyInApp).not.toHaveBeenCalled();
    expect(cart.count).toBe(2);
  });

  it("shows the store's own prices and total inside the app", async () => {
    const platform = phone('ios', finished, {}, [
      storeState('app.till.pro-unlock', { price: '5,49 €', priceMicros: 5_490_000, currency: 'EUR' }),
    ]);
    render(platform);
    await screen.findByRole('radio', { name: 'App Store' });
    expect(await screen.findByText('5,49 €')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-total')).toHaveTextContent('€5.49');
    expect(screen.queryByText('$4.99')).not.toBeInTheDocument();
  });

  it('does not sell in the app a product its store does not offer, and says why', async () => {
    const platform = phone('ios', finished, {}, [storeState('app.till.pro-unlock', { canPurchase: false })]);
    render(platform);
    await screen.findByRole('radio', { name: 'App Store' });
    expect(
      await screen.findByText(
        "Pro unlock: The app's store cannot sell this product now: it is owned already, or a purchase of it is under way.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy' })).toBeDisabled();
  });
});
