import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@/components/data-table';
import { EmptyState, ErrorState, LoadingState } from '@/components/states';
import { formatDate } from '@/lib/format';
import type { CreditEntry } from '@till/protocol';
import { useCredits } from '../api/credits-api';

/** The balance and every move that made it. */
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
        <DataTable<CreditEntry>
          label={t('credits.history')}
          rows={query.data.entries}
          rowKey={(e) => e.id}
          columns={[
            { key: 'date', header: t('credits.date'), render: (e) => formatDate(e.createdAt, i18n.language) },
            {
              key: 'reason',
              header: t('credits.reason'),
              render: (e) =>
                t(`credits.reasons.${e.reason}`, { defaultValue: e.reason }) + (e.reference ? ` (${e.reference})` : ''),
            },
            {
              key: 'delta',
              header: t('credits.change'),
              render: (e) => (e.amount > 0 ? `+${e.amount}` : String(e.amount)),
            },
            { key: 'after', header: t('credits.after'), render: (e) => e.balanceAfter, hideOnPhone: true },
          ]}
        />
      ) : (
        <EmptyState title={t('credits.noHistory')} />
      )}
    </>
  );
}
