import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { CartStore } from '../hooks/cart-store';
import { CheckoutPanel } from './checkout-panel';

const pro = testProduct();

function server(coupon: (code: string) => unknown) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  const till = fakeTill((path, body) => {
    calls.push({ path, body });
    if (path === 'api/store/getCheckoutForm') {
      return {
        code: 900,
        data: {
          products: [pro],
          total: pro.price,
          providers: [{ provider: 'default', form: { action: '/x', method: 'POST', fields: {} } }],
        },
      };
    }
    if (path === 'api/store/getCoupon') return coupon(String(body.couponCode));
    return { code: 904, parameter: 'path' };
  });
  const cart = new CartStore(null);
  cart.add('pro-unlock');
  return { till, cart, calls };
}

describe('CheckoutPanel', () => {
  it('checks the coupon live and says what it gives', async () => {
    const { till, cart } = server(() => ({
      code: 900,
      data: {
        coupon: {
          code: 'WELCOME10',
          kind: 'discount',
          percentOff: 10,
          startsAt: null,
          endsAt: null,
          appliesTo: 'all',
          minTotal: null,
        },
      },
    }));
    signInFake(till);
    renderWithApp(<CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={vi.fn()} />, { till, cart });
    await userEvent.setup().type(await screen.findByLabelText('Coupon code'), 'welcome10');
    expect(await screen.findByText('10 % off')).toBeInTheDocument();
  });

  it('names the reason a coupon is refused (908) and holds the purchase back', async () => {
    const { till, cart } = server(() => ({ code: 908, reason: 'expired' }));
    signInFake(till);
    renderWithApp(<CheckoutPanel signedIn onNeedSignIn={vi.fn()} onPaid={vi.fn()} />, { till, cart });
    await userEvent.setup().type(await screen.findByLabelText('Coupon code'), 'OLD');
    expect(await screen.findByText('This coupon has expired.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy' })).toBeDisabled();
  });

  it('offers the routes of the checkout form, and credits when every product has a credit price', async () => {
    const { till, cart } = server(() => ({ code: 908, reason: 'unknown' }));
    renderWithApp(<CheckoutPanel signedIn={false} onNeedSignIn={vi.fn()} onPaid={vi.fn()} />, { till, cart });
    expect(await screen.findByRole('radio', { name: 'Card (sandbox checkout)' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Credits (500 credits)' })).not.toBeChecked();
  });

  it('asks an anonymous buyer to sign in and keeps the purchase waiting, without checking the coupon', async () => {
    const { till, cart, calls } = server(() => ({ code: 908, reason: 'unknown' }));
    const onNeedSignIn = vi.fn();
    renderWithApp(<CheckoutPanel signedIn={false} onNeedSignIn={onNeedSignIn} onPaid={vi.fn()} />, { till, cart });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Coupon code'), 'WELCOME10');
    expect(await screen.findByText('The coupon is checked once you sign in.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Buy' }));
    expect(onNeedSignIn).toHaveBeenCalled();
    expect(await screen.findByText('Sign in and your purchase carries on.')).toBeInTheDocument();
    // Held by the SDK until a login: nothing but the checkout form went out.
    await waitFor(() => expect(till.queue.size).toBe(1));
    expect(calls.map((c) => c.path)).not.toContain('api/store/doCheckout');
    expect(calls.map((c) => c.path)).not.toContain('api/store/getCoupon');
  });

  it('offers the payment route chosen last time first', async () => {
    localStorage.setItem('till:config/checkout.json', JSON.stringify({ provider: 'credits' }));
    const { till, cart } = server(() => ({ code: 908, reason: 'unknown' }));
    renderWithApp(<CheckoutPanel signedIn={false} onNeedSignIn={vi.fn()} onPaid={vi.fn()} />, { till, cart });
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Credits (500 credits)' })).toBeChecked());
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Card (sandbox checkout)' }));
    await waitFor(() => expect(localStorage.getItem('till:config/checkout.json')).toBe('{"provider":"default"}'));
  });
});
