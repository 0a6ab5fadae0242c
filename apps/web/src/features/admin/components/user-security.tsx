import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { AdminUser } from '@till/protocol';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SecurityLogList } from '@/components/security-log-list';
import { ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { useTill } from '@/lib/till';
import { resetSecondFactor, useUserSecurityLog } from '../api/admin-api';

const PAGE_SIZE = 10;

/**
 * One user's security: their log, and turning their second factor off for someone who lost both
 * their phone and their recovery codes (asked once more before it happens; the user gets a mail).
 */
export function UserSecurity({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation();
  const till = useTill();
  const id = useId();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const [page, setPage] = useState(1);
  const [asking, setAsking] = useState(false);
  const log = useUserSecurityLog(user.id, page, PAGE_SIZE);
  const reset = useMutation({
    mutationFn: () => resetSecondFactor(till, user.id),
    onSuccess: () => {
      setAsking(false);
      void client.invalidateQueries({ queryKey: ['admin', 'security-log', user.id] });
    },
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby={id} fullWidth maxWidth="sm">
      <DialogTitle id={id}>{t('security.adminTitle', { email: user.email })}</DialogTitle>
      <DialogContent>
        <Typography variant="subtitle1" component="h3" sx={{ mt: 1 }}>
          {t('security.twoFactor')}
        </Typography>
        {reset.isSuccess ? (
          <Alert severity={reset.data ? 'success' : 'info'} role="status" sx={{ my: 1 }}>
            {reset.data ? t('security.adminResetDone') : t('security.adminResetNone')}
          </Alert>
        ) : null}
        {reset.isError ? (
          <Alert severity="error" role="alert" sx={{ my: 1 }}>
            {errorMessage(reset.error)}
          </Alert>
        ) : null}
        <Button variant="outlined" color="warning" onClick={() => setAsking(true)} sx={{ my: 1 }}>
          {t('security.adminReset')}
        </Button>
        <Typography variant="subtitle1" component="h3" sx={{ mt: 2 }}>
          {t('security.log')}
        </Typography>
        {log.isPending ? <LoadingState /> : null}
        {log.isError ? <ErrorState error={log.error} onRetry={() => void log.refetch()} /> : null}
        {log.data ? (
          <SecurityLogList
            label={t('security.log')}
            entries={log.data.entries}
            total={log.data.total}
            page={page}
            pageSize={PAGE_SIZE}
            onPage={setPage}
          />
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
      <ConfirmDialog
        open={asking}
        title={t('security.adminReset')}
        text={t('security.adminResetConfirm', { email: user.email })}
        confirmLabel={t('security.adminResetYes')}
        onConfirm={() => reset.mutate()}
        onClose={() => setAsking(false)}
        busy={reset.isPending}
      />
    </Dialog>
  );
}
