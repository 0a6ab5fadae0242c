import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n-react';
import { Link as RouterLink } from 'react-router-dom';
import { useErrorMessage } from '@/components/states';
import { useTill } from '@/lib/till';
import { resendConfirmation } from '../api/auth-api';

/** After registering: check your mail, send the link again, or go on shopping (signed in already). */
export function RegisteredNext({ email, continueHref }: { email: string; continueHref: string }) {
  const { t } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const resend = useMutation({ mutationFn: () => resendConfirmation(till) });
  return (
    <Box role="status">
      <Typography variant="h6" component="h2" gutterBottom>
        {t('auth.registeredTitle')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('auth.registeredText', { email })}</Typography>
      {resend.isSuccess ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('auth.resent')}
        </Alert>
      ) : null}
      {resend.isError ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {errorMessage(resend.error)}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button component={RouterLink} to={continueHref} variant="contained">
          {t('auth.continue')}
        </Button>
        <Button variant="outlined" onClick={() => resend.mutate()} disabled={resend.isPending}>
          {t('auth.resend')}
        </Button>
      </Box>
    </Box>
  );
}

/** After asking for a reset link: check your mail, and the way back to sign in. */
export function ResetLinkSent({ email, signInHref }: { email: string; signInHref: string }) {
  const { t } = useTranslation();
  return (
    <Box role="status">
      <Typography variant="h6" component="h2" gutterBottom>
        {t('auth.resetSentTitle')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('auth.resetSentText', { email })}</Typography>
      <Button component={RouterLink} to={signInHref} variant="contained">
        {t('auth.backToSignIn')}
      </Button>
    </Box>
  );
}
