import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n-react';
import { passkeyNameSchema, type Passkey } from '@till/protocol';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState, ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { formatDate } from '@/lib/format';
import { useTill } from '@/lib/till';
import { isCancelled, webauthn } from '@/lib/webauthn';
import { addPasskey, passkeysKey, removePasskey, renamePasskey, usePasskeys } from '../api/passkeys-api';

/** The message of a failed passkey step: a cancelled browser dialog and a refused answer read differently. */
function usePasskeyError() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  return (error: unknown) => {
    return isCancelled(error) ? t('passkeys.cancelled') : errorMessage(error);
  };
}

function AddPasskey() {
  const { t } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const message = usePasskeyError();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (value: string) => addPasskey(till, value),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: passkeysKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(t(name.trim() ? 'validation.too_long_plain' : 'validation.required'));
      return;
    }
    setNameError(null);
    add.mutate(parsed.data);
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('passkeys.add')} sx={{ mt: 2 }}>
      {add.isSuccess ? (
        <Alert severity="success" role="status" sx={{ mb: 1 }}>
          {t('passkeys.added', { name: add.data.name })}
        </Alert>
      ) : null}
      {add.isError ? (
        <Alert severity={isCancelled(add.error) ? 'info' : 'error'} role="alert" sx={{ mb: 1 }}>
          {message(add.error)}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          label={t('passkeys.name')}
          helperText={nameError ?? t('passkeys.nameHint')}
          error={Boolean(nameError)}
          value={name}
          onChange={(e) => setName(e.target.value)}
          size="small"
          required
          sx={{ flex: '1 1 14rem' }}
        />
        <Button type="submit" variant="contained" disabled={add.isPending}>
          {add.isPending ? t('passkeys.adding') : t('passkeys.add')}
        </Button>
      </Box>
    </Box>
  );
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const message = usePasskeyError();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [confirming, setConfirming] = useState(false);
  const refresh = () => void client.invalidateQueries({ queryKey: passkeysKey });
  const rename = useMutation({
    mutationFn: (value: string) => renamePasskey(till, passkey.id, value),
    onSuccess: () => {
      setEditing(false);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => removePasskey(till, passkey.id),
    onSuccess: () => {
      setConfirming(false);
      refresh();
    },
  });
  const used = passkey.lastUsedAt ? formatDate(passkey.lastUsedAt, i18n.language) : t('passkeys.neverUsed');
  const validName = passkeyNameSchema.safeParse(name).success;
  return (
    <ListItem divider sx={{ flexWrap: 'wrap', gap: 1 }}>
      {editing ? (
        <Box
          component="form"
          noValidate
          aria-label={t('passkeys.renameNamed', { name: passkey.name })}
          onSubmit={(e) => {
            e.preventDefault();
            if (validName) rename.mutate(name.trim());
          }}
          sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', flex: '1 1 100%' }}
        >
          <TextField
            label={t('passkeys.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={!validName}
            helperText={validName ? ' ' : t('validation.required')}
            size="small"
            autoFocus
            sx={{ flex: '1 1 12rem' }}
          />
          <Button type="submit" variant="contained" disabled={!validName || rename.isPending}>
            {t('common.save')}
          </Button>
          <Button onClick={() => (setEditing(false), setName(passkey.name))}>{t('common.cancel')}</Button>
        </Box>
      ) : (
        <>
          <ListItemText
            primary={passkey.name}
            secondary={t('passkeys.dates', { created: formatDate(passkey.createdAt, i18n.language), used })}
            sx={{ flex: '1 1 12rem', wordBreak: 'break-word' }}
          />
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button
              size="small"
              onClick={() => setEditing(true)}
              aria-label={t('passkeys.renameNamed', { name: passkey.name })}
            >
              {t('passkeys.rename')}
            </Button>
            <Button
              size="small"
              color="error"
              onClick={() => setConfirming(true)}
              aria-label={t('passkeys.removeNamed', { name: passkey.name })}
            >
              {t('passkeys.remove')}
            </Button>
          </Box>
        </>
      )}
      {rename.isError || remove.isError ? (
        <Alert severity="error" role="alert" sx={{ flex: '1 1 100%' }}>
          {message(rename.error ?? remove.error)}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={t('passkeys.removeTitle', { name: passkey.name })}
        text={t('passkeys.removeText')}
        confirmLabel={t('passkeys.remove')}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
        busy={remove.isPending}
      />
    </ListItem>
  );
}

/** The account's passkeys: add one with a name, see when each was added and last used, rename, remove. */
export function PasskeysSection() {
  const { t } = useTranslation();
  const query = usePasskeys();
  const supported = webauthn.supported();
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('passkeys.intro')}
      </Typography>
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? <ErrorState error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && !query.data.length ? <EmptyState title={t('passkeys.none')} /> : null}
      {query.data?.length ? (
        <List aria-label={t('passkeys.title')}>
          {query.data.map((p) => (
            <PasskeyRow key={p.id} passkey={p} />
          ))}
        </List>
      ) : null}
      {supported ? (
        <AddPasskey />
      ) : (
        <Alert severity="info" sx={{ mt: 1 }}>
          {t('passkeys.unsupported')}
        </Alert>
      )}
    </>
  );
}
