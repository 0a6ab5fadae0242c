import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import type { User } from '@till/protocol';
import { useErrorMessage } from '@/components/states';
import { isApiError } from '@/lib/api-error';
import { fieldOfParameter } from '@/lib/form';
import { useTill } from '@/lib/till';
import { isCancelled, webauthn } from '@/lib/webauthn';
import { deleteAccount, usePasskeys } from '../api/passkeys-api';
import { useSecondFactor } from '../api/profile-api';

/**
 * The danger zone: what deleting keeps and erases, then the typed address and the password (or,
 * when the account has passkeys and the browser can use them, a passkey) before anything happens.
 * On success the session has ended; `onDeleted` takes the user to the goodbye page.
 */
/** The parameters a refusal may name, and the field that shows each. */
const CODE_FIELDS = { confirm: 'confirm', code: 'code', recoveryCode: 'code' } as const;

export function DeleteAccount({ user, onDeleted }: { user: User; onDeleted: () => void }) {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const id = useId();
  const passkeys = usePasskeys();
  const canUsePasskey = webauthn.supported() && Boolean(passkeys.data?.length);
  const [method, setMethod] = useState<'password' | 'passkey'>('password');
  const [confirm, setConfirm] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const factor = useSecondFactor();
  const needsCode = method === 'password' && Boolean(factor.data?.enabled);
  const [problems, setProblems] = useState<{ confirm?: string; password?: string; code?: string }>({});
  const mutation = useMutation({
    mutationFn: () =>
      deleteAccount(till, confirm.trim(), method === 'password' ? password : null, needsCode ? code : ''),
    onSuccess: () => {
      client.clear();
      onDeleted();
    },
    onError: (error) => {
      const field = fieldOfParameter(error, CODE_FIELDS);
      if (field === 'confirm') setProblems({ confirm: t('deletion.confirmMismatch') });
      else if (isApiError(error, 902) && method === 'password')
        setProblems({ password: t('validation.wrong_password') });
      else if (field === 'code') setProblems({ code: errorMessage(error) });
    },
  });
  const matches = confirm.trim().toLowerCase() === user.email.toLowerCase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof problems = {};
    if (!matches) next.confirm = t('deletion.confirmMismatch');
    if (method === 'password' && !password) next.password = t('validation.required');
    if (needsCode && !code.trim()) next.code = t('validation.required');
    setProblems(next);
    if (!next.confirm && !next.password && !next.code) mutation.mutate();
  };
  const shownError =
    mutation.isError && !problems.confirm && !problems.password && !problems.code
      ? isCancelled(mutation.error)
        ? t('passkeys.cancelled')
        : isApiError(mutation.error, 902)
          ? t('deletion.passkeyRefused')
          : errorMessage(mutation.error)
      : null;
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('deletion.title')}>
      <Typography variant="body2" gutterBottom>
        {t('deletion.intro')}
      </Typography>
      <Typography variant="body2" component="p" sx={{ fontWeight: 600 }}>
        {t('deletion.erasedTitle')}
      </Typography>
      <Typography variant="body2" component="p" gutterBottom>
        {t('deletion.erased')}
      </Typography>
      <Typography variant="body2" component="p" sx={{ fontWeight: 600 }}>
        {t('deletion.keptTitle')}
      </Typography>
      <Typography variant="body2" component="p" gutterBottom>
        {t('deletion.kept')}
      </Typography>
      {shownError ? (
        <Alert severity="error" role="alert" sx={{ my: 1 }}>
          {shownError}
        </Alert>
      ) : null}
      <TextField
        label={t('deletion.confirmLabel')}
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={Boolean(problems.confirm)}
        helperText={problems.confirm ?? t('deletion.confirmHint', { email: user.email })}
        autoComplete="off"
        slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
        fullWidth
        margin="normal"
        required
      />
      {canUsePasskey ? (
        <RadioGroup
          aria-labelledby={`${id}-how`}
          value={method}
          onChange={(e) => setMethod(e.target.value as 'password' | 'passkey')}
        >
          <Typography id={`${id}-how`} variant="body2">
            {t('deletion.how')}
          </Typography>
          <FormControlLabel value="password" control={<Radio />} label={t('deletion.withPassword')} />
          <FormControlLabel value="passkey" control={<Radio />} label={t('deletion.withPasskey')} />
        </RadioGroup>
      ) : null}
      {method === 'password' ? (
        <TextField
          label={t('fields.currentPassword')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={Boolean(problems.password)}
          helperText={problems.password ?? ' '}
          fullWidth
          margin="normal"
          required
        />
      ) : null}
      {needsCode ? (
        <TextField
          label={t('deletion.codeLabel')}
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={Boolean(problems.code)}
          helperText={problems.code ?? t('deletion.codeHint')}
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
          fullWidth
          margin="normal"
          required
        />
      ) : null}
      <Button type="submit" variant="contained" color="error" disabled={mutation.isPending} sx={{ mt: 1 }}>
        {mutation.isPending ? t('deletion.deleting') : t('deletion.submit')}
      </Button>
    </Box>
  );
}
