import { lazy, type ComponentType } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { Layout } from './layout';
import { paths } from './paths';

// Every page is its own chunk: the first screen loads the catalog only, never admin, files or
// profile. The declarative router is used on purpose: the data router's loaders and actions are
// not needed (TanStack Query holds server state) and would weigh on the first screen.
const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const CatalogRoute = page(() => import('./routes/store'), 'CatalogRoute');
const ProductRoute = page(() => import('./routes/store'), 'ProductRoute');
const CartRoute = page(() => import('./routes/cart'), 'CartRoute');
const CheckoutRoute = page(() => import('./routes/cart'), 'CheckoutRoute');
const OrdersRoute = page(() => import('./routes/orders'), 'OrdersRoute');
const OrderRoute = page(() => import('./routes/orders'), 'OrderRoute');
const CreditsRoute = page(() => import('./routes/credits'), 'CreditsRoute');
const LoginRoute = page(() => import('./routes/auth'), 'LoginRoute');
const RegisterRoute = page(() => import('./routes/auth'), 'RegisterRoute');
const ForgotRoute = page(() => import('./routes/auth'), 'ForgotRoute');
const ResetRoute = page(() => import('./routes/auth'), 'ResetRoute');
const ConfirmRoute = page(() => import('./routes/auth'), 'ConfirmRoute');
const ProfileRoute = page(() => import('./routes/profile'), 'ProfileRoute');
const FilesRoute = page(() => import('./routes/files'), 'FilesRoute');
const AdminRoute = page(() => import('./routes/admin'), 'AdminRoute');
const NotFoundRoute = page(() => import('./routes/not-found'), 'NotFoundRoute');

export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<Layout />}>
          <Route path={paths.home.path} element={<CatalogRoute />} />
          <Route path={paths.product.path} element={<ProductRoute />} />
          <Route path={paths.cart.path} element={<CartRoute />} />
          <Route path={paths.checkout.path} element={<CheckoutRoute />} />
          <Route path={paths.orders.path} element={<OrdersRoute />} />
          <Route path={paths.order.path} element={<OrderRoute />} />
          <Route path={paths.credits.path} element={<CreditsRoute />} />
          <Route path={paths.login.path} element={<LoginRoute />} />
          <Route path={paths.register.path} element={<RegisterRoute />} />
          <Route path={paths.forgot.path} element={<ForgotRoute />} />
          <Route path={paths.reset.path} element={<ResetRoute />} />
          <Route path={paths.confirm.path} element={<ConfirmRoute />} />
          <Route path={paths.profile.path} element={<ProfileRoute />} />
          <Route path={paths.files.path} element={<FilesRoute />} />
          <Route path={paths.admin.path} element={<AdminRoute />} />
          <Route path="*" element={<NotFoundRoute />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
