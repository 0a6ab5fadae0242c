import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n-react';
import { z } from 'zod';
import { Code, recoveryCodeSchema, totpCodeSchema, type TotpSetupData } from '@till/protocol';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormFrame } from '@/components/form-frame';
import { FormTextField } from '@/components/form-text-field';
import { ErrorState, LoadingState, useErrorMessage } from '@/components/states';
import { SubmitButton } from '@/components/submit-button';
import { isApiError } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { formLevelError, schemaResolver, showFieldError } from '@/lib/form';
import { useTill } from '@/lib/till';
import {
  disableTotp,
  enableTotp,
  renewRecoveryCodes,
  secondFactorKey,
  securityLogKeys,
  setupTotp,
  useSecondFactor,
} from '../api/profile-api';
import { RecoveryCodes } from './recovery-codes';

const enableSchema = z.object({ code: totpCodeSchema, currentPassword: z.string().min(1).max(1024) });
type EnableFields = z.input<typeof enableSchema>;

/** The secret as a QR code for the authenticator app (drawn here: the secret never leaves the page). */
function QrCode({ uri, label }: { uri: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(({ toDataURL }) =>
      toDataURL(uri, { margin: 2, width: 200, errorCorrectionLevel: 'M' }).then((url) => live && setSrc(url)),
    );
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? (
    <Box component="img" src={src} alt={label} data-testid="totp-qr" sx={{ width: 200, height: 200 }} />
  ) : (
    <Box sx={{ width: 200, height: 200 }} aria-hidden />
  );
}

/** Groups of four, as authenticator apps show secrets to type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function EnableForm({ setup, onEnabled }: { setup: TotpSetupData; onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const till = useTill();
  const [copied, setCopied] = useState<boolean | null>(null);
  const { control, handleSubmit, setError } = useForm<EnableFields>({
    resolver: schemaResolver(enableSchema),
    defaultValues: { code: '', currentPassword: '' },
  });
  const mutation = useMutation({
    mutationFn: (v: z.output<typeof enableSchema>) => enableTotp(till, v.code, v.currentPassword),
    onSuccess: onEnabled,
    onError: (error) => {
      if (!showFieldError(error, setError, ['code'], undefined, 'full'))
        showFieldError(error, setError, ['currentPassword']);
    },
  });
  const formError = formLevelError(mutation.error, ['code', 'currentPassword']);
  return (
    <FormFrame
      label={t('security.enableTitle')}
      onSubmit={handleSubmit((v) => mutation.mutate(enableSchema.parse(v)))}
      error={formError}
    >
      <Typography sx={{ mb: 1 }}>{t('security.scan')}</Typography>
      {/* A phone cannot scan its own screen: there the key opens the authenticator app directly. */}
      <Button
        component="a"
        href={setup.uri}
        variant="contained"
        sx={{ display: { xs: 'inline-flex', md: 'none' }, mb: 2 }}
      >
        {t('security.openInApp')}
      </Button>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <QrCode uri={setup.uri} label={t('security.qrLabel')} />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2">{t('security.orType')}</Typography>
          <Typography
            data-testid="totp-secret"
            aria-label={t('security.secret')}
            sx={{ fontFamily: 'monospace', fontSize: '1.05rem', wordBreak: 'break-all', userSelect: 'all' }}
          >
            {grouped(setup.secret)}
          </Typography>
          <Button
            size="small"
            variant="outlined"
            sx={{ mt: 1 }}
            onClick={() =>
              void navigator.clipboard.writeText(setup.secret).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {t('security.copyKey')}
          </Button>
          {copied !== null ? (
            <Typography variant="body2" role="status" color={copied ? 'success.main' : 'error'} sx={{ mt: 0.5 }}>
              {copied ? t('security.keyCopied') : t('security.keyCopyFailed')}
            </Typography>
          ) : null}
        </Box>
      </Box>
      <FormTextField
        control={control}
        name="code"
        label={t('security.code')}
        autoComplete="one-time-code"
        inputMode="numeric"
        required
      />
      <FormTextField
        control={control}
        name="currentPassword"
        label={t('fields.currentPassword')}
        type="password"
        autoComplete="current-password"
        required
      />
      <SubmitButton pending={mutation.isPending}>{t('security.enable')}</SubmitButton>
    </FormFrame>
  );
}

