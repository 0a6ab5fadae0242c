import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Code } from '@till/protocol';
import { codeOf, messageKeys, messageValues } from '@/lib/api-error';

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

/**
 * The message for a failed call: by its reason where the server gave one (a file too large, a
 * product already owned, an expired coupon), else by its protocol code; each says what to do.
 */
export function useErrorMessage() {
  const { t } = useTranslation();
  return (error: unknown, extra?: Record<string, unknown>): string =>
    t(messageKeys(error), messageValues(error, extra));
}

/**
 * A failed load: 905 reads "can't reach the server" and offers a retry, as any failure does. It is
 * drawn like MUI's Alert without using it: this state belongs to the first screen, whose JavaScript
 * is measured (bench/web), and Alert with its icons weighs about 4 KB gzip there.
 */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const message = useErrorMessage()(error);
  const offline = codeOf(error) === Code.NetworkError;
  const tone = offline ? 'warning' : 'error';
  return (
    <Box
      role="alert"
      sx={(theme) => ({
        my: 2,
        px: 2,
        py: 1,
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 1,
        borderRadius: 1,
        bgcolor: alpha(theme.palette[tone].main, 0.1),
        color: theme.palette[tone].dark,
        borderLeft: 4,
        borderColor: `${tone}.main`,
      })}
    >
      <Typography variant="body2" sx={{ flexGrow: 1, minWidth: 0, py: 0.75, overflowWrap: 'anywhere' }}>
        {message}
      </Typography>
      {onRetry ? (
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      ) : null}
    </Box>
  );
}
