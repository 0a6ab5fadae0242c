import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { AdminUser } from '@till/protocol';
import { useErrorMessage } from '@/components/states';
import { isApiError } from '@/lib/api-error';
import { useTill } from '@/lib/till';
import { adminKeys } from '../api/admin-api';
import { deleteUser, useOwnSecondFactor } from '../api/delete-user';

/**
 * An administrator deletes a user's account, as the user would: the user's e-mail address typed
 * out, and the administrator's own password. Says what is erased and what is kept first.
 */
export function DeleteUserDialog({ user, onClose }: { user: AdminUser; onClose: (deleted: boolean) => void }) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const id = useId();
  const [confirm, setConfirm] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const needsCode = useOwnSecondFactor(till).data === true;
  const mutation = useMutation({
    mutationFn: () => deleteUser(till, user.id, confirm.trim(), password, needsCode ? code : ''),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminKeys.users });
      onClose(true);
    },
  });
  const matches = confirm.trim().toLowerCase() === user.email.toLowerCase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches && password && (!needsCode || code.trim())) mutation.mutate();
  };
  const error = mutation.error;
  return (
    <Dialog open onClose={() => onClose(false)} aria-labelledby={`${id}-t`} fullWidth maxWidth="sm">
      <form noValidate onSubmit={submit} aria-label={t('deletion.adminTitle', { email: user.email })}>
        <DialogTitle id={`${id}-t`}>{t('deletion.adminTitle', { email: user.email })}</DialogTitle>
        <DialogContent>
          <DialogContentText gutterBottom>{t('deletion.adminText')}</DialogContentText>
          {mutation.isError ? (
            <Alert severity="error" role="alert" sx={{ my: 1 }}>
              {isApiError(error, 902) ? t('validation.wrong_password') : errorMessage(error)}
            </Alert>
          ) : null}
          <TextField
            label={t('deletion.adminConfirmLabel')}
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={Boolean(confirm) && !matches}
            helperText={
              confirm && !matches
                ? t('deletion.confirmMismatch')
                : t('deletion.adminConfirmHint', { email: user.email })
            }
            autoComplete="off"
            fullWidth
            margin="dense"
            required
          />
          <TextField
            label={t('deletion.adminPassword')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            fullWidth
            margin="dense"
            required
          />
          {needsCode ? (
            <TextField
              label={t('deletion.codeLabel')}
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              helperText={t('deletion.codeHint')}
              fullWidth
              margin="dense"
              required
            />
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose(false)}>{t('common.cancel')}</Button>
          <Button
            type="submit"
            color="error"
            variant="contained"
            disabled={!matches || !password || (needsCode && !code.trim()) || mutation.isPending}
          >
            {t('deletion.adminSubmit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
