import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from '@/lib/i18n-react';
import { OrderStatus, ProductType, type Money, type Order, type Provider } from '@till/protocol';
import { PaymentRouteChoice } from '@/components/payment-route-choice';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { ApiError, codeOf, isApiError } from '@/lib/api-error';
import {
  goToPayment,
  isInAppRoute,
  opensInFrame,
  payOutsideApp,
  routesForPlatform,
  type PaymentPage,
} from '@/lib/payment';
import { storeKeys } from '@/lib/store-queries';
import { useTill } from '@/lib/till';
import { getPlatform, isNativeShell } from '@/platform/platform';
import type { Platform } from '@/platform/types';
import { useInAppStore, type InAppOffer } from '@/platform/use-in-app-store';
import { checkout, payWithCredits, useCheckoutForm, useCheckoutPreview } from '../api/checkout-api';
import { useCart } from '../hooks/use-cart';
import { CheckoutSummary, type SummaryLine } from './checkout-summary';
import { CouponField } from './coupon-field';
import { useCouponText, type CouponLine } from './coupon-status';

/**
 * Coupon, payment route and the Buy button. An anonymous buyer's call is held by the SDK until
 * sign-in (`onNeedSignIn` opens the sign-in over this page) and then carries on by itself.
 *
 * After the order is made, the buyer goes to the provider's page (same window), or, for a page
 * that opens in a frame on this screen, to the order page with that page to show (`onPayInFrame`);
 * an order paid at once (credits, a zero total) goes to `onPaid`. The cart is kept until the
 * order is paid: see `CartStore`. In the phone app the platform's in-app store is a route of its
 * own where it is available and the server verifies it, and the web routes are offered only when
 * the server shows them in the apps (`routesForPlatform`); a purchase in the store is verified by
 * the server and ends on the orders page (`onPaidInApp`).
 */