const disableSchema = z.object({ value: z.string(), currentPassword: z.string().min(1).max(1024) });
/** The server names the code or the recovery code; both are typed into `value`. */
const VALUE_FIELD = { code: 'value', recoveryCode: 'value' } as const;
type DisableFields = z.infer<typeof disableSchema>;

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const { t } = useTranslation();
  const till = useTill();
  const [recovery, setRecovery] = useState(false);
  const schema = disableSchema.extend({ value: recovery ? recoveryCodeSchema : totpCodeSchema });
  const { control, handleSubmit, setError } = useForm<DisableFields>({
    resolver: schemaResolver(schema),
    defaultValues: { value: '', currentPassword: '' },
  });
  const mutation = useMutation({
    mutationFn: (v: DisableFields) =>
      disableTotp(till, {
        currentPassword: v.currentPassword,
        ...(recovery ? { recoveryCode: v.value } : { code: v.value }),
      }),
    onSuccess: onDisabled,
    onError: (error) => {
      if (!showFieldError(error, setError, VALUE_FIELD, undefined, 'full'))
        showFieldError(error, setError, ['currentPassword']);
    },
  });
  const formError = formLevelError(mutation.error, { ...VALUE_FIELD, currentPassword: 'currentPassword' });
  return (
    <FormFrame
      label={t('security.disableTitle')}
      onSubmit={handleSubmit((v) => mutation.mutate(schema.parse(v)))}
      error={formError}
    >
      <FormTextField
        control={control}
        name="value"
        label={recovery ? t('security.recoveryCode') : t('security.code')}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        required
      />
      <FormTextField
        control={control}
        name="currentPassword"
        label={t('fields.currentPassword')}
        type="password"
        autoComplete="current-password"
        required
      />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <SubmitButton pending={mutation.isPending}>{t('security.disable')}</SubmitButton>
        <Button onClick={() => setRecovery(!recovery)}>
          {recovery ? t('security.useCode') : t('security.useRecoveryCode')}
        </Button>
      </Box>
    </FormFrame>
  );
}

/**
 * New recovery codes in place of the old ones, after a confirmation; the server may ask for the
 * password and a code first (the step-up dialog). A step-up the user cancels is no error to show.
 */
function RenewCodes({ onRenewed }: { onRenewed: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const till = useTill();
  const errorMessage = useErrorMessage();
  const [confirming, setConfirming] = useState(false);
  const renew = useMutation({
    mutationFn: () => renewRecoveryCodes(till),
    onSuccess: (codes) => {
      setConfirming(false);
      onRenewed(codes);
    },
    onError: () => setConfirming(false),
  });
  const cancelled = isApiError(renew.error, Code.StepUpRequired);
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('security.renewText')}
      </Typography>
      {renew.isError ? (
        <Alert severity={cancelled ? 'info' : 'error'} role="alert" sx={{ mb: 1 }}>
          {cancelled ? t('security.renewCancelled') : errorMessage(renew.error)}
        </Alert>
      ) : null}
      <Button variant="outlined" onClick={() => setConfirming(true)} disabled={renew.isPending}>
        {renew.isPending ? t('security.renewing') : t('security.renew')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('security.renewTitle')}
        text={t('security.renewConfirm')}
        confirmLabel={t('security.renewYes')}
        onConfirm={() => renew.mutate()}
        onClose={() => setConfirming(false)}
        busy={renew.isPending}
      />
    </Box>
  );
}

/**
 * Two-step sign-in with an authenticator app: set up (QR code and the secret as text), confirm with
 * a code and the password, keep the recovery codes shown once, or turn it off again.
 */
export function TwoFactor() {
  const { t, i18n } = useTranslation();
  const till = useTill();
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const status = useSecondFactor();
  const [codes, setCodes] = useState<{ list: string[]; renewed: boolean } | null>(null);
  const [disabled, setDisabled] = useState(false);
  const setup = useMutation({ mutationFn: () => setupTotp(till) });
  const refresh = () => void client.invalidateQueries({ queryKey: secondFactorKey });

  if (codes) {
    return (
      <RecoveryCodes
        codes={codes.list}
        renewed={codes.renewed}
        onDone={() => {
          setCodes(null);
          setup.reset();
        }}
      />
    );
  }
  if (status.isPending) return <LoadingState />;
  if (status.isError) return <ErrorState error={status.error} onRetry={() => void status.refetch()} />;
  const totp = status.data;
  if (totp.enabled) {
    return (
      <Box>
        <Alert severity="success" sx={{ mb: 1 }}>
          {t('security.on', { date: formatDate(totp.enabledAt, i18n.language) })}
        </Alert>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {t('security.codesLeft', { count: totp.recoveryCodesLeft })}
        </Typography>
        <RenewCodes
          onRenewed={(list) => {
            setCodes({ list, renewed: true });
            refresh();
            // The renewal is the log's newest entry.
            void client.invalidateQueries({ queryKey: securityLogKeys });
          }}
        />
        <DisableForm
          onDisabled={() => {
            setDisabled(true);
            refresh();
          }}
        />
      </Box>
    );
  }
  return (
    <Box>
      {disabled ? (
        <Alert severity="info" role="status" sx={{ mb: 1 }}>
          {t('security.turnedOff')}
        </Alert>
      ) : null}
      <Typography sx={{ mb: 1 }}>{t('security.offText')}</Typography>
      {setup.data ? (
        <EnableForm
          setup={setup.data}
          onEnabled={(recoveryCodes) => {
            setCodes({ list: recoveryCodes, renewed: false });
            setDisabled(false);
            refresh();
          }}
        />
      ) : (
        <>
          {setup.isError ? (
            <Alert severity="error" role="alert" sx={{ mb: 1 }}>
              {errorMessage(setup.error)}
            </Alert>
          ) : null}
          <Button variant="contained" onClick={() => setup.mutate()} disabled={setup.isPending}>
            {t('security.setUp')}
          </Button>
        </>
      )}
    </Box>
  );
}
