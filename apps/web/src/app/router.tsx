import { lazy, useMemo, type ComponentType } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { BrowserRouter, matchPath, Route, Routes } from 'react-router-dom';
import { loadScreenTexts, preloadScreenTexts } from '@/lib/i18n';
import { Layout } from './layout';
import { paths } from './paths';

// Every page is its own chunk: the first screen loads the catalog only, never admin, files or
// profile. The declarative router is used on purpose: the data router's loaders and actions are
// not needed (TanStack Query holds server state) and would weigh on the first screen.
// Every page but the catalog also waits for the other screens' texts (lib/i18n.ts), fetched in
// parallel with its chunk.
const routes: {
  path: string;
  load: () => Promise<Record<string, ComponentType>>;
  name: string;
  firstScreen?: boolean;
}[] = [
  { path: paths.home.path, load: () => import('./routes/catalog'), name: 'CatalogRoute', firstScreen: true },
  { path: paths.product.path, load: () => import('./routes/product'), name: 'ProductRoute' },
  { path: paths.cart.path, load: () => import('./routes/cart'), name: 'CartRoute' },
  { path: paths.checkout.path, load: () => import('./routes/cart'), name: 'CheckoutRoute' },
  { path: paths.orders.path, load: () => import('./routes/orders'), name: 'OrdersRoute' },
  { path: paths.order.path, load: () => import('./routes/orders'), name: 'OrderRoute' },
  { path: paths.credits.path, load: () => import('./routes/credits'), name: 'CreditsRoute' },
  { path: paths.login.path, load: () => import('./routes/auth'), name: 'LoginRoute' },
  { path: paths.register.path, load: () => import('./routes/auth'), name: 'RegisterRoute' },
  { path: paths.forgot.path, load: () => import('./routes/auth'), name: 'ForgotRoute' },
  { path: paths.reset.path, load: () => import('./routes/auth'), name: 'ResetRoute' },
  { path: paths.confirm.path, load: () => import('./routes/auth'), name: 'ConfirmRoute' },
  { path: paths.profile.path, load: () => import('./routes/profile'), name: 'ProfileRoute' },
  { path: paths.goodbye.path, load: () => import('./routes/auth'), name: 'GoodbyeRoute' },
  { path: paths.socialFinish.path, load: () => import('./routes/auth'), name: 'SocialFinishRoute' },
  { path: paths.socialLink.path, load: () => import('./routes/auth'), name: 'SocialLinkRoute' },
  { path: paths.files.path, load: () => import('./routes/files'), name: 'FilesRoute' },
  { path: paths.admin.path, load: () => import('./routes/admin'), name: 'AdminRoute' },
  { path: '*', load: () => import('./routes/not-found'), name: 'NotFoundRoute' },
];

/** First-screen pages whose chunk has loaded, by path: the router renders them without suspending. */
const loaded = new Map<string, Record<string, ComponentType>>();

/**
 * Starts loading the chunk of the page being opened at once, in parallel with React's start,
 * instead of after the first render asks for it (one round trip less before the first screen).
 * Answers once it has loaded (or failed to: the page's own render then tries again and shows the
 * failure). A first-screen page loaded before the first render is rendered with it, in the same
 * pass: a lazy page suspends that render even when its chunk is there, and React then draws the
 * page in a second render and commit, held back 300 ms after the first.
 */
export async function preloadPage(pathname: string): Promise<void> {
  const hit = routes.find((r) => r.path !== '*' && matchPath(r.path, pathname)) ?? routes[routes.length - 1];
  if (!hit) return;
  if (!hit.firstScreen) preloadScreenTexts();
  try {
    const module = await hit.load();
    if (hit.firstScreen) loaded.set(hit.path, module);
  } catch {
    // The render's own import says it.
  }
}

export function AppRouter() {
  const { i18n } = useTranslation();
  const pages = useMemo(
    () =>
      routes.map((r) => ({
        path: r.path,
        Component:
          (loaded.get(r.path)?.[r.name] as ComponentType | undefined) ??
          lazy(async () => {
            const [module] = await Promise.all([r.load(), r.firstScreen ? undefined : loadScreenTexts(i18n)]);
            return { default: module[r.name] as ComponentType };
          }),
      })),
    [i18n],
  );
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<Layout />}>
          {pages.map(({ path, Component }) => (
            <Route key={path} path={path} element={<Component />} />
          ))}
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
