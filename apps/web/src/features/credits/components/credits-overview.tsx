import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { TFunction } from '@/lib/translator';
import { useTranslation } from '@/lib/i18n-react';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatDate } from '@/lib/format';
import { orderRef } from '@/lib/order-ref';
import type { CreditEntry } from '@till/protocol';
import { useCredits } from '../api/credits-api';

/**
 * What a move of credits was, in the buyer's words: a purchase or refund names its order by its
 * short reference, a coupon by its code, a correction as the shop's (with its note, never who).
 */
export function creditEntryText(t: TFunction, e: CreditEntry): string {
  const what = t(`credits.reasons.${e.reason}`, { defaultValue: t('credits.reasons.adjustment') });
  if (e.reason === 'adjustment')
    return e.reference ? `${t('credits.correction')}: ${e.reference}` : t('credits.correction');
  if (!e.reference) return what;
  if (e.reason === 'coupon') return `${what} · ${t('credits.couponCode', { code: e.reference })}`;
  return `${what} · ${t('credits.order', { ref: orderRef(e.reference) })}`;
}

/** The balance and every move that made it, as rows that keep the change in view at any width. */
export function CreditsOverview() {
  const { t, i18n } = useTranslation();
  const query = useCredits();
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <>
      <Card variant="outlined" sx={{ mb: 3 }}>
        <CardContent>
          <Typography color="text.secondary">{t('credits.balance')}</Typography>
          <Typography variant="h3" component="p" data-testid="credit-balance">
            {query.data.balance}
          </Typography>
        </CardContent>
      </Card>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('credits.history')}
      </Typography>
      {query.data.entries.length ? (
        <Paper
          variant="outlined"
          component="ul"
          aria-label={t('credits.history')}
          sx={{ listStyle: 'none', p: 0, m: 0 }}
        >
          {query.data.entries.map((e, i) => (
            <Box
              component="li"
              key={e.id}
              sx={{
                display: 'flex',
                gap: 2,
                alignItems: 'center',
                px: 2,
                py: 1.5,
                borderTop: i ? 1 : 0,
                borderColor: 'divider',
              }}
            >
              <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography sx={{ overflowWrap: 'anywhere' }}>{creditEntryText(t, e)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {formatDate(e.createdAt, i18n.language)}
                </Typography>
              </Box>
              <Box sx={{ textAlign: 'right', flexShrink: 0 }}>
                <Typography sx={{ fontWeight: 600 }} color={e.amount > 0 ? 'success.dark' : 'text.primary'}>
                  {e.amount > 0 ? `+${e.amount}` : `−${Math.abs(e.amount)}`}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('credits.after')}: {e.balanceAfter}
                </Typography>
              </Box>
            </Box>
          ))}
        </Paper>
      ) : (
        <EmptyState title={t('credits.noHistory')} />
      )}
    </>
  );
}
