import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { useState } from 'react';
import { LoadingState } from '@/components/states';
import { Layout } from './layout';
import { paths } from './paths';

// Every page is its own chunk: the first screen loads the catalog only, never admin, files or profile.
const page = <K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K) => ({
  lazy: async () => ({ Component: (await load())[name] }),
});

export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <Layout />,
      hydrateFallbackElement: <LoadingState />,
      children: [
        { path: paths.home.path, ...page(() => import('./routes/store'), 'CatalogRoute') },
        { path: paths.product.path, ...page(() => import('./routes/store'), 'ProductRoute') },
        { path: paths.cart.path, ...page(() => import('./routes/cart'), 'CartRoute') },
        { path: paths.checkout.path, ...page(() => import('./routes/cart'), 'CheckoutRoute') },
        { path: paths.orders.path, ...page(() => import('./routes/orders'), 'OrdersRoute') },
        { path: paths.order.path, ...page(() => import('./routes/orders'), 'OrderRoute') },
        { path: paths.credits.path, ...page(() => import('./routes/credits'), 'CreditsRoute') },
        { path: paths.login.path, ...page(() => import('./routes/auth'), 'LoginRoute') },
        { path: paths.register.path, ...page(() => import('./routes/auth'), 'RegisterRoute') },
        { path: paths.forgot.path, ...page(() => import('./routes/auth'), 'ForgotRoute') },
        { path: paths.reset.path, ...page(() => import('./routes/auth'), 'ResetRoute') },
        { path: paths.confirm.path, ...page(() => import('./routes/auth'), 'ConfirmRoute') },
        { path: paths.profile.path, ...page(() => import('./routes/profile'), 'ProfileRoute') },
        { path: paths.files.path, ...page(() => import('./routes/files'), 'FilesRoute') },
        { path: paths.admin.path, ...page(() => import('./routes/admin'), 'AdminRoute') },
        { path: '*', ...page(() => import('./routes/not-found'), 'NotFoundRoute') },
      ],
    },
  ]);
}

export function AppRouter() {
  const [router] = useState(createAppRouter);
  return <RouterProvider router={router} />;
}
