import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n-react';
import { Link as RouterLink } from 'react-router-dom';
import { Code } from '@till/protocol';
import { ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { codeOf, isApiError } from '@/lib/api-error';
import { useTill } from '@/lib/till';
import { confirmEmail, resendConfirmation } from '../api/auth-api';

/**
 * A confirmation link that no longer works: why, and a new one. Signed in, the new link is sent from
 * here; signed out, the way is through signing in (`signInHref` comes back here).
 */
function NewConfirmationLink({ signedIn, signInHref }: { signedIn: boolean; signInHref: string }) {
  const { t } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const resend = useMutation({ mutationFn: () => resendConfirmation(till) });
  return (
    <Box>
      <Alert severity="error" role="alert" sx={{ mb: 2 }}>
        {t('auth.confirmBadLink')}
      </Alert>
      {resend.isSuccess ? (
        <Alert severity="success" role="status">
          {t('auth.resent')}
        </Alert>
      ) : isApiError(resend.error, Code.Conflict) ? (
        <Alert severity="success" role="status">
          {t('auth.confirmAlready')}
        </Alert>
      ) : (
        <>
          {resend.isError ? (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              {errorMessage(resend.error)}
            </Alert>
          ) : null}
          {signedIn ? (
            <Button variant="contained" onClick={() => resend.mutate()} disabled={resend.isPending}>
              {t('auth.newLink')}
            </Button>
          ) : (
            <Button variant="contained" component={RouterLink} to={signInHref}>
              {t('auth.signInForNewLink')}
            </Button>
          )}
        </>
      )}
    </Box>
  );
}

/**
 * Confirms the address of a mailed link. A query rather than an effect, so that the token is sent
 * once even when React mounts the page twice: the link is single use.
 */
export function ConfirmEmail({
  confirmToken,
  onConfirmed,
  signedIn,
  signInHref,
}: {
  confirmToken: string;
  onConfirmed?: () => void;
  signedIn: boolean;
  signInHref: string;
}) {
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
    if (codeOf(query.error) === Code.BadLinkToken)
      return <NewConfirmationLink signedIn={signedIn} signInHref={signInHref} />;
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  return (
    <Alert severity="success" role="status">
      {t('auth.confirmed')}
    </Alert>
  );
}
