import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { OrderStatus, ProductType, type Order, type Product, type Provider } from '@till/protocol';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PaymentFrameDialog } from '@/components/payment-frame';
import { PaymentRouteChoice } from '@/components/payment-route-choice';
import { OrderItemsTable } from '@/components/order-items-table';
import { ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { codeOf } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { orderRef } from '@/lib/order-ref';
import { goToPayment, opensInFrame, payOutsideApp, type PaymentPage } from '@/lib/payment';
import { useTill } from '@/lib/till';
import { getPlatform, isNativeShell } from '@/platform/platform';
import { cancelOrder, orderChanged, payAgain, useCatalog, useOrder, usePaymentRoutes } from '../api/orders-api';
import { OrderRefunds } from './order-refunds';
import { OrderSubscription } from './order-subscription';
import { isPartlyRefunded, OrderStatusChip } from './order-status-chip';

/** What a paid order gave the buyer, line by line. */
function useGrants() {
  const { t } = useTranslation();
  return (order: Order, catalog: readonly Product[] | undefined): string[] => {
    const byId = new Map((catalog ?? []).map((p) => [p.id, p]));
    return order.items.map((item) => {
      const product = byId.get(item.productId);
      const each = product?.grants.credits ?? 0;
      const credits = each * item.quantity;
      // "2 × 100 credits: 200 credits added, 100 each", never "200 credits (100 credits)".
      if (credits && item.quantity > 1)
        return t('orderLines.grantedCreditPacks', { count: credits, each, quantity: item.quantity, title: item.title });
      if (credits) return t('orderLines.grantedCredits', { count: credits, title: item.title });
      if (product?.type === ProductType.Subscription) return t('orders.grantedSubscription', { title: item.title });
      return t('orders.grantedProduct', { title: item.title });
    });
  };
}

/**
 * One order, watched until final, then what it granted.
 *
 * A pending order can be paid now, the same way or another (doCheckout with `pastOrder`), or
 * cancelled. A failed or cancelled one cannot be paid any more: `onOrderAgain` puts its items back
 * in the cart for a new checkout; when the cart still holds them all (`inCart`: a declined payment
 * leaves the cart as it was), the page says so and leads back to the checkout instead. `onPaid` hears once that the order is paid (the cart it was
 * checked out from is emptied then).
 *
 * A provider's page that opens in a frame (`framed`, handed over by the checkout, or asked for
 * here) is shown over the page while the order is pending; the poller keeps following the order,
 * and the frame closes by itself once the order is final. Closing it leaves the order pending.
 */
export function OrderView({
  iden,
  framed = null,
  onPaid,
  onOrderAgain,
  inCart,
}: {
  iden: string;
  framed?: PaymentPage | null;
  onPaid?: (order: Order) => void;
  onOrderAgain?: (order: Order) => void;
  /** Whether the cart holds every item of the order already, as many of each. */
  inCart?: (order: Order) => boolean;
}) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const order = useOrder(iden);
  const catalog = useCatalog();
  const routes = usePaymentRoutes(order.data);
  const grants = useGrants();
  const client = useQueryClient();
  const [frame, setFrame] = useState<PaymentPage | null>(framed);
  const [frameClosed, setFrameClosed] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [otherRoute, setOtherRoute] = useState<Provider | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const status = order.data?.status;

  const pay = useMutation({
    mutationFn: (provider: Provider) => payAgain(till, iden, provider),
    onSuccess: (data) => {
      // Another route moves the order to it: show the order as it now is.
      orderChanged(client, data.order);
      if (opensInFrame(data.payment)) {
        setFrameClosed(false);
        setFrame(data.payment);
      } else if (isNativeShell())
        // The order page stays, following the order, while the page is paid in the system browser.
        void getPlatform().then((p) => payOutsideApp(data.payment, p, () => undefined) || goToPayment(data.payment));
      else goToPayment(data.payment);
    },
  });
  const cancel = useMutation({
    mutationFn: () => cancelOrder(till, iden),
    onSuccess: (updated) => {
      setConfirmCancel(false);
      orderChanged(client, updated);
    },
  });

  const paidOnce = useRef<string | null>(null);
  useEffect(() => {
    if (status !== OrderStatus.Paid || !order.data || paidOnce.current === iden) return;
    paidOnce.current = iden;
    onPaid?.(order.data);
  }, [status, iden, order.data, onPaid]);

  if (order.isPending) return <LoadingState />;
  if (order.isError) return <ErrorState error={order.error} onRetry={() => void order.refetch()} />;
  const o = order.data;
  const lang = i18n.language;
  const pending = o.status === OrderStatus.Pending;
  const others: Provider[] = (routes.data ?? []).filter((p) => p !== o.provider);
  const chosenOther = otherRoute && others.includes(otherRoute) ? otherRoute : (others[0] ?? null);
  // Inside the phone apps an order is paid again only on a route the app offers (web routes are
  // hidden there unless the server shows them); the browser offers the order's own route always.
  const payHere = !isNativeShell() || Boolean(routes.data?.some((p) => p === o.provider));
  const actionError = pay.error ?? cancel.error;
  const stillInCart = inCart?.(o) ?? false;

  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }} role="status" aria-live="polite">
        <Typography component="span">{t('orders.statusLabel')}:</Typography>
        <OrderStatusChip order={o} />
        {pending && frame ? <CircularProgress size={18} aria-label={t('orders.waiting')} /> : null}
      </Box>
      {pending ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <Typography component="p">
            {o.provider === 'credits' || frame
              ? t('orders.checkingText', { provider: t(`providers.${o.provider}`, { defaultValue: o.provider }) })
              : t('orders.pendingText')}
          </Typography>
          {frameClosed ? (
            <Typography component="p" sx={{ mt: 1 }}>
              {t('orders.frameClosedText')}
            </Typography>
          ) : null}
        </Alert>
      ) : null}
      {o.status === OrderStatus.Paid ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          <Typography component="p" sx={{ fontWeight: 600 }}>
            {t('orders.paidText')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {grants(o, catalog.data).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </Box>
        </Alert>
      ) : null}
      {o.status === OrderStatus.Failed || o.status === OrderStatus.Cancelled ? (
        <Alert severity={o.status === OrderStatus.Failed ? 'error' : 'warning'} sx={{ mb: 2 }}>
          <Typography component="p">{t(`orders.${o.status}Text`)}</Typography>
          {onOrderAgain ? (
            <Typography component="p" sx={{ mt: 1 }}>
              {stillInCart ? t('orderLines.inCartText') : t('orders.orderAgainText')}
            </Typography>
          ) : null}
        </Alert>
      ) : null}
      {o.status === OrderStatus.Refunded ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('orders.refundedText')}
        </Alert>
      ) : isPartlyRefunded(o) ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('orderRefunds.partlyText')}
        </Alert>
      ) : null}
      {o.status === OrderStatus.Paid ? <OrderSubscription order={o} /> : null}
      <OrderRefunds order={o} />
      {(o.status === OrderStatus.Failed || o.status === OrderStatus.Cancelled) && onOrderAgain ? (
        <Button variant="contained" onClick={() => onOrderAgain(o)} sx={{ mb: 2 }}>
          {stillInCart ? t('orderLines.toCheckout') : t('orders.orderAgain')}
        </Button>
      ) : null}
      {pending && o.provider !== 'credits' ? (
        <Box component="section" aria-label={t('orders.payTitle')} sx={{ mb: 2 }}>
          {actionError ? (
            <Alert severity="error" role="alert" sx={{ mb: 1 }}>
              {codeOf(actionError) === 910 ? t('orders.declinedText') : errorMessage(actionError)}
            </Alert>
          ) : null}
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {payHere ? (
              <Button variant="contained" onClick={() => pay.mutate(o.provider)} disabled={pay.isPending}>
                {t('orders.payAgain')}
              </Button>
            ) : null}
            {others.length ? (
              <Button
                variant="outlined"
                onClick={() => setChoosing((c) => !c)}
                aria-expanded={choosing}
                aria-controls={`other-routes-${iden}`}
              >
                {t('orders.payAnotherWay')}
              </Button>
            ) : null}
            <Button color="warning" onClick={() => setConfirmCancel(true)} disabled={cancel.isPending}>
              {t('orders.cancel')}
            </Button>
          </Stack>
          {choosing && others.length ? (
            <Box id={`other-routes-${iden}`} sx={{ mt: 2 }}>
              <PaymentRouteChoice
                legend={t('orders.otherRoutes')}
                routes={others.map((provider) => ({ provider }))}
                value={chosenOther}
                onChange={setOtherRoute}
              />
              <Button
                variant="contained"
                sx={{ mt: 1 }}
                disabled={!chosenOther || pay.isPending}
                onClick={() => chosenOther && pay.mutate(chosenOther)}
              >
                {t('orders.payWith', {
                  provider: chosenOther ? t(`providers.${chosenOther}`, { defaultValue: chosenOther }) : '',
                })}
              </Button>
            </Box>
          ) : null}
        </Box>
      ) : null}
      <Divider />
      <OrderItemsTable order={o} />
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, mt: 2, '& dd': { m: 0 } }}
      >
        {/* "Paid with" only where money really moved; a pending order says how it is being paid. */}
        {o.paidAt && (o.status === OrderStatus.Paid || o.status === OrderStatus.Refunded) ? (
          <>
            <dt>{t('orders.paidWith')}</dt>
            <dd>{t(`providers.${o.provider}`, { defaultValue: o.provider })}</dd>
          </>
        ) : pending ? (
          <>
            <dt>{t('orders.willPayWith')}</dt>
            <dd>{t(`providers.${o.provider}`, { defaultValue: o.provider })}</dd>
          </>
        ) : null}
        <dt>{t('orders.created')}</dt>
        <dd>{formatDate(o.createdAt, lang)}</dd>
        {o.paidAt && (o.status === OrderStatus.Paid || o.status === OrderStatus.Refunded) ? (
          <>
            <dt>{t('orders.paidAt')}</dt>
            <dd>{formatDate(o.paidAt, lang)}</dd>
          </>
        ) : null}
      </Box>
      <ConfirmDialog
        open={confirmCancel && pending}
        title={t('orders.cancelTitle')}
        text={t('orders.cancelText', { ref: orderRef(o.iden) })}
        confirmLabel={t('orders.cancelConfirm')}
        cancelLabel={t('orders.keep')}
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onClose={() => setConfirmCancel(false)}
      />
      {/* A final order needs no payment page any more: paid, it shows what it granted instead. */}
      <PaymentFrameDialog
        payment={pending ? frame : null}
        onClose={() => {
          setFrame(null);
          setFrameClosed(true);
        }}
      />
    </Box>
  );
}