export function CheckoutPanel({
  signedIn,
  initialCoupon = '',
  redeemHref,
  onNeedSignIn,
  onPaid,
  onPayInFrame,
  onPaidInApp,
  storeHref,
}: {
  signedIn: boolean;
  /** A coupon code to apply from the start (one brought from elsewhere, such as the Credits page). */
  initialCoupon?: string;
  /** Where a coupon that grants credits or products is redeemed, with its code filled in. */
  redeemHref?: (code: string) => string;
  /** Where the catalog is: an empty checkout leads back to it. */
  storeHref?: string;
  onNeedSignIn: () => void;
  onPaid: (order: Order) => void;
  onPayInFrame: (order: Order, payment: PaymentPage) => void;
  onPaidInApp: () => void;
}) {
  const { t } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const couponText = useCouponText();
  const { lines, store } = useCart();
  const form = useCheckoutForm(lines);
  // The code the buyer applied; the server's summary says whether it can be used.
  const [applied, setApplied] = useState(initialCoupon.trim().toUpperCase());
  const preview = useCheckoutPreview(lines, applied, signedIn);
  // Only a coupon the server accepted for this cart goes with the purchase: the total shown is
  // the total charged.
  const couponCode = !signedIn ? applied : preview.data?.coupon && !preview.isPlaceholderData ? applied : '';
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Provider | null>(null);
  const inAppStore = useInAppStore();
  // The browser's platform is known at once (no store, every web route); the shell's once loaded.
  const [platform, setPlatform] = useState<Platform | null>(null);
  // The route chosen last time is kept in a config file and offered first again.
  useEffect(() => {
    let live = true;
    void getPlatform().then(async (p) => {
      if (!live) return;
      setPlatform(p);
      const saved = await p.readConfig<{ provider?: Provider }>('checkout', {});
      if (live && saved.provider) setChosen((current) => current ?? saved.provider ?? null);
    });
    return () => {
      live = false;
    };
  }, []);
  const choose = (provider: Provider) => {
    setChosen(provider);
    void getPlatform().then((p) => p.writeConfig('checkout', { provider }));
  };

  const buyInApp = useMutation({
    mutationFn: async () => {
      if (!platform || !form.data) throw new Error('The checkout is not ready');
      const products = new Map(form.data.products.map((p) => [p.id, p]));
      const wanted = lines.flatMap((l) => {
        const product = products.get(l.id);
        return product ? [{ product, quantity: l.quantity }] : [];
      });
      return { wanted, result: await platform.buyInApp(wanted, till.store) };
    },
    onSuccess: ({ wanted, result }) => {
      // Only what the store sold and the server verified leaves the cart: a purchase that stops
      // half way (cancelled, refused) keeps the units still to buy.
      for (const { product, quantity } of wanted) {
        const bought = result.bought[product.id] ?? 0;
        if (bought) store.setQuantity(product.id, quantity - bought);
      }
      if (Object.keys(result.bought).length) void queryClient.invalidateQueries({ queryKey: storeKeys.all });
      if (result.message.type === 'finished') onPaidInApp();
    },
  });

  const buy = useMutation({
    mutationFn: async (provider: Provider) => {
      if (provider === 'credits')
        return { order: (await payWithCredits(till, lines, couponCode)).order, payment: null };
      return checkout(till, lines, couponCode, provider);
    },
    onSuccess: ({ order, payment }) => {
      if (order.status === OrderStatus.Paid || !payment) {
        store.clear();
        onPaid(order);
        return;
      }
      store.checkedOut(order.iden);
      if (opensInFrame(payment)) onPayInFrame(order, payment);
      else if (!payOutsideApp(payment, platform, () => onPaid(order))) goToPayment(payment);
    },
  });

  if (!lines.length)
    return (
      <EmptyState title={t('cart.empty')}>
        {storeHref ? (
          <Button component={RouterLink} to={storeHref} variant="contained">
            {t('cart.browse')}
          </Button>
        ) : null}
      </EmptyState>
    );
  if (form.isPending) return <LoadingState />;
  if (form.isError) return <ErrorState error={form.error} onRetry={() => void form.refetch()} />;
  // Credits are always a route of their own (payWithCredits) when every product has a credit price.
  const creditTotal = lines.reduce(
    (sum, l) => {
      const price = form.data.products.find((p) => p.id === l.id)?.creditPrice;
      return price == null || sum === null ? null : sum + price * l.quantity;
    },
    0 as number | null,
  );
  const offered = form.data.providers.map((p) => p.provider);
  const all: Provider[] = creditTotal !== null && !offered.includes('credits') ? [...offered, 'credits'] : offered;
  // Until the shell's platform has loaded no route is offered there, so that a web route never
  // flashes up inside the apps.
  const providers =
    platform || !isNativeShell()
      ? routesForPlatform(all, form.data.app, {
          kind: platform?.kind ?? 'web',
          inAppStore: platform?.inAppStore() ?? null,
        })
      : [];
  const provider = chosen && providers.includes(chosen) ? chosen : (providers[0] ?? null);

  let couponLine: CouponLine | null = null;
  if (applied && !signedIn) couponLine = { text: t('coupon.afterSignIn'), tone: 'info' };
  else if (applied && preview.isFetching) couponLine = { text: t('coupon.checking'), tone: 'info' };
  else if (applied && preview.data?.couponRefused === 'grant_coupon')
    // Not a discount: it gives credits or products, which the Credits page redeems.
    couponLine = {
      text: t('reasons.908.grant_coupon', { code: applied }),
      tone: 'info',
      ...(redeemHref ? { link: { to: redeemHref(applied), label: t('coupon.redeemThere', { code: applied }) } } : {}),
    };
  else if (applied && preview.data?.couponRefused)
    // What is wrong with it (the failure's own text, as everywhere), then what to do here: advice of
    // its own where the cart can meet the coupon (later, other products, a larger total), else removing it.
    couponLine = {
      text: `${t([`reasons.908.${preview.data.couponRefused}`, 'errors.908'], { code: applied })} ${t([`coupon.advice.${preview.data.couponRefused}`, 'coupon.removeToBuy'])}`,
      tone: 'error',
    };
  else if (applied && preview.data?.coupon) couponLine = { text: couponText(preview.data.coupon), tone: 'ok' };

  // The summary: the server's preview for a signed-in buyer; before sign-in, the checkout form's
  // prices by the cart's quantities and its total (no coupon can be checked yet).
  const byId = new Map(form.data.products.map((p) => [p.id, p]));
  const summary: {
    lines: SummaryLine[];
    subtotal: Money | null;
    discount: Money | null;
    total: Money | null;
  } = preview.data
    ? {
        lines: preview.data.lines,
        subtotal: preview.data.subtotal,
        discount: preview.data.discount,
        total: preview.data.total,
      }
    : {
        lines: lines.map((l) => {
          const product = byId.get(l.id);
          return {
            productId: l.id,
            title: product?.title ?? l.id,
            quantity: l.quantity,
            amount: product?.price ? { ...product.price, amount: product.price.amount * l.quantity } : null,
          };
        }),
        subtotal: form.data.total,
        discount: null,
        total: form.data.total,
      };
  // Paid in the app's store, the cart costs what that store charges: its own price for each line
  // (the buyer's currency and locale) and their sum; a product it does not offer is named with why.
  const inApp = provider && isInAppRoute(provider) && inAppStore ? inAppStore : null;
  const offers = new Map<string, InAppOffer>();
  if (inApp)
    for (const l of lines) {
      const product = byId.get(l.id);
      if (product) offers.set(l.id, inApp.offer(product));
    }
  const notOffered = [...offers].flatMap(([id, offer]) =>
    offer.status === 'offered' ? [] : [{ title: byId.get(id)?.title ?? id, status: offer.status }],
  );
  if (inApp) {
    const storeLines = summary.lines.map((line) => {
      const offer = offers.get(line.productId);
      if (offer?.status !== 'offered') return { ...line, amount: null };
      const amount = offer.money ? { ...offer.money, amount: offer.money.amount * line.quantity } : null;
      return { ...line, amount, ...(line.quantity === 1 && offer.price ? { price: offer.price } : {}) };
    });
    const amounts = storeLines.map((l) => l.amount);
    const currency = amounts[0]?.currency;
    const total =
      amounts.length && amounts.every((a) => a && a.currency === currency)
        ? { amount: amounts.reduce((sum, a) => sum + (a?.amount ?? 0), 0), currency: currency ?? '' }
        : null;
    summary.lines = storeLines;
    summary.subtotal = total;
    summary.discount = null;
    summary.total = total;
  }
  const owned = summary.lines.filter((l) => l.owned);
  // The app stores sell a non-consumable or a subscription once per buyer: more than one of it in
  // the cart cannot be bought there.
  const onlyOnce =
    provider && isInAppRoute(provider)
      ? lines.flatMap((l) => {
          const product = byId.get(l.id);
          return product && l.quantity > 1 && product.type !== ProductType.Consumable ? [product] : [];
        })
      : [];

  const buyError = (error: unknown): string => {
    const body = error instanceof ApiError ? error.body : undefined;
    switch (codeOf(error)) {
      case 909:
        return t('checkout.notEnoughCredits', { balance: body?.balance ?? 0, required: body?.required ?? 0 });
      case 910:
        // The provider refused to start the payment: the cart is still here, another route may work.
        return t('checkout.declined');
      default:
        // 907 `owned`, 908 with its reason and the rest: the message that says what to do.
        return body?.reason?.startsWith('queue_') ? t('checkout.signInNeeded') : errorMessage(error);
    }
  };

  const onBuy = () => {
    if (!provider) return;
    if (isInAppRoute(provider)) {
      buyInApp.mutate();
      return;
    }
    buy.mutate(provider);
    if (!signedIn) onNeedSignIn();
  };

  return (
    <Box component="section" aria-label={t('checkout.title')}>
      <CheckoutSummary
        lines={summary.lines}
        subtotal={summary.subtotal}
        discount={summary.discount}
        couponCode={preview.data?.coupon ? applied : null}
        total={summary.total}
        onRemove={(id) => store.remove(id)}
      />
      {/* A cart with a credits-only product has no money total to preview: it is paid with credits. */}
      {preview.isError && !(isApiError(preview.error, 907) && preview.error.body.reason === 'no_price') ? (
        <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />
      ) : null}
      <CouponField applied={applied} onApply={setApplied} onRemove={() => setApplied('')} status={couponLine} />
      <Box sx={{ mt: 2 }}>
        {providers.length ? (
          <PaymentRouteChoice
            legend={t('checkout.payWith')}
            routes={providers.map((p) =>
              p === 'credits'
                ? {
                    provider: p,
                    name: `${t('providers.credits')} (${t('store.credits', { count: creditTotal ?? 0 })})`,
                  }
                : { provider: p },
            )}
            value={provider}
            onChange={choose}
          />
        ) : (
          <Alert severity="warning">{t('checkout.noRoutes')}</Alert>
        )}
      </Box>
      {/* Once the summary flags what the buyer owns, the server's refusal of it would say it twice. */}
      {buy.isError && !(owned.length && isApiError(buy.error, 907) && buy.error.body.reason === 'owned') ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {buyError(buy.error)}
        </Alert>
      ) : null}
      {buyInApp.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {errorMessage(buyInApp.error)}
        </Alert>
      ) : null}
      {buyInApp.data && buyInApp.data.result.message.type !== 'finished' ? (
        <Alert
          severity={buyInApp.data.result.message.type === 'cancelled' ? 'info' : 'error'}
          role="alert"
          sx={{ mt: 2 }}
        >
          {buyInApp.data.result.message.type === 'cancelled' ? t('checkout.inAppCancelled') : t('checkout.inAppFailed')}
        </Alert>
      ) : null}
      {notOffered.length ? (
        <Box id="checkout-not-offered" sx={{ mt: 2 }}>
          {notOffered.map((p) => (
            <Typography key={p.title} color="warning.dark">
              {p.title}: {t(`store.inApp.${p.status}`)}
            </Typography>
          ))}
        </Box>
      ) : null}
      {onlyOnce.length ? (
        <Typography id="checkout-only-once" color="warning.dark" sx={{ mt: 2 }}>
          {t('checkout.inAppOnlyOnce', { titles: onlyOnce.map((p) => p.title).join(', ') })}
        </Typography>
      ) : null}
      {buy.isPending && !signedIn ? (
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('checkout.waitingForSignIn')}
        </Alert>
      ) : null}
      {/* The summary's line already says it is owned, with its Remove; this tells a screen reader why Buy is off. */}
      {owned.length ? (
        <Typography
          id="checkout-blocked"
          sx={{
            position: 'absolute',
            width: '1px',
            height: '1px',
            overflow: 'hidden',
            clipPath: 'inset(50%)',
            whiteSpace: 'nowrap',
          }}
        >
          {t('checkout.summary.ownedBlocked')}
        </Typography>
      ) : null}
      <Button
        variant="contained"
        size="large"
        fullWidth
        sx={{ mt: 3 }}
        disabled={
          !provider ||
          owned.length > 0 ||
          onlyOnce.length > 0 ||
          notOffered.length > 0 ||
          (buy.isPending && signedIn) ||
          buyInApp.isPending
        }
        aria-describedby={
          owned.length
            ? 'checkout-blocked'
            : notOffered.length
              ? 'checkout-not-offered'
              : onlyOnce.length
                ? 'checkout-only-once'
                : undefined
        }
        onClick={onBuy}
      >
        {(buy.isPending && signedIn) || buyInApp.isPending ? t('checkout.working') : t('checkout.buy')}
      </Button>
    </Box>
  );
}
