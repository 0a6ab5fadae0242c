import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from '@/app/provider';
import { AppRouter, preloadPage } from '@/app/router';
import { CartStore } from '@/features/cart/hooks/cart-store';
import { createI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { createAppSdk } from '@/lib/sdk';
import { registerServiceWorker } from '@/lib/service-worker';

// Hosts default to the page's own origin; a build for the native shells sets them.
const till = createAppSdk({
  apiHost: import.meta.env.VITE_API_HOST ?? '',
  storeHost: import.meta.env.VITE_STORE_HOST ?? '',
  storage: window.localStorage,
});
const queryClient = createQueryClient();
const i18n = createI18n();
const cart = new CartStore(window.localStorage);

// Signing out (or a 901) must not leave the last user's data in the cache for the next one.
till.session.subscribe((event) => {
  if (event.type === 'end') queryClient.clear();
});

preloadPage(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppProvider till={till} queryClient={queryClient} i18n={i18n} cart={cart}>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);

if (import.meta.env.PROD) void registerServiceWorker();
