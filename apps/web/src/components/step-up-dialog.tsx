import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { StepUpPrompt } from '@/lib/step-up';

/** Why the last proof was refused, as a text key. */
function refusedKey(refused: { code: number; parameter?: string; reason?: string } | undefined): string | null {
  if (!refused) return null;
  if (refused.code === 902) return 'stepUp.wrongPassword';
  if (refused.reason === 'required') return 'stepUp.codeRequired';
  return 'stepUp.codeInvalid';
}

/**
 * Asks for the password (and the authenticator's code when the second factor is on) when the server
 * wants a recent proof before a change of credentials or an administrator's sensitive action (914);
 * the SDK then proves it and sends the call again.
 */
export function StepUpDialog({ prompt }: { prompt: StepUpPrompt }) {
  const { t } = useTranslation();
  const id = useId();
  const ask = useSyncExternalStore(
    (onChange) => prompt.subscribe(onChange),
    () => prompt.current,
  );
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const refused = refusedKey(ask?.refused);
  // What was typed goes with the answer: a refused proof asks again with empty fields.
  const answer = (proof: Parameters<StepUpPrompt['answer']>[0]) => {
    setPassword('');
    setCode('');
    prompt.answer(proof);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.replace(/\s+/g, '');
    answer(trimmed ? { password, code: trimmed } : { password });
  };
  return (
    <Dialog open={ask !== null} onClose={() => answer(null)} aria-labelledby={`${id}-t`}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-t`}>{t('stepUp.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('stepUp.text')}</DialogContentText>
          {refused && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {t(refused)}
            </Alert>
          )}
          <TextField
            label={t('stepUp.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            fullWidth
            margin="normal"
            autoFocus
          />
          <TextField
            label={t('stepUp.code')}
            helperText={t('stepUp.codeHelp')}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            fullWidth
            margin="normal"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => answer(null)}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!password}>
            {t('stepUp.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
