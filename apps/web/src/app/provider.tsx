import { THEME_ID } from '@mui/material/styles';
import { ThemeProvider } from '@mui/system';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CartProvider } from '@/features/cart/hooks/use-cart';
import type { CartStore } from '@/features/cart/hooks/cart-store';
import type { I18n } from '@/lib/i18n';
import { TranslatorProvider } from '@/lib/i18n-react';
import { theme } from '@/lib/theme';
import { TillProvider, type Till } from '@/lib/till';

/** Everything every screen relies on: theme, translations, SDK, server-state cache and cart. */
export function AppProvider({
  till,
  queryClient,
  i18n,
  cart,
  children,
}: {
  till: Till;
  queryClient: QueryClient;
  i18n: I18n;
  cart: CartStore;
  children: ReactNode;
}) {
  return (
    // MUI's own ThemeProvider also carries the CSS-variables provider and its colour-scheme
    // script for themes that use them; this theme does not, and the system provider is what
    // MUI itself renders for such a theme. CssBaseline's global styles are in index.html, as
    // static CSS (the theme's colours and body text, which `theme-baseline.test.ts` holds there).
    <ThemeProvider themeId={THEME_ID} theme={theme}>
      <TranslatorProvider translator={i18n}>
        <TillProvider till={till}>
          <QueryClientProvider client={queryClient}>
            <CartProvider store={cart}>{children}</CartProvider>
          </QueryClientProvider>
        </TillProvider>
      </TranslatorProvider>
    </ThemeProvider>
  );
}
