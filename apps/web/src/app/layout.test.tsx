import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router-dom';
import { CartStore } from '@/features/cart/hooks/cart-store';
import { createI18n } from '@/lib/i18n';
import { testProduct } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { Layout } from './layout';
import { CatalogRoute } from './routes/catalog';

function renderLayout(cart: CartStore) {
  const till = fakeTill(() => ({ code: 904, parameter: 'path' }));
  return renderWithApp(
    <Routes>
      <Route element={<Layout />}>
        <Route path="/" element={<p>The page</p>} />
      </Route>
    </Routes>,
    { till, cart },
  );
}

describe('Layout', () => {
  it('frames the page with a skip link, a bar and the page in main', () => {
    renderLayout(new CartStore(null));
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    const bar = screen.getByRole('banner');
    expect(within(bar).getByRole('link', { name: 'Till' })).toHaveAttribute('href', '/');
    expect(within(bar).getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(within(screen.getByRole('main')).getByText('The page')).toBeVisible();
  });

  it('shows how many items the cart holds, and follows the cart', () => {
    const cart = new CartStore(null);
    renderLayout(cart);
    const bar = screen.getByRole('banner');
    const link = within(bar).getByRole('link', { name: 'Cart, 0 items' });
    expect(link).toHaveTextContent(/^$/);

    act(() => {
      cart.add('pro-unlock');
      cart.add('credits-100', 2);
    });
    expect(within(bar).getByRole('link', { name: 'Cart, 3 items' })).toHaveTextContent('3');

    act(() => cart.add('storage-plan', 99));
    expect(within(bar).getByRole('link', { name: 'Cart, 102 items' })).toHaveTextContent('99+');

    act(() => cart.clear());
    expect(within(bar).getByRole('link', { name: 'Cart, 0 items' })).toHaveTextContent(/^$/);
  });

  it('shows the first screen to a signed-in administrator with the texts that ship with it alone', async () => {
    const product = testProduct({ id: 'pro', alias: 'pro' });
    const till = fakeTill(() => ({ code: 900, data: { products: [product] } }));
    signInFake(till, 9);
    renderWithApp(
      <Routes>
        <Route element={<Layout />}>
          <Route path="/" element={<CatalogRoute />} />
        </Route>
      </Routes>,
      { till, i18n: createI18n('en') },
    );
    await screen.findByRole('heading', { name: 'Pro unlock' });
    // A text missing from en.json would show as its key, e.g. "auth.signIn".
    const shown = [...document.body.querySelectorAll('*:not(style):not(script)')].flatMap((el) => [
      el.getAttribute('aria-label') ?? '',
      ...[...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? ''),
    ]);
    expect(shown.filter((text) => /\b[a-z]+\.[a-zA-Z]+/.test(text))).toEqual([]);
    expect(screen.getByRole('link', { name: 'Admin' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add to cart: Pro unlock' })).toBeVisible();
  });
});
