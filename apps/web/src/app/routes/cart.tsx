import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Page } from '@/components/page';
import { LoginDialog } from '@/features/auth/components/login-dialog';
import { CartView } from '@/features/cart/components/cart-view';
import { CheckoutPanel } from '@/features/cart/components/checkout-panel';
import { useSession, useTill } from '@/lib/till';
import { paths } from '../paths';

export function CartRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('cart.title')}>
      <CartView checkoutHref={paths.checkout.href()} storeHref={paths.home.href()} />
    </Page>
  );
}

/**
 * Checkout. An anonymous buyer who presses Buy signs in over this page; the SDK holds the purchase
 * call meanwhile and sends it once signed in, so the purchase carries on. Closing the sign-in
 * drops the held call.
 */
export function CheckoutRoute() {
  const { t } = useTranslation();
  const till = useTill();
  const session = useSession();
  const navigate = useNavigate();
  const [signIn, setSignIn] = useState(false);
  const [search] = useSearchParams();
  return (
    <Page title={t('checkout.title')} narrow>
      <CheckoutPanel
        signedIn={session.loggedIn}
        initialCoupon={search.get('coupon') ?? ''}
        redeemHref={(code) => paths.credits.href(code)}
        storeHref={paths.home.href()}
        onNeedSignIn={() => setSignIn(true)}
        onPaid={(order) => void navigate(paths.order.href(order.iden))}
        onPaidInApp={() => void navigate(paths.orders.href())}
        // The order page opens the frame and follows the order while it is open.
        onPayInFrame={(order, payment) => void navigate(paths.order.href(order.iden), { state: { payment } })}
      />
      <LoginDialog
        open={signIn && !session.loggedIn}
        registerHref={paths.register.href()}
        onSignedIn={() => setSignIn(false)}
        onClose={() => {
          setSignIn(false);
          till.queue.clear();
        }}
      />
    </Page>
  );
}
