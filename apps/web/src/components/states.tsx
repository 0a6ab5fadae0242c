import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Code } from '@till/protocol';
import { codeOf } from '@/lib/api-error';

export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 4, justifyContent: 'center' }}
    >
      <CircularProgress size={28} aria-hidden />
      <Typography>{label ?? t('common.loading')}</Typography>
    </Box>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box sx={{ textAlign: 'center', py: 5, px: 2 }}>
      <Typography variant="h6" component="p" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** The message for a failed call, by protocol code. */
export function useErrorMessage() {
  const { t } = useTranslation();
  return (error: unknown): string => {
    const code = codeOf(error);
    const key = `errors.${code}`;
    return t(key, { defaultValue: t('errors.unknown') });
  };
}

/** A failed load: 905 reads "can't reach the server" and offers a retry, as any failure does. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const message = useErrorMessage()(error);
  const offline = codeOf(error) === Code.NetworkError;
  return (
    <Alert
      severity={offline ? 'warning' : 'error'}
      sx={{ my: 2 }}
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    >
      {message}
    </Alert>
  );
}
