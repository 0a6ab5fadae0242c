import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchPath } from 'react-router-dom';
import { paths } from '@/app/paths';
import { AppProvider } from '@/app/provider';
import { AppRouter, preloadPage } from '@/app/router';
import { CartStore } from '@/features/cart/hooks/cart-store';
import { productsQuery, seedProducts } from '@/features/store/api/store-api';
import { createI18n, initialLanguage } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';
import { storeKeys } from '@/lib/store-queries';
import { createAppSdk } from '@/lib/sdk';
import { StepUpPrompt } from '@/lib/step-up';
import { AfterFirstCommit } from '@/components/after-first-commit';
import { StepUpHost } from '@/components/step-up-host';
import { registerServiceWorker } from '@/lib/service-worker';
import { getPlatform, isNativeShell, onResume } from '@/platform/platform';
import { appSessionStorage } from '@/platform/session-storage';

// Hosts default to the page's own origin; a build for the native shells sets them.
const i18n = createI18n();
// Calls carry the interface's language, so product texts and the payment page come in it.
// Credential changes and administrators' sensitive actions ask for the password again when the
// server wants a recent proof; the dialog below answers for the SDK.
const stepUp = new StepUpPrompt();
const till = createAppSdk({
  apiHost: import.meta.env.VITE_API_HOST ?? '',
  storeHost: import.meta.env.VITE_STORE_HOST ?? '',
  storage: appSessionStorage(),
  language: () => i18n.language,
  stepUp: stepUp.ask,
});
const queryClient = createQueryClient();
const cart = new CartStore(window.localStorage);

// Signing out (or a 901) must not leave the last user's data in the cache for the next one.
till.session.subscribe((event) => {
  if (event.type === 'end') queryClient.clear();
});

const { pathname } = window.location;
const firstPage = preloadPage(pathname);
// The store's pages come with the catalog in them; without it (a page from the worker's cache),
// they ask for the products at once, in parallel with their own script, instead of after it has
// loaded and rendered.
const storePage = [paths.home.path, paths.product.path].some((p) => matchPath(p, pathname));
const startLanguage = initialLanguage();
if (storePage && !seedProducts(queryClient, document, startLanguage))
  void queryClient.prefetchQuery(productsQuery(till, startLanguage));

// The SDK loads its wire layer (axios) with the first call. A store page drawn from its own
// catalog makes none, so it starts that load when the visitor first touches the page, ahead of the
// call that follows; every other page starts it now, beside its own chunk (most of them call at
// once, and a form's first call comes within seconds).
// A failed load is tried again by the first call, which then says it cannot reach the server.
const loadWireLayer = () => void till.api.http().catch(() => undefined);
if (storePage) {
  for (const type of ['pointerdown', 'keydown', 'focusin'])
    window.addEventListener(type, loadWireLayer, { once: true, passive: true, capture: true });
} else loadWireLayer();

// The phone apps read the session from the device's preferences, which answer asynchronously: the
// first render waits for it (behind the splash screen), so that a signed-in user is not sent to sign in.
if (isNativeShell()) await till.session.ready;
// The first page's chunk was preloaded with the start's: the first render draws it in the same pass.
await firstPage;

// The worker precaches the whole app: once the page has loaded and the app's first screen is committed,
// so that neither its downloads nor its script check and registration compete with the first screen.
// The phone apps carry the app in their package: no worker there.
const registerWorker =
  import.meta.env.PROD && !isNativeShell()
    ? () => {
        if (document.readyState === 'complete') void registerServiceWorker();
        else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
      }
    : undefined;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// As a transition, the first render yields to the browser every few milliseconds instead of
// holding the main thread for the whole tree (a phone stays responsive while the app starts).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <AppProvider till={till} queryClient={queryClient} i18n={i18n} cart={cart}>
        <AppRouter />
        <StepUpHost prompt={stepUp} />
        {registerWorker && <AfterFirstCommit run={registerWorker} />}
      </AppProvider>
    </StrictMode>,
  );
});

// Back in the foreground after a while away, the store's products and the buyer's orders may have
// changed (prices, a payment finished in another app): they are fetched again. Only queries on a
// screen refetch at once; the rest are marked stale for when they are next shown.
onResume(() => {
  void queryClient.invalidateQueries({ queryKey: storeKeys.products });
  void queryClient.invalidateQueries({ queryKey: storeKeys.orders });
  void queryClient.invalidateQueries({ queryKey: storeKeys.order });
});

// In the phone app: the back button, status bar, keyboard and splash (none of it in a browser).
if (isNativeShell()) void getPlatform().then((p) => p.startShell());
