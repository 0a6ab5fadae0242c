import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { Order } from '@till/protocol';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useErrorMessage } from '@/components/states';
import { formatDate } from '@/lib/format';
import { useTill } from '@/lib/till';
import { endSubscription, orderChanged } from '../api/orders-api';

/** "Renews on …" or "Subscribed until …" for an order that started a subscription; null otherwise. */
export function useSubscriptionLine() {
  const { t, i18n } = useTranslation();
  return (order: Order): string | null => {
    const s = order.subscription;
    if (!s?.until) return null;
    return t(s.renews ? 'store.renewsOn' : 'store.subscribedUntil', { date: formatDate(s.until, i18n.language) });
  };
}

/**
 * Where the subscription a paid order started stands, and how to stop it renewing: on the card
 * route here (after asking; it then runs until the period's end), in the App Store or Google Play
 * in the store's own subscription settings.
 */
export function OrderSubscription({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const line = useSubscriptionLine();
  const [asking, setAsking] = useState(false);
  const stop = useMutation({
    mutationFn: () => endSubscription(till, order.iden),
    onSuccess: (updated) => {
      setAsking(false);
      orderChanged(client, updated);
    },
  });
  const s = order.subscription;
  const text = line(order);
  if (!s || !text) return null;
  const date = formatDate(s.until, i18n.language);
  return (
    <Box component="section" aria-label={text} sx={{ mb: 2 }}>
      <Typography sx={{ fontWeight: 600, mb: 1 }} data-testid="subscription-line">
        {text}
      </Typography>
      {stop.error ? (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {errorMessage(stop.error)}
        </Alert>
      ) : null}
      {s.manage === 'cancel' ? (
        <Button variant="outlined" color="warning" onClick={() => setAsking(true)} disabled={stop.isPending}>
          {t('subscriptions.stop')}
        </Button>
      ) : s.manage === 'store' && s.manageUrl ? (
        <Link href={s.manageUrl} target="_blank" rel="noopener noreferrer">
          {t(order.provider === 'googleplay' ? 'subscriptions.manageGoogleplay' : 'subscriptions.manageAppstore')}
        </Link>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={t('subscriptions.stopTitle')}
        text={t('subscriptions.stopText', { date })}
        confirmLabel={t('subscriptions.stopConfirm')}
        cancelLabel={t('subscriptions.keep')}
        busy={stop.isPending}
        onConfirm={() => stop.mutate()}
        onClose={() => setAsking(false)}
      />
    </Box>
  );
}
