import Alert from '@mui/material/Alert';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n-react';
import { Code } from '@till/protocol';
import { ErrorState, LoadingState } from '@/components/states';
import { codeOf } from '@/lib/api-error';
import { useTill } from '@/lib/till';
import { confirmEmail } from '../api/auth-api';

/**
 * Confirms the address of a mailed link. A query rather than an effect, so that the token is sent
 * once even when React mounts the page twice: the link is single use.
 */
export function ConfirmEmail({ confirmToken, onConfirmed }: { confirmToken: string; onConfirmed?: () => void }) {
  const { t } = useTranslation();
  const till = useTill();
  const query = useQuery({
    queryKey: ['confirm-email', confirmToken],
    queryFn: async () => {
      const res = await confirmEmail(till, confirmToken);
      onConfirmed?.();
      return res;
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  if (query.isPending) return <LoadingState label={t('auth.confirming')} />;
  if (query.isError) {
    if (codeOf(query.error) === Code.BadLinkToken) {
      return (
        <Alert severity="error" role="alert">
          {t('auth.confirmBadLink')}
        </Alert>
      );
    }
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  return (
    <Alert severity="success" role="status">
      {t('auth.confirmed')}
    </Alert>
  );
}
