import { useProducts } from '@/features/store/api/store-api';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { Order } from '@till/protocol';
import { Page } from '@/components/page';
import { useCart } from '@/features/cart/hooks/use-cart';
import { OrderList } from '@/features/orders/components/order-list';
import { RestorePurchases } from '@/features/orders/components/restore-purchases';
import { OrderView } from '@/features/orders/components/order-view';
import { orderRef } from '@/lib/order-ref';
import { framedPaymentFrom } from '@/lib/payment';
import { RequireAuth } from '../require-auth';
import { paths } from '../paths';

/**
 * One order. The checkout may hand it a payment page to show in a frame (router state); it is
 * taken once and dropped from the history entry, so that a reload or a step back does not open
 * it again. The cart checked out as this order is emptied once the order is paid; a failed or
 * cancelled order's items go back in the cart for a new checkout (or, still there, are checked out again).
 */
export function OrderRoute() {
  const { t } = useTranslation();
  const { iden = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { store: cart, lines } = useCart();
  const [framed] = useState(() => framedPaymentFrom(location.state));
  useEffect(() => {
    if (framedPaymentFrom(location.state))
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
  }, [location, navigate]);
  const onPaid = useCallback((order: Order) => cart.orderPaid(order.iden), [cart]);
  const onOrderAgain = useCallback(
    (order: Order) => {
      cart.restore(order.items.map((i) => ({ id: i.productId, quantity: i.quantity })));
      void navigate(paths.checkout.href());
    },
    [cart, navigate],
  );
  // A declined payment leaves the cart as it was: nothing to put back then, only a way back to it.
  const inCart = useCallback(
    (order: Order) => order.items.every((i) => lines.some((l) => l.id === i.productId && l.quantity >= i.quantity)),
    [lines],
  );
  return (
    <RequireAuth>
      <Page title={t('orders.ref', { ref: orderRef(iden) })} narrow>
        <OrderView key={iden} iden={iden} framed={framed} onPaid={onPaid} onOrderAgain={onOrderAgain} inCart={inCart} />
      </Page>
    </RequireAuth>
  );
}

export function OrdersRoute() {
  const { t } = useTranslation();
  const products = useProducts();
  return (
    <RequireAuth>
      <Page title={t('orders.title')}>
        <RestorePurchases products={products.data} />
        <OrderList orderHref={paths.order.href} />
      </Page>
    </RequireAuth>
  );
}
