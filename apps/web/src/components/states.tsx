import Box from '@mui/material/Box';
import { alpha, keyframes } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { Code } from '@till/protocol';
import { FrameButton } from './frame-button';
import { codeOf, messageKeys, messageValues } from '@/lib/api-error';

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 4, justifyContent: 'center' }}
    >
      {/* MUI's CircularProgress in look, drawn with a border: the first screen shows it while the
          catalog loads, and would load the component only for this. */}
      <Box
        component="span"
        aria-hidden
        sx={{
          width: 28,
          height: 28,
          boxSizing: 'border-box',
          border: 3,
          borderColor: 'primary.main',
          borderRightColor: 'transparent',
          borderRadius: '50%',
          animation: `${spin} 1.4s linear infinite`,
        }}
      />
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
 * product already owned, an expired coupon), else by its protocol code; each says what to do. A
 * scope (`'admin'`) puts its own texts first and names fields and states by its `fields`/`status`.
 */
export function useErrorMessage(scope?: string) {
  const { t } = useTranslation();
  const name = (kind: 'fields' | 'status', raw: string) =>
    scope ? t(`${scope}.${kind}.${raw}`, { defaultValue: raw }) : raw;
  return (error: unknown, extra?: Record<string, unknown>): string =>
    t(messageKeys(error, scope), messageValues(error, extra, name));
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
        <FrameButton color="inherit" size="small" onClick={onRetry}>
          {t('common.retry')}
        </FrameButton>
      ) : null}
    </Box>
  );
}
